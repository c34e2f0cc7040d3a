/**
 * The closed registry of screen types (DESIGN.md §2): one module per folder's `index.ts` (vite
 * finds the folders), keyed by the type it declares; registry.test.ts holds it to THE list of
 * runtime/core/screen-checks/screen-types.ts, which the server's cross-check follows (the list
 * brings every type's checks, which the browser does not run, so it is not imported here). App.tsx passes the registry down
 * through ScreenRegistryContext. Components load lazily, so the login page does not wait for the
 * table grid nor a signed-in user for the form kit.
 */
import type { ScreenRegistry } from './ScreenRegistryContext';
import type { ScreenTypeModule } from './types';

const folders = import.meta.glob<ScreenTypeModule>('./*/index.ts', { eager: true, import: 'screenType' });

/** Builds the registry; a folder whose module declares another type is a programming error, told at once. */
export function buildScreenRegistry(modules: Record<string, ScreenTypeModule | undefined> = folders): ScreenRegistry {
  return new Map(
    Object.entries(modules).map(([path, module]) => {
      const folder = /^\.\/([^/]+)\/index\.ts$/.exec(path)?.[1];
      if (!module || module.type !== folder) throw new Error(`runtime/src/screens/${folder}/index.ts must export the screenType of type "${folder}"`);
      return [module.type, module] as const;
    }),
  );
}

export const screenRegistry = buildScreenRegistry();
