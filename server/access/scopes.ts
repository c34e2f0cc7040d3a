/**
 * The caller's row scope (ACCESS.md) as a filter the vehicle repositories apply inside their own
 * transactions: the scope kinds are row-scope.ts's, the choice per role is the named resource's
 * declaration in schemas/resources/ (car: all / client / own vehicle; unit: all / client / own
 * vehicle's client — ACCESS.md's row "unit, employees, tenant/employee"). Routes and services
 * (inspections, fuel anomalies) build it here and hand it down to the repositories.
 */
import type { FastifyInstance } from 'fastify';
import type { Expression, SqlBool } from 'kysely';
import type { Session } from '../auth/sessions.ts';
import type { ConfiguredBuilder } from '../db/configured-tables.ts';
import { scopeExpression } from './row-scope.ts';

/** The caller's row scope as a WHERE on table `car` (its columns klientSymbol, pojazdId, stacjaSerw), or on a view with those columns. */
export type VehicleScope = (eb: ConfiguredBuilder) => Expression<SqlBool>;

export function scopeOfResource(app: FastifyInstance, resource: string, session: Session): VehicleScope {
  const { resources } = app.config.bundle;
  const declared = resources[resource];
  if (!declared) throw new Error(`resource ${resource} is not in the bundle`);
  const forbidden = app.config.t('errors:forbidden');
  return (eb) => scopeExpression(eb, resources, declared, session, forbidden);
}
