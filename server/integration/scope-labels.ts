/**
 * A scope as a reader knows it, "Odczyt: Pojazdy" for `read:car` (issue 34; issue 49 for the trail):
 * the account form's choices and Dziennik zmian's details name it alike.
 */
import type { Bundle } from '../config/bundle.ts';
import { availableScopes, type ScopeChoice } from './scopes.ts';

type T = (key: string, vars?: Record<string, unknown>) => string;

/** What the menu and the screens call a resource: its route's title, else its table's, else its entity's. */
export function nameOfResource(bundle: Bundle, t: T, resource: string): string {
  const screens = Object.entries(bundle.screens).filter(([, s]) => s.type === 'table' && s.resource === resource).map(([id]) => id);
  const routes = (bundle.screens.routes?.routes ?? []) as { title?: string; screen?: string; screens?: { screen: string }[] }[];
  const route = routes.find((r) => r.title && [r.screen, ...(r.screens ?? []).map((s) => s.screen)].some((id) => id && screens.includes(id)));
  if (route?.title) return t(route.title);
  const title = screens.map((id) => bundle.screens[id].title).find((x): x is string => typeof x === 'string');
  if (title) return t(title);
  const entity = bundle.resources[resource]?.entity;
  return String((entity && bundle.schemas[entity]?.title) ?? resource);
}

/** The choice with its label. */
export function labelledScope(bundle: Bundle, t: T, choice: ScopeChoice): ScopeChoice & { label: string } {
  if (choice.kind === 'webhooks' || choice.kind === 'reports') return { ...choice, label: t(`integration-account:scopes.${choice.kind}`) };
  const declaration = ((bundle as { imports?: Record<string, { label?: string }> }).imports ?? {})[choice.subject];
  const subject = choice.kind === 'read' ? nameOfResource(bundle, t, choice.subject) : declaration?.label ? t(declaration.label) : choice.subject;
  return { ...choice, label: t(`integration-account:scopes.${choice.kind}`, { subject }) };
}

/** A stored scope's label; a scope no longer offered (its resource gone) stays as stored. */
export function scopeLabeller(bundle: Bundle, t: T): (scope: unknown) => string | undefined {
  const labels = new Map(availableScopes(bundle).map((choice) => [choice.scope, labelledScope(bundle, t, choice).label]));
  return (scope) => (typeof scope === 'string' ? labels.get(scope) : undefined);
}
