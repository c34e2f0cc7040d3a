/**
 * The loaded configuration (pre-configuration, merged bundle, condition evaluator), available to
 * every component. It is fixed once start-up has finished, so a React context fits.
 */
import { createContext, useContext } from 'react';
import { ConditionEvaluator } from '../../core/conditions';
import type { Bundle, PreConfig } from './bundle';

export interface LoadedConfig {
  preConfig: PreConfig;
  bundle: Bundle;
  conditions: ConditionEvaluator;
}

export const ConfigContext = createContext<LoadedConfig | null>(null);

export function useConfig(): LoadedConfig {
  const value = useContext(ConfigContext);
  if (!value) throw new Error('useConfig() outside <ConfigContext.Provider>');
  return value;
}

export function makeLoadedConfig(preConfig: PreConfig, bundle: Bundle): LoadedConfig {
  return { preConfig, bundle, conditions: new ConditionEvaluator(bundle.conditions) };
}
