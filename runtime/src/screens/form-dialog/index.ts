import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { formDialogChecks } from './check';

/** The `form-dialog` screen type: its cross-check and its component, loaded when a dialog of this type opens. */
export const screenType: ScreenTypeModule = { ...formDialogChecks, component: lazy(() => import('./FormDialog')) };
