/**
 * The loaded configuration (pre-configuration, merged bundle, condition evaluator), available to
 * every component. It is fixed once start-up has finished, so a React context fits.
 */
import { createContext, useContext } from 'react';
import { ConditionEvaluator } from '../../core/conditions';
import type { AppliedBranding } from './branding';
import type { Bundle, PreConfig } from './bundle';

export interface LoadedConfig {
  preConfig: PreConfig;
  bundle: Bundle;
  conditions: ConditionEvaluator;
  /** The client variant's logo, ready to show (config/branding.ts). */
  branding: AppliedBranding;
}

export const ConfigContext = createContext<LoadedConfig | null>(null);

export function useConfig(): LoadedConfig {
  const value = useContext(ConfigContext);
  if (!value) throw new Error('useConfig() outside <ConfigContext.Provider>');
  return value;
}

export function makeLoadedConfig(preConfig: PreConfig, bundle: Bundle, branding: AppliedBranding = {}): LoadedConfig {
  return { preConfig, bundle, conditions: new ConditionEvaluator(bundle.conditions), branding };
}
