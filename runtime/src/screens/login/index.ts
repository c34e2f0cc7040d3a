import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { loginChecks } from './check';

/** The `login` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...loginChecks, component: lazy(() => import('./LoginScreen')) };
