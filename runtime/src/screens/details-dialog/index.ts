import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `details-dialog` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'details-dialog', component: lazy(() => import('./DetailsDialog')) };
