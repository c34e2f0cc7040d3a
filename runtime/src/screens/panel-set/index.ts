import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';
import { panelSetChecks } from './check';

/** The `panel-set` screen type: its cross-check and its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { ...panelSetChecks, component: lazy(() => import('./PanelSet')) };
