/**
 * The loaded configuration (pre-configuration, merged bundle, condition evaluator), available to
 * every component. Start-up loads it; a newer bundle published meanwhile replaces it at a later
 * navigation (config/bundle-refresh.ts, provided again by routing/AppRoutes.tsx), so a React
 * context fits.
 */
import { createContext, useContext, type ComponentType } from 'react';
import { ConditionEvaluator } from '../../core/conditions';
import type { AppliedBranding } from './branding';
import type { Bundle, PreConfig, RoleName } from './bundle';

/** A preview of the configuration studio (config/preview.tsx): its banner, and the role it shows. */
export interface PreviewState {
  /** The role conditions see instead of the user's; unset when the preview's bundle could not be loaded. */
  role?: RoleName;
  /** What the preview shows, as the calls that answer by configuration name it (`source:variant:role`, the reports' `studioPreview`). */
  query?: string;
  Banner: ComponentType;
}

export interface LoadedConfig {
  preConfig: PreConfig;
  bundle: Bundle;
  conditions: ConditionEvaluator;
  /** The client variant's logo, ready to show (config/branding.ts). */
  branding: AppliedBranding;
  /** GET /api/ui/config's ETag, to ask at a navigation whether the bundle changed; none in a preview. */
  etag?: string | null;
  preview?: PreviewState;
  /**
   * The bundle is a visitor's part of it (the pre-configuration's `guest`: the public pages), drawn
   * while start-up loads the whole (config/startup.ts); nothing behind sign-in is drawn from it.
   */
  partial?: boolean;
}

export const ConfigContext = createContext<LoadedConfig | null>(null);

export function useConfig(): LoadedConfig {
  const value = useContext(ConfigContext);
  if (!value) throw new Error('useConfig() outside <ConfigContext.Provider>');
  return value;
}

export function makeLoadedConfig(preConfig: PreConfig, bundle: Bundle, branding: AppliedBranding = {}, more?: Pick<LoadedConfig, 'etag' | 'preview' | 'partial'>): LoadedConfig {
  return { preConfig, bundle, conditions: new ConditionEvaluator(bundle.conditions), branding, ...more };
}
