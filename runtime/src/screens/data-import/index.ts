import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `data-import` screen type (Import danych): its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'data-import', component: lazy(() => import('./DataImport')) };
