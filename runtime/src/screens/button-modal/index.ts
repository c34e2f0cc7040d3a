import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { buttonModalChecks } from './check';

/** The `button-modal` screen type: its cross-check and its component, loaded when it opens. */
export const screenType: ScreenTypeModule = { ...buttonModalChecks, component: lazy(() => import('./ButtonModal')) };
