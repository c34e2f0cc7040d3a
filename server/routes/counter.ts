/**
 * A new odometer reading (spec §7 POST /counter). ACCESS.md "counter (mileage)": ADMIN all,
 * MANAGER client, USER own vehicle; ADVISOR refused (§6: advisors cannot add mileage). The reading,
 * its entry and its event are the reading service's (services/vehicle-readings.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { CounterInput } from '../repositories/counter.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import { actorOf } from '../audit/index.ts';

export default async function counterRoutes(app: FastifyInstance) {
  app.post<{ Body: CounterInput }>('/api/counter', {
    config: { access: { roles: ['ADMIN', 'MANAGER', 'USER'] }, idempotent: true, operation: { resource: 'car', action: 'counter', summary: 'Record a new odometer reading of a vehicle' } },
    schema: { body: { $ref: 'counter-request#' }, response: { 200: { $ref: 'counter-response#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const result = await withFailureMessage(app, request, 'car:counter.failed',
        () => app.readingService.add(actorOf(request), request.session!, request.body));
      return { ...result, message: app.config.t('car:counter.saved') };
    },
  });
}
