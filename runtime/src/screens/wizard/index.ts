import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `wizard` screen type: its component, loaded when a wizard opens. */
export const screenType: ScreenTypeModule = { type: 'wizard', component: lazy(() => import('./Wizard')) };
