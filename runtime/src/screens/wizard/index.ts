import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { wizardChecks } from './check';

/** The `wizard` screen type: its cross-check and its component, loaded when a wizard opens. */
export const screenType: ScreenTypeModule = { ...wizardChecks, component: lazy(() => import('./Wizard')) };
