/** Vehicle calls beyond the generic table: the session's own vehicle (spec §7 GET /car/single-car). */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';

export default async function carRoutes(app: FastifyInstance) {
  app.get('/api/car/single-car', {
    config: { access: { resource: 'car' }, operation: { resource: 'car', action: 'singleCar', summary: 'The vehicle of the session (a driver\'s or an advisor\'s)' } },
    schema: { response: { 200: { $ref: 'car#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const { pojazdId } = request.session!;
      if (pojazdId === null) throw new HttpError(404, app.config.t('car:noVehicle'));
      return app.tableQueries.byId('car', request.session!, String(pojazdId));
    },
  });
}
