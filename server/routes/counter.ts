/**
 * A new odometer reading (spec §7 POST /counter). ACCESS.md "counter (mileage)": ADMIN all,
 * MANAGER client, USER own vehicle; ADVISOR refused (§6: advisors cannot add mileage).
 */
import type { FastifyInstance } from 'fastify';
import type { CounterInput } from '../repositories/counter.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import { scopeOfResource } from '../access/scopes.ts';
import { actorOf } from '../audit/index.ts';

export default async function counterRoutes(app: FastifyInstance) {
  app.post<{ Body: CounterInput }>('/api/counter', {
    config: { access: { roles: ['ADMIN', 'MANAGER', 'USER'] }, idempotent: true, operation: { resource: 'car', action: 'counter', summary: 'Record a new odometer reading of a vehicle' } },
    schema: { body: { $ref: 'counter-request#' }, response: { 200: { $ref: 'counter-response#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const session = request.session!;
      const result = await withFailureMessage(app, request, 'car:counter.failed',
        () => app.counter.add(request.body, scopeOfResource(app, 'car', session), session.userId,
          // the one write path (issue 45): reading.added to the subscribed systems and the trail's
          // entry (the vehicle's reading before and the new one), in the reading's transaction
          (trx, r) => app.writes.record(trx, {
            actor: actorOf(request), resource: 'car', key: r.pojazdId, action: 'reading',
            extra: { aktStanLicz: [r.before.aktStanLicz, r.licznik], data: [null, new Date(r.at).toISOString()], ...(r.palStan == null ? {} : { palStan: [null, r.palStan] }) },
            facts: { licznik: r.licznik, palStan: r.palStan ?? null, data: new Date(r.at).toISOString() },
          })));
      return { ...result, message: app.config.t('car:counter.saved') };
    },
  });
}
