import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `reports` screen type (Raporty, issue 46): its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'reports', component: lazy(() => import('./ReportsScreen')) };
