import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `studio` screen type (Konfiguracja portalu): its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'studio', component: lazy(() => import('./Studio')) };
