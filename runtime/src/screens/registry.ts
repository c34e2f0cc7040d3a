/**
 * The closed registry of screen types (DESIGN.md §2): one module per `type` listed in
 * screen-types.ts, read from its folder's `index.ts` (vite finds the folders; the list decides
 * which are registered). App.tsx passes it down through ScreenRegistryContext. Components load
 * lazily, so the login page does not wait for the table grid nor a signed-in user for the form kit.
 */
import { SCREEN_TYPES } from './screen-types';
import type { ScreenRegistry } from './ScreenRegistryContext';
import type { ScreenTypeModule } from './types';

const folders = import.meta.glob<ScreenTypeModule>('./*/index.ts', { eager: true, import: 'screenType' });

/** Builds the registry; a listed type without its folder module is a programming error, told at once. */
export function buildScreenRegistry(modules: Record<string, ScreenTypeModule | undefined> = folders): ScreenRegistry {
  return new Map(
    SCREEN_TYPES.map(({ type }) => {
      const module = modules[`./${type}/index.ts`];
      if (!module || module.type !== type) throw new Error(`screen type "${type}" (screen-types.ts) has no runtime/src/screens/${type}/index.ts exporting its screenType`);
      return [type, module] as const;
    }),
  );
}

export const screenRegistry = buildScreenRegistry();
