import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { passwordPolicyChecks } from './check';

/** The `password-policy` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...passwordPolicyChecks, component: lazy(() => import('./PasswordPolicy')) };
