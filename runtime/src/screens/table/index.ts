import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `table` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'table', component: lazy(() => import('./TableScreen')) };
