/**
 * A contract with its positions (spec §7 "GET /contract/{id} (positions)"; §3 "Contract row":
 * instalment, service and insurance charges), shown on the vehicle's Kontrakt tab and the
 * contracts table's row. Who may read it, and which rows, is the contract table resource's
 * declaration (ACCESS.md "contract (table, positions)"): a contract outside the scope is 404.
 */
import type { FastifyInstance } from 'fastify';

export default async function contractRoutes(app: FastifyInstance) {
  app.get<{ Params: { id: string } }>('/api/contract/:id', {
    config: { access: { resource: 'contract' }, operation: { resource: 'contract', action: 'details', summary: 'A contract with its charges' } },
    schema: {
      description: 'The contract row and every one of its charges (RATA instalment, SERW service, UBEZ insurance, INNE other).',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      response: { 200: { $ref: 'contract-details#' }, 400: { $ref: 'error-response#' }, 403: { $ref: 'error-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      // the scope check and the 404 of a foreign contract are the table-query service's
      const contract = await app.tableQueries.byId('contract', request.session!, request.params.id);
      return { contract, positions: await app.contracts.positions(Number(request.params.id)) };
    },
  });
}
