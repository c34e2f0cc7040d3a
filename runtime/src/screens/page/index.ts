import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { pageChecks } from './check';

/** The `page` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...pageChecks, component: lazy(() => import('./PageScreen')) };
