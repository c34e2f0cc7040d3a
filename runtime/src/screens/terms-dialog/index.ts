import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `terms-dialog` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'terms-dialog', component: lazy(() => import('./TermsDialog')) };
