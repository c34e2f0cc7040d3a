/**
 * Whether the configuration (app.json security.secondFactorRequiredWhen, per role and variant)
 * asks a role for a second factor: read by the sign-in (sign-in/complete.ts), by the route guard
 * that sends an account without one to enrol (plugins/auth.ts) and by the security settings.
 */
import type { FastifyInstance } from 'fastify';
import { asCondition, type Role } from '../../runtime/core/conditions.ts';

/** Whether the configuration (security.secondFactorRequiredWhen, per role and variant) asks this role for a second factor. */
export function secondFactorRequired(app: FastifyInstance, role: string): boolean {
  const { bundle, conditions } = app.config;
  const rule = (bundle.app.security as { secondFactorRequiredWhen?: unknown }).secondFactorRequiredWhen;
  if (rule === undefined || !app.secondFactor.enforce) return false;
  return conditions.matches(asCondition(rule), { role: role as Role, variant: bundle.variant, config: bundle.config });
}
