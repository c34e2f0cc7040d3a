/** Vehicle calls beyond the generic table: the session's own vehicle (spec §7 GET /car/single-car). */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';

export default async function carRoutes(app: FastifyInstance) {
  app.get('/api/car/single-car', {
    config: { access: { resource: 'car' } },
    schema: { tags: ['car'], response: { 200: { $ref: 'car#' } } },
    handler: async (request) => {
      const { pojazdId } = request.session!;
      if (pojazdId === null) throw new HttpError(404, app.config.t('car:noVehicle'));
      return app.tableQueries.byId('car', request.session!, String(pojazdId));
    },
  });
}
