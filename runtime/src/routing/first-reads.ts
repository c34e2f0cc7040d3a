/**
 * The first page's reads, asked as soon as the configuration is in (issue 47). A returning
 * driver's vehicle page asked for its record only once about ten code chunks and the session's
 * gates had come in one after another, each found only when the one before had been drawn: on a
 * phone over 4G its panels came seconds after the bundle. The screens the path will show — the
 * gate the session has still to pass, then the route's screens — are worked out here from the
 * configuration as AppRoutes.tsx and SessionGates.tsx work them out, and what each reads when first
 * drawn (its type's `reads.ts`) is asked at once; the screens' own calls then take those answers
 * (api/client.ts askAhead). A screen whose reads are not known ahead is read as before.
 *
 * Loaded beside the configuration bundle at a start-up with a session (config/startup.ts); the
 * login page never loads it.
 */
import type { ConditionEvaluator } from '../../core/conditions';
import { askAhead } from '../api/ahead';
import type { Bundle, RenderableScreen, RoutesDecl, Session } from '../config/bundle';
import { conditionContext } from '../config/context';
import { screenRegistry } from '../screens/registry';
import type { ScreenReads } from '../screens/types';
import { resolveRoute, type RouteDecision } from './resolve';

const readers = import.meta.glob<ScreenReads>('../screens/*/reads.ts', { eager: true, import: 'reads' });
const readsOfType = new Map(Object.entries(readers).map(([path, reads]) => [/\/screens\/([^/]+)\/reads\.ts$/.exec(path)?.[1], reads]));

/** The screens the page at `pathname` draws first for this session: the gate still to pass, then the route's (SessionGates.tsx, AppRoutes.tsx). */
export function firstScreens(bundle: Bundle, conditions: ConditionEvaluator, session: Session, pathname: string): RenderableScreen[] {
  const routes = bundle.screens.routes as RoutesDecl | undefined;
  if (!routes) return [];
  const ctx = conditionContext(bundle, session);
  const ids: string[] = [];
  // the gate is drawn first; the page's reads are asked beside it: a gate passed at once (terms
  // accepted earlier) then holds the page back no longer
  const passed = session.gatesPassed ?? [];
  const gate = (bundle.app.sessionGates ?? []).find((g) => !passed.includes(g.id) && conditions.matches(g.when, ctx));
  if (gate) ids.push(gate.screen);
  let decision: RouteDecision = resolveRoute(routes, pathname, true, conditions, ctx);
  for (let hops = 0; decision.kind === 'redirect' && hops < 3; hops++) decision = resolveRoute(routes, decision.to, true, conditions, ctx);
  if (decision.kind === 'screen') ids.push(...(decision.before ?? []), decision.screenId, ...(decision.after ?? []));
  return ids.map((id) => bundle.screens[id] as RenderableScreen | undefined).filter((screen) => screen !== undefined);
}

/** The addresses the page at `pathname` reads when first drawn for this session, in the order it asks them. */
export function firstReads(bundle: Bundle, conditions: ConditionEvaluator, session: Session, pathname: string): string[] {
  const ctx = conditionContext(bundle, session);
  const paths = firstScreens(bundle, conditions, session, pathname).flatMap((screen) => readsOfType.get(screen.type)?.(screen, { conditions, ctx }) ?? []);
  return [...new Set(paths)];
}

/**
 * Asks the first page's reads at once (see firstReads), and the code of its screens whose type can
 * be loaded ahead (`load`); the screens take both when drawn.
 */
export function askFirstReads(bundle: Bundle, conditions: ConditionEvaluator, session: Session, pathname: string): void {
  for (const screen of firstScreens(bundle, conditions, session, pathname)) screenRegistry.get(screen.type)?.load?.().catch(() => undefined);
  for (const path of firstReads(bundle, conditions, session, pathname)) askAhead(path);
}
