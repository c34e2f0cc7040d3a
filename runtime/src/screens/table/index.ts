import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { tableChecks } from './check';

/** The `table` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...tableChecks, component: lazy(() => import('./TableScreen')) };
