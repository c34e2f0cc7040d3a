import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `action` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'action', component: lazy(() => import('./ActionScreen')) };
