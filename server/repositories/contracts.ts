/**
 * The charges of a contract (contract_position: instalment RATA, service SERW, insurance UBEZ,
 * other INNE), for GET /api/contract/{id}. The contract row itself, and whether the caller may
 * see it, is the contract table resource's (app.tableQueries).
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';

export function contractsRepository(db: Kysely<DB>) {
  return {
    async positions(kontraktId: number) {
      const rows = await db.selectFrom('contract_position').select(['pozId', 'rodzaj', 'tresc', 'ile'])
        .where('kontraktId', '=', kontraktId).orderBy('rodzaj').orderBy('pozId').execute();
      // numeric arrives as text from some drivers
      return rows.map((p) => ({ ...p, ile: Number(p.ile) }));
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    contracts: ReturnType<typeof contractsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('contracts', contractsRepository(app.db));
}, { name: 'contracts-repository', dependencies: ['db'] });
