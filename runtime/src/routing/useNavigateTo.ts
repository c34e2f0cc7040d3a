/**
 * Navigation that knows modal routes: a path whose route has `modal: true` opens over the current
 * page, so the current location travels along as the "background" to keep rendering beneath it.
 */
import { useCallback } from 'react';
import { useLocation, useNavigate, type Location } from 'react-router';
import { useConfig } from '../config/ConfigContext';
import type { RoutesDecl } from '../config/bundle';
import { useConditionContext } from '../config/useConditionContext';
import { isModalPath, landingPath, signOutPath } from './resolve';

export interface RouteState {
  background?: Location;
}

export function useRoutesDecl(): RoutesDecl {
  return useConfig().bundle.screens.routes as RoutesDecl;
}

/** The signed-in user's landing page (routes.json `landing`, per role when it is a list). */
export function useLanding(): string {
  const routes = useRoutesDecl();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  return landingPath(routes, conditions, ctx);
}

/** Signs the user out through the route table's sign-out route (screens/routes.json). */
export function useSignOut(): () => void {
  const navigate = useNavigate();
  const routes = useRoutesDecl();
  return useCallback(() => navigate(signOutPath(routes)), [navigate, routes]);
}

/** The state a link to `to` should carry (a background for modal routes, kept when already in one). */
export function useLinkState(): (to: string) => RouteState | undefined {
  const location = useLocation();
  const routes = useRoutesDecl();
  return useCallback(
    (to: string) => (isModalPath(routes, to) ? { background: (location.state as RouteState | null)?.background ?? location } : undefined),
    [location, routes],
  );
}

export function useNavigateTo(): (to: string) => void {
  const navigate = useNavigate();
  const linkState = useLinkState();
  return useCallback((to: string) => navigate(to, { state: linkState(to) }), [navigate, linkState]);
}
