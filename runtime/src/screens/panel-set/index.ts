import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `panel-set` screen type: its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'panel-set', component: lazy(() => import('./PanelSet')) };
