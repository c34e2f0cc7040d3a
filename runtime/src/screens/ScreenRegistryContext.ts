/**
 * The screen registry handed down by React context (in the spirit of JSON Forms' renderers): the
 * screens that render other screens (ScreenView) read it here instead of importing the registry,
 * which imports every screen type — so no screen module imports its own importer.
 */
import { createContext, useContext } from 'react';
import type { ScreenTypeModule } from './types';

export type ScreenRegistry = ReadonlyMap<string, ScreenTypeModule>;

export const ScreenRegistryContext = createContext<ScreenRegistry>(new Map());

export function useScreenRegistry(): ScreenRegistry {
  return useContext(ScreenRegistryContext);
}
