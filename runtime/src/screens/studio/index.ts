import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { studioChecks } from './check';

/** The `studio` screen type (Konfiguracja portalu): its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...studioChecks, component: lazy(() => import('./Studio')) };
