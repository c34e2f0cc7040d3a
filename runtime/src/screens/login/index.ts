import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/**
 * The `login` screen type: its component, loaded when a screen of this type is shown — and at
 * start-up, beside the configuration, when nobody is signed in (`guestFirst`): a visitor's first
 * page is the sign-in form, so it need not wait for the bundle to ask for it.
 */
export const screenType: ScreenTypeModule = { type: 'login', component: lazy(() => import('./LoginScreen')), load: () => import('./LoginScreen'), guestFirst: true };
