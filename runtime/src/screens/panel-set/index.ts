import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `panel-set` screen type: its component, loaded when a screen of this type is shown, or ahead of a first page that shows it (routing/first-reads.ts). */
export const screenType: ScreenTypeModule = { type: 'panel-set', component: lazy(() => import('./PanelSet')), load: () => import('./PanelSet') };
