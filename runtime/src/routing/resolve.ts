/**
 * The route table of screens/routes.json as a pure decision: given a path, whether a session
 * exists and the condition context, what to show. No React here, so every role's routing is
 * unit-tested against the real routes file.
 */
import { matchPath } from 'react-router';
import type { ConditionContext, ConditionEvaluator } from '../../core/conditions';
import type { RouteDecl, RoutesDecl } from '../config/bundle';

export type RouteDecision =
  | { kind: 'screen'; route: RouteDecl; screenId: string; before?: string[]; after?: string[]; help?: string }
  | { kind: 'redirect'; to: string }
  | { kind: 'signOut'; route: RouteDecl }
  | { kind: 'noAccess'; route: RouteDecl }
  | { kind: 'notFound' };

export function findRoute(routes: RoutesDecl, pathname: string): RouteDecl | undefined {
  return routes.routes.find((r) => matchPath({ path: r.path, end: true }, pathname) !== null);
}

type ScreenChoice = NonNullable<RouteDecl['screens']>[number];

/** The route's screen: the first of `screens` whose `when` matches (a missing `when` always does). */
export function chooseScreen(route: RouteDecl, ev: ConditionEvaluator, ctx: ConditionContext): string | null {
  if (route.screen) return route.screen;
  return route.screens?.find((s) => ev.matches(s.when, ctx))?.screen ?? null;
}

/** The screens shown above and below the chosen one (its `before` and `after` whose `when` matches). */
function besideScreens(choice: ScreenChoice, ev: ConditionEvaluator, ctx: ConditionContext): { before?: string[]; after?: string[] } {
  const pick = (list: ScreenChoice['before']) => (list ?? []).filter((s) => ev.matches(s.when, ctx)).map((s) => s.screen);
  const before = pick(choice.before);
  const after = pick(choice.after);
  return { ...(before.length ? { before } : {}), ...(after.length ? { after } : {}) };
}

/**
 * Where a signed-in user lands (routes.json `landing`): the one path, or the path of the first
 * entry whose `when` the user meets (an entry without `when` always does: the fallback the
 * meta-schema requires). Without any match, the last entry's path.
 */
export function landingPath(routes: Pick<RoutesDecl, 'landing'>, ev: ConditionEvaluator, ctx: ConditionContext): string {
  const { landing } = routes;
  if (typeof landing === 'string') return landing;
  return (landing.find((l) => ev.matches(l.when, ctx)) ?? landing[landing.length - 1]).path;
}

export function resolveRoute(
  routes: RoutesDecl,
  pathname: string,
  hasSession: boolean,
  ev: ConditionEvaluator,
  ctx: ConditionContext,
): RouteDecision {
  const route = findRoute(routes, pathname);
  if (!route) return { kind: 'notFound' };
  if (route.guestOnly && hasSession) return { kind: 'redirect', to: landingPath(routes, ev, ctx) };
  if (!route.public && !hasSession) return { kind: 'redirect', to: routes.signIn };
  if (route.redirect) return { kind: 'redirect', to: route.redirect };
  if (route.action === 'signOut') return { kind: 'signOut', route };
  if (!ev.matches(route.allowedWhen, ctx)) return { kind: 'noAccess', route };
  if (route.screen) return { kind: 'screen', route, screenId: route.screen, help: route.help };
  const choice = route.screens?.find((s) => ev.matches(s.when, ctx));
  // the help of the screen shown, where the route's screens differ by who looks (else the route's)
  return choice ? { kind: 'screen', route, screenId: choice.screen, help: choice.help ?? route.help, ...besideScreens(choice, ev, ctx) } : { kind: 'noAccess', route };
}

/** The path of the sign-out route (the one with `action: "signOut"`); the cross-check makes sure there is one. */
export function signOutPath(routes: RoutesDecl): string {
  const route = routes.routes.find((r) => r.action === 'signOut');
  if (!route) throw new Error('screens/routes.json declares no route with "action": "signOut"');
  return route.path;
}

/** Whether a path opens as a modal over the current page (menu links and actions pass the background). */
export function isModalPath(routes: RoutesDecl, pathname: string): boolean {
  return findRoute(routes, pathname)?.modal === true;
}
