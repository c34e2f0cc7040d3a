import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `form` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'form', component: lazy(() => import('./FormScreen')) };
