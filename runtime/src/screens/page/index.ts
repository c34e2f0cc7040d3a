import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `page` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'page', component: lazy(() => import('./PageScreen')) };
