/**
 * Row scopes of ACCESS.md as SQL: which rows of a resource's view the caller may see. The scope
 * is chosen per role in schemas/resources/<name>.json; this module only knows the scope kinds.
 */
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { ResourceDecl } from '../config/load-bundle.ts';
import type { Session } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';

const DEFAULT_COLUMNS = { client: 'klientSymbol', ownVehicle: 'pojazdId', station: 'stacjaSerw', self: 'userId' } as const;

/** The scope of the caller's role, or a 403 when the role is not named in the resource's access. */
export function scopeOf(resource: ResourceDecl, session: Session, forbidden: string) {
  const scope = resource.access[session.role as keyof ResourceDecl['access']];
  if (!scope) throw new HttpError(403, forbidden, { code: 'FORBIDDEN' });
  return scope;
}

/** A WHERE expression limiting rows to the caller's scope. A missing session value matches nothing. */
export function scopeExpression(eb: ExpressionBuilder<any, any>, resource: ResourceDecl, session: Session, forbidden: string): Expression<SqlBool> {
  const scope = scopeOf(resource, session, forbidden);
  const column = (kind: keyof typeof DEFAULT_COLUMNS) => eb.ref(resource.scopeColumns?.[kind] ?? DEFAULT_COLUMNS[kind]);
  const equals = (kind: keyof typeof DEFAULT_COLUMNS, value: unknown) =>
    value === null || value === undefined ? sql<SqlBool>`false` : eb(column(kind), '=', value);
  switch (scope) {
    case 'all':
      return sql<SqlBool>`true`;
    case 'client':
      return equals('client', session.klientSymbol);
    case 'ownVehicle':
      return equals('ownVehicle', session.pojazdId);
    case 'station':
      return eb.or([equals('station', session.stacjaSerw), equals('ownVehicle', session.pojazdId)]);
    case 'self':
      return equals('self', session.userId);
  }
}
