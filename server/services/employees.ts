/**
 * The new employee dialog (spec §7 POST /tenant/employee; issue 45, "routes only translate
 * HTTP"): the employee is added to a unit within the caller's row scope on the organisational
 * units (ACCESS.md row "unit, employees, tenant/employee", access/scopes.ts) and its trail entry —
 * every field it was created with — is recorded in the same transaction, as its last statement.
 * The rules and the insert are the repository's (repositories/employees.ts, `app.employees`).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { scopeOfResource } from '../access/scopes.ts';
import { diffRows, recordChange, type Actor } from '../audit/index.ts';
import type { Session } from '../auth/sessions.ts';
import type { EmployeeInput } from '../repositories/employees.ts';

export function employeeService(app: FastifyInstance) {
  return {
    /** Adds an employee to a unit the caller's scope reaches; answers its pracId. */
    async create(actor: Actor, session: Session, input: EmployeeInput): Promise<{ pracId: number }> {
      return app.db.transaction().execute(async (trx) => {
        const { pracId, ...values } = await app.employees.create(trx, input, scopeOfResource(app, 'unit', session));
        // the trail (issue 37): every field the employee was created with
        await recordChange(trx, { actor, resource: 'employee', recordKey: pracId, action: 'create', changes: diffRows(null, values, Object.keys(values)) });
        return { pracId };
      });
    },
  };
}

export type EmployeeService = ReturnType<typeof employeeService>;

declare module 'fastify' {
  interface FastifyInstance {
    employeeService: EmployeeService;
  }
}

export default fp(
  async (app) => {
    app.decorate('employeeService', employeeService(app));
  },
  { name: 'employee-service', dependencies: ['config', 'db', 'employees-repository'] },
);
