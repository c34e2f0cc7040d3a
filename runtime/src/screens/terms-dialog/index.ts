import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { termsDialogChecks } from './check';

/** The `terms-dialog` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...termsDialogChecks, component: lazy(() => import('./TermsDialog')) };
