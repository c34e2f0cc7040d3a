/**
 * Reporting a damage (spec §2 Damage wizard, §7 POST /damage/add). Who may: the roles of
 * schemas/resources/damage.json (ACCESS.md "damage: add": ADMIN all, MANAGER client, USER own
 * vehicle; ADVISOR refused); the vehicle must be within the caller's vehicle scope, else it is
 * answered as absent. GET /damage/{id} is the damage resource's own by-id route (byId).
 */
import type { FastifyInstance } from 'fastify';
import type { DamageInput } from '../repositories/damages.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import { scopeOfResource } from './scopes.ts';

export default async function damageRoutes(app: FastifyInstance) {
  app.post<{ Body: DamageInput }>('/api/damage/add', {
    config: { access: { resource: 'damage' } },
    schema: { tags: ['damage'], body: { $ref: 'damage-add-request#' }, response: { 200: { $ref: 'damage-add-response#' } } },
    handler: async (request) => {
      const session = request.session!;
      const scope = scopeOfResource(app, 'car', session);
      const added = await withFailureMessage(app, request, 'damage:messages.addFailed',
        () => app.damages.add(request.body, scope, { userId: session.userId, role: session.role }));
      return { ...added, message: app.config.t('damage:messages.added') };
    },
  });
}
