import { lazy } from 'react';
import type { ScreenTypeModule } from '../types';

/** The `push-devices` screen type (Ustawienia → Powiadomienia, issue 47): its component, loaded when a screen of this type is shown. */
export const screenType: ScreenTypeModule = { type: 'push-devices', component: lazy(() => import('./PushDevices')) };
