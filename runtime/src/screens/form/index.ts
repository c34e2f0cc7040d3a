import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { formChecks } from './check';

/** The `form` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...formChecks, component: lazy(() => import('./FormScreen')) };
