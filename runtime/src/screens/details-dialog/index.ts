import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { detailsDialogChecks } from './check';

/** The `details-dialog` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...detailsDialogChecks, component: lazy(() => import('./DetailsDialog')) };
