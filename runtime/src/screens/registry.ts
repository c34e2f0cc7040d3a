/**
 * The closed registry of screen types (DESIGN.md §2): one component per `type`. A screen file
 * names its type; nothing else in the runtime knows which screens exist. Components load lazily,
 * so the login page does not wait for the table grid and a signed-in user not for the form kit.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ScreenType } from '../config/types';
import type { ScreenProps } from './types';

type ScreenComponent = LazyExoticComponent<ComponentType<ScreenProps<any>>>;

export const screenRegistry: Record<ScreenType, ScreenComponent> = {
  login: lazy(() => import('./LoginScreen')),
  table: lazy(() => import('./TableScreen')),
  'details-dialog': lazy(() => import('./DetailsDialog')),
  'panel-set': lazy(() => import('./PanelSet')),
  page: lazy(() => import('./PageScreen')),
  form: lazy(() => import('./FormScreen')),
  'terms-dialog': lazy(() => import('./TermsDialog')),
  action: lazy(() => import('./ActionScreen')),
  'password-policy': lazy(() => import('./PasswordPolicy')),
};

export function componentFor(type: string): ScreenComponent | undefined {
  return Object.hasOwn(screenRegistry, type) ? screenRegistry[type as ScreenType] : undefined;
}
