import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `security` screen type (Bezpieczeństwo, issue 36): its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'security', component: lazy(() => import('./SecurityScreen')) };
