/**
 * Handover (Wydanie) and return (Zdanie) of a vehicle (spec §2 Assignments, §7; issue 45, "routes
 * only translate HTTP"): the assignment and the vehicle's state and reading
 * (repositories/assignments.ts, `app.assignments`, which holds the rules of issue 14) and what it
 * causes through the one write path (services/write.ts) — the declared events
 * (vehicle.handed_over …) and the trail's entry of resource `assignment`, action `pickup` or
 * `dropoff`, the handover or return as given — in one transaction. The vehicle is checked against
 * the caller's vehicle scope inside it (a foreign vehicle is absent).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { scopeOfResource } from '../access/scopes.ts';
import type { Actor } from '../audit/index.ts';
import type { Session } from '../auth/sessions.ts';
import type { DropoffInput, PickupInput } from '../repositories/assignments.ts';
import { RuleViolation } from '../repositories/write-rules.ts';

export function assignmentService(app: FastifyInstance) {
  return {
    /** Hands a vehicle over to an employee; answers the new assignment's id. */
    async pickup(actor: Actor, session: Session, input: PickupInput): Promise<{ przydzialId: number }> {
      // spec §9: "Handover time can be required by configuration" (screens/app.json config.handoverTimeRequired)
      if (app.config.bundle.config.handoverTimeRequired === true && !input.czasWy) {
        throw new RuleViolation(400, 'czasWy', 'assignment:errors.timeRequired');
      }
      return app.db.transaction().execute(async (trx) => {
        const { przydzialId } = await app.assignments.pickup(trx, input, scopeOfResource(app, 'car', session), session.userId);
        // the handover as given (its reading is the vehicle's current one from now on)
        await app.writes.record(trx, { actor, resource: 'assignment', key: przydzialId, action: 'pickup', after: { ...input } });
        return { przydzialId };
      });
    },

    /** Takes a vehicle back from its employee; answers the closed assignment's id. */
    async dropoff(actor: Actor, session: Session, input: DropoffInput): Promise<{ przydzialId: number }> {
      return app.db.transaction().execute(async (trx) => {
        const { przydzialId } = await app.assignments.dropoff(trx, input, scopeOfResource(app, 'car', session), session.userId);
        await app.writes.record(trx, { actor, resource: 'assignment', key: przydzialId, action: 'dropoff', after: { ...input } });
        return { przydzialId };
      });
    },
  };
}

export type AssignmentService = ReturnType<typeof assignmentService>;

declare module 'fastify' {
  interface FastifyInstance {
    assignmentService: AssignmentService;
  }
}

export default fp(
  async (app) => {
    app.decorate('assignmentService', assignmentService(app));
  },
  { name: 'assignment-service', dependencies: ['config', 'db', 'write-service', 'assignments-repository'] },
);
