import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `form-dialog` screen type: its component, loaded when a dialog of this type opens. */
export const screenType: ScreenTypeModule = { type: 'form-dialog', component: lazy(() => import('./FormDialog')) };
