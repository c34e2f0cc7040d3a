import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { actionChecks } from './check';

/** The `action` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...actionChecks, component: lazy(() => import('./ActionScreen')) };
