/**
 * The caller's row scope (ACCESS.md) as a filter the vehicle repositories apply inside their own
 * transactions: the scope kinds are access/row-scope.ts's, the choice per role is the named
 * resource's declaration in schemas/resources/ (car: all / client / own vehicle; unit: all /
 * client / own vehicle's client — ACCESS.md's row "unit, employees, tenant/employee").
 */
import type { FastifyInstance } from 'fastify';
import type { Session } from '../auth/sessions.ts';
import type { VehicleScope } from '../repositories/vehicle-state.ts';
import { scopeExpression } from '../access/row-scope.ts';

export function scopeOfResource(app: FastifyInstance, resource: string, session: Session): VehicleScope {
  const { resources } = app.config.bundle;
  const declared = resources[resource];
  if (!declared) throw new Error(`resource ${resource} is not in the bundle`);
  const forbidden = app.config.t('errors:forbidden');
  return (eb) => scopeExpression(eb, resources, declared, session, forbidden);
}
