import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `password-policy` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'password-policy', component: lazy(() => import('./PasswordPolicy')) };
