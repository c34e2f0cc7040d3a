/**
 * Reporting a damage (spec §2 Damage wizard, §7 POST /damage/add). Who may: the roles of
 * schemas/resources/damage.json (ACCESS.md "damage: add": ADMIN all, MANAGER client, USER own
 * vehicle; ADVISOR refused); the vehicle must be within the caller's vehicle scope, else it is
 * answered as absent. GET /damage/{id} is the damage resource's own by-id route (byId). The
 * report, the variant's limits on risk types and what a report causes are the damage service's
 * (services/damages.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { DamageInput } from '../repositories/damages.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import { actorOf } from '../audit/index.ts';

export default async function damageRoutes(app: FastifyInstance) {
  app.post<{ Body: DamageInput }>('/api/damage/add', {
    config: { access: { resource: 'damage' }, idempotent: true, operation: { resource: 'damage', action: 'add', summary: 'Report a damage of a vehicle' } },
    schema: { body: { $ref: 'damage-add-request#' }, response: { 200: { $ref: 'damage-add-response#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const added = await withFailureMessage(app, request, 'damage:messages.addFailed',
        () => app.damageService.add(actorOf(request), request.session!, request.body));
      return { ...added, message: app.config.t('damage:messages.added') };
    },
  });
}
