/**
 * A new odometer reading (spec §7 POST /counter). ACCESS.md "counter (mileage)": ADMIN all,
 * MANAGER client, USER own vehicle; ADVISOR refused (§6: advisors cannot add mileage).
 */
import type { FastifyInstance } from 'fastify';
import type { CounterInput } from '../repositories/counter.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import { scopeOfResource } from './scopes.ts';
import { actorOf, recordChange } from '../audit/index.ts';

export default async function counterRoutes(app: FastifyInstance) {
  app.post<{ Body: CounterInput }>('/api/counter', {
    config: { access: { roles: ['ADMIN', 'MANAGER', 'USER'] }, operation: { resource: 'car', action: 'counter', summary: 'Record a new odometer reading of a vehicle' } },
    schema: { body: { $ref: 'counter-request#' }, response: { 200: { $ref: 'counter-response#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const session = request.session!;
      const result = await withFailureMessage(app, request, 'car:counter.failed',
        () => app.counter.add(request.body, scopeOfResource(app, 'car', session), session.userId,
          async (trx, r) => {
            await app.webhooks.emit(trx, { event: 'reading.added', id: r.pojazdId, facts: { licznik: r.licznik, palStan: r.palStan ?? null, data: new Date(r.at).toISOString() } });
            // the trail (issue 37), last: the vehicle's reading before and the new one
            await recordChange(trx as any, { actor: actorOf(request), resource: 'car', recordKey: r.pojazdId, action: 'reading', changes: {
              aktStanLicz: [r.before.aktStanLicz, r.licznik], data: [null, new Date(r.at).toISOString()], ...(r.palStan == null ? {} : { palStan: [null, r.palStan] }),
            } });
          }));
      return { ...result, message: app.config.t('car:counter.saved') };
    },
  });
}
