/**
 * Employees of a client (spec §3 Employee, §7 GET /employees, POST /tenant/employee): the
 * participant picker's autocomplete and the new employee dialog. Both are limited by the
 * caller's row scope on the organisational units and employees (ACCESS.md row "unit, employees,
 * tenant/employee"), which the route passes in as a filter on a view with column klientSymbol.
 */
import fp from 'fastify-plugin';
import type { EmployeeCreateRequest } from '../../runtime/core/generated/api.ts';
import { sql, type Kysely, type Transaction } from 'kysely';
import { configuredBuilder } from '../db/configured-tables.ts';
import type { DB } from '../db/types.generated.ts';
import type { VehicleScope } from '../access/scopes.ts';
import { isUniqueViolation, RuleViolation } from './write-rules.ts';

/** How many employees one autocomplete answer lists at most. */
export const SUGGESTIONS = 20;
const STRU = ['stru1', 'stru2', 'stru3', 'stru4', 'stru5', 'stru6', 'stru7', 'stru8'] as const;

export type EmployeeInput = EmployeeCreateRequest;

/** A LIKE pattern matching the text anywhere, the text's own % _ \ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export function employeesRepository(db: Kysely<DB>) {
  return {
    /**
     * Employees whose surname, first name or number contains `text` (any case), within `scope`;
     * with `pojazdId`, only those of that vehicle's client.
     */
    async search(text: string, scope: VehicleScope, pojazdId?: number) {
      const like = containing(text.trim());
      let q = db.selectFrom('v_employee')
        .select(['pracId', 'nazwisko', 'imie', 'nrPrac', 'kodStan', 'email', 'telefonKom', 'jednId', 'jednNazwa', 'mpk', ...STRU])
        .where((eb) => scope(configuredBuilder(eb)))
        .where((eb) => eb.or([
          eb('nazwisko', 'ilike', like), eb('imie', 'ilike', like), eb('nrPrac', 'ilike', like),
          eb(sql`"nazwisko" || ' ' || "imie"`, 'ilike', like),
        ]));
      if (pojazdId !== undefined) {
        q = q.where('klientSymbol', '=', (eb) => eb.selectFrom('car').select('klientSymbol').where('pojazdId', '=', pojazdId));
      }
      return q.orderBy('nazwisko').orderBy('imie').orderBy('pracId').limit(SUGGESTIONS).execute();
    },

    /**
     * Adds an employee to the client of the unit `jednId`, which must be within `unitScope` (a
     * filter on v_unit): another client's unit is refused like one that does not exist. The
     * employee's organisational levels stru1…stru8 are the unit's path from the top. Runs in the
     * caller's transaction (services/employees.ts records the entry there); answers every value
     * the employee was created with, and its pracId.
     */
    async create(trx: Transaction<DB>, input: EmployeeInput, unitScope: VehicleScope): Promise<Record<string, unknown> & { pracId: number }> {
      const unit = await trx.selectFrom('v_unit').select(['jednId', 'klientSymbol'])
        .where('jednId', '=', input.jednId).where((eb) => unitScope(configuredBuilder(eb))).executeTakeFirst();
      // a unit outside any client cannot hold an employee (employee.klient is required)
      if (!unit || unit.klientSymbol === null) throw new RuleViolation(400, 'jednId', 'employee:errors.unknownUnit');
      const path: string[] = [];
      for (let id: number | null = unit.jednId; id !== null && path.length < STRU.length;) {
        const u: { nazwa: string; parentId: number | null } = await trx.selectFrom('unit').select(['nazwa', 'parentId']).where('jednId', '=', id).executeTakeFirstOrThrow();
        path.unshift(u.nazwa);
        id = u.parentId;
      }
      const levels = Object.fromEntries(STRU.map((s, i) => [s, path[i] ?? null]));
      const values = {
        klient: unit.klientSymbol, nazwisko: input.nazwisko.trim(), imie: input.imie.trim(), nrPrac: input.nrPrac || null,
        kodStan: input.kodStan || null, email: input.email.trim(), telefonKom: input.telefonKom || null, kodPoczt: input.kodPoczt || null,
        miejscow: input.miejscow || null, ulica: input.ulica || null, dataJednOd: input.dataJednOd, jednId: unit.jednId, ...levels,
      };
      let created: { pracId: number };
      try {
        created = await trx.insertInto('employee').values(values).returning('pracId').executeTakeFirstOrThrow();
      } catch (error) {
        if (isUniqueViolation(error, 'employee_klient_nrPrac_key')) throw new RuleViolation(409, 'nrPrac', 'employee:errors.nrPracTaken');
        throw error;
      }
      return { ...values, pracId: created.pracId };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    employees: ReturnType<typeof employeesRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('employees', employeesRepository(app.db));
}, { name: 'employees-repository', dependencies: ['db'] });
