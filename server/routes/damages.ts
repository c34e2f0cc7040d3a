/**
 * Reporting a damage (spec §2 Damage wizard, §7 POST /damage/add). Who may: the roles of
 * schemas/resources/damage.json (ACCESS.md "damage: add": ADMIN all, MANAGER client, USER own
 * vehicle; ADVISOR refused); the vehicle must be within the caller's vehicle scope, else it is
 * answered as absent. GET /damage/{id} is the damage resource's own by-id route (byId).
 *
 * A client variant may refuse risk types to some callers (ACCESS.md: under the regional dealer a
 * MANAGER or ADVISOR may not choose 'AC z regresem' and 'OC nasze'): `config.damageRiskTypeLimits`
 * is a list of { when: condition, refused: [risk types] }, empty by default.
 */
interface RiskTypeLimit {
  when: Condition;
  refused: string[];
}
import type { FastifyInstance } from 'fastify';
import type { DamageInput } from '../repositories/damages.ts';
import type { Condition } from '../../runtime/core/conditions.ts';
import { RuleViolation, withFailureMessage } from '../repositories/write-rules.ts';
import { scopeOfResource } from '../access/scopes.ts';
import { actorOf } from '../audit/index.ts';

export default async function damageRoutes(app: FastifyInstance) {
  app.post<{ Body: DamageInput }>('/api/damage/add', {
    config: { access: { resource: 'damage' }, idempotent: true, operation: { resource: 'damage', action: 'add', summary: 'Report a damage of a vehicle' } },
    schema: { body: { $ref: 'damage-add-request#' }, response: { 200: { $ref: 'damage-add-response#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const session = request.session!;
      const { bundle, conditions } = app.config;
      const limits = (bundle.config.damageRiskTypeLimits ?? []) as RiskTypeLimit[];
      const context = { role: session.role, variant: bundle.variant, config: bundle.config };
      // zpolisTyp is always present here: the body schema's default ('AC') fills it during validation
      if (limits.some((l) => l.refused.includes(request.body.zpolisTyp!) && conditions.matches(l.when, context))) {
        throw new RuleViolation(400, 'zpolisTyp', 'validation:enum');
      }
      const scope = scopeOfResource(app, 'car', session);
      const added = await withFailureMessage(app, request, 'damage:messages.addFailed',
        () => app.damages.add(request.body, scope, { userId: session.userId, role: session.role },
          // the one write path (issue 45): the client's fleet managers hear of it (issue 25), the
          // subscribed systems get damage.reported (issue 35), and the trail records the report as
          // the wizard sent it with the order row it made (issue 37), in the damage's own transaction
          (trx, added) => app.writes.record(trx, {
            actor: actorOf(request), resource: 'damage', key: added.sprawaId, action: 'create',
            after: { ...request.body, nrSprawy: added.nrSprawy, autId: added.autId },
            notify: {
              occurrence: { kind: 'damageCreated' }, entityId: added.sprawaId, seq: added.sprawaId, actorUserId: session.userId,
              record: { klientSymbol: added.klientSymbol, zgloEmail: added.zgloEmail }, payload: { by: session.login },
            },
          })));
      return { ...added, message: app.config.t('damage:messages.added') };
    },
  });
}
