import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `button-modal` screen type: its component, loaded when it opens. */
export const screenType: ScreenTypeModule = { type: 'button-modal', component: lazy(() => import('./ButtonModal')) };
