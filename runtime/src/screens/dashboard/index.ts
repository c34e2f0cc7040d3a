import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `dashboard` screen type (the Pulpit): its component, loaded when a screen of this type is shown, or ahead of a first page that shows it (routing/first-reads.ts). */
export const screenType: ScreenTypeModule = { type: 'dashboard', component: lazy(() => import('./Dashboard')), load: () => import('./Dashboard') };
