/**
 * Row scopes of ACCESS.md as SQL: which rows of a resource's view the caller may see. The scope
 * is chosen per role in schemas/resources/<name>.json; this module only knows the scope kinds.
 *
 * A resource may instead declare `parentScope` (notes, attachments): its rows belong to records of
 * other resources, named by a type column and an id column, and a row is visible exactly when the
 * caller would see its parent row in the parent resource. The parents are looked up by name in the
 * bundle's resources, which every call is given: this module keeps no state of its own.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ConfiguredBuilder } from '../db/configured-tables.ts';
import type { ResourceDecl, RowScope } from '../config/bundle.ts';
import type { Session } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';

const DEFAULT_COLUMNS = { client: 'klientSymbol', ownVehicle: 'pojazdId', station: 'stacjaSerw', self: 'userId' } as const;
type Role = 'ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR';
export type ScopeKind = keyof typeof DEFAULT_COLUMNS;

/** The column of a resource's view a scope kind compares (its `scopeColumns`, or the default name). */
export function scopeColumnName(resource: Pick<ResourceDecl, 'scopeColumns'>, kind: ScopeKind): string {
  return resource.scopeColumns?.[kind] ?? DEFAULT_COLUMNS[kind];
}

/** Every resource of the bundle in use, by name: a parent-scoped resource finds its parents here. */
export type Resources = Readonly<Record<string, ResourceDecl>>;

/**
 * The declarations of a resource's parents by type value, looked up in the bundle the caller
 * passes (the cross-check has made sure every name exists). Passed, never remembered: a reloaded
 * bundle brings its own parents and nothing here can hold an old one.
 */
function parentsOf(resource: ResourceDecl, resources: Resources): Record<string, ResourceDecl> {
  const parents: Record<string, ResourceDecl> = {};
  for (const [type, name] of Object.entries(resource.parentScope?.parents ?? {})) {
    const parent = resources[name];
    if (!parent) throw new Error(`resource ${resource.resource}: parent resource ${name} is not in the bundle`);
    parents[type] = parent;
  }
  return parents;
}

/**
 * What each role may do with a resource: its row scope, 'parent' when it reads through at least
 * one parent resource, or nothing (403). Tests use it to know the expected answer per role.
 */
export function effectiveAccess(resource: ResourceDecl, resources: Resources): Partial<Record<Role, RowScope | 'parent'>> {
  if (!resource.parentScope) return { ...resource.access };
  const out: Partial<Record<Role, 'parent'>> = {};
  for (const parent of Object.values(parentsOf(resource, resources))) {
    for (const role of Object.keys(parent.access ?? {}) as Role[]) out[role] = 'parent';
  }
  return out;
}

/** The scope of the caller's role, or a 403 when the role is not named in the resource's access. */
export function scopeOf(resources: Resources, resource: ResourceDecl, session: Session, forbidden: string): RowScope | 'parent' {
  const scope = effectiveAccess(resource, resources)[session.role as Role];
  if (!scope) throw new HttpError(403, forbidden, { code: 'FORBIDDEN' });
  return scope;
}

/** A WHERE expression limiting rows to the caller's scope. A missing session value matches nothing. */
export function scopeExpression(eb: ConfiguredBuilder, resources: Resources, resource: ResourceDecl, session: Session, forbidden: string): Expression<SqlBool> {
  return scopeWhere(eb, resources, resource, session, forbidden);
}

/** `qualifier` names the table the scope columns belong to (the parent inside a parent-scope subquery). */
function scopeWhere(eb: ConfiguredBuilder, resources: Resources, resource: ResourceDecl, session: Session, forbidden: string, qualifier?: string): Expression<SqlBool> {
  const scope = scopeOf(resources, resource, session, forbidden);
  const column = (kind: ScopeKind) => {
    const name = scopeColumnName(resource, kind);
    return eb.ref(qualifier ? `${qualifier}.${name}` : name);
  };
  const equals = (kind: ScopeKind, value: unknown) =>
    value === null || value === undefined ? sql<SqlBool>`false` : eb(column(kind), '=', value);
  switch (scope) {
    case 'all':
      return sql<SqlBool>`true`;
    case 'client':
      return clientScope(session, (symbol) => equals('client', symbol), (list) => eb(column('client'), 'in', list));
    case 'ownVehicle':
      return equals('ownVehicle', session.pojazdId);
    case 'ownVehicleClient':
      // the client that owns the session's vehicle (an advisor at the station reads that client's units)
      if (session.pojazdId === null || session.pojazdId === undefined) return sql<SqlBool>`false`;
      return eb(column('client'), '=', sql`(select "klientSymbol" from car where "pojazdId" = ${session.pojazdId})`);
    case 'station':
      return eb.or([equals('station', session.stacjaSerw), equals('ownVehicle', session.pojazdId)]);
    case 'self':
      return equals('self', session.userId);
    case 'parent':
      return parentScopeExpression(eb, resources, resource, session, forbidden);
  }
}

/**
 * The client scope: the MANAGER's one client, or the list of clients an integration key names
 * (a key of several clients has no single klientSymbol: it matches through the list, and code
 * that knows only klientSymbol matches nothing for it — closed, never open).
 */
function clientScope(session: Session, equals: (symbol: string | null) => Expression<SqlBool>, inList: (list: readonly string[]) => Expression<SqlBool>): Expression<SqlBool> {
  const clients = session.integration?.clients;
  if (Array.isArray(clients)) return clients.length === 0 ? sql<SqlBool>`false` : inList(clients);
  return equals(session.klientSymbol);
}

/**
 * `type = 'AUTORY' and exists (select 1 from v_order as scope_parent where scope_parent."autId" =
 * v_note."zrodloId" and <the caller's scope on v_order>) or type = 'SZKODY' and …` — one branch per
 * parent the caller's role may read. The parent's scope columns are qualified with the subquery's
 * alias, so they can never silently resolve to a column of the child's view.
 */
function parentScopeExpression(eb: ConfiguredBuilder, resources: Resources, resource: ResourceDecl, session: Session, forbidden: string): Expression<SqlBool> {
  const { typeColumn, idColumn } = resource.parentScope!;
  const branches: Expression<SqlBool>[] = [];
  for (const [type, parent] of Object.entries(parentsOf(resource, resources))) {
    const parentScope = parent.access?.[session.role as Role];
    if (!parentScope) continue;
    const ofType = eb(eb.ref(`${resource.source}.${typeColumn}`), '=', type);
    if (parentScope === 'all') {
      branches.push(ofType);
      continue;
    }
    const visibleParent = eb.exists(
      eb
        .selectFrom(`${parent.source} as scope_parent`)
        .select(sql`1`.as('one'))
        .whereRef(`scope_parent.${parent.key}`, '=', `${resource.source}.${idColumn}`)
        .where((inner) => scopeWhere(inner, resources, parent, session, forbidden, 'scope_parent')),
    );
    branches.push(eb.and([ofType, visibleParent]));
  }
  if (branches.length === 0) throw new HttpError(403, forbidden, { code: 'FORBIDDEN' });
  return branches.length === 1 ? branches[0] : eb.or(branches);
}
