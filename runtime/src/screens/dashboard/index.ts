import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { dashboardChecks } from './check';

/** The `dashboard` screen type (the Pulpit): its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...dashboardChecks, component: lazy(() => import('./Dashboard')) };
