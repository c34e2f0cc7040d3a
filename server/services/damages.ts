/**
 * Reporting a damage (spec §2 Damage wizard, §7 POST /damage/add; issue 45, "routes only translate
 * HTTP"): the client variant's limits on risk types, then the report (repositories/damages.ts,
 * `app.damages.addIn`) and what it causes through the one write path (services/write.ts) — the
 * client's fleet managers hear of it (issue 25, `damageCreated`), the subscribed systems get
 * damage.reported (issue 35), and the trail records the report as the wizard sent it with the order
 * row it made (issue 37) — in one transaction. The vehicle must be within the caller's vehicle
 * scope, else it is absent.
 *
 * A client variant may refuse risk types to some callers (ACCESS.md: under the regional dealer a
 * MANAGER or ADVISOR may not choose 'AC z regresem' and 'OC nasze'): `config.damageRiskTypeLimits`
 * is a list of { when: condition, refused: [risk types] }, empty by default.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Condition } from '../../runtime/core/conditions.ts';
import { scopeOfResource } from '../access/scopes.ts';
import type { Actor } from '../audit/index.ts';
import type { Session } from '../auth/sessions.ts';
import type { DamageInput } from '../repositories/damages.ts';
import { RuleViolation } from '../repositories/write-rules.ts';

interface RiskTypeLimit {
  when: Condition;
  refused: string[];
}

export function damageService(app: FastifyInstance) {
  /** RuleViolation when the configuration refuses the report's risk type to the caller. */
  const requireAllowedRiskType = (session: Session, input: DamageInput) => {
    const { bundle, conditions } = app.config;
    const limits = (bundle.config.damageRiskTypeLimits ?? []) as RiskTypeLimit[];
    const context = { role: session.role, variant: bundle.variant, config: bundle.config };
    // zpolisTyp is always present here: the body schema's default ('AC') fills it during validation
    if (limits.some((l) => l.refused.includes(input.zpolisTyp!) && conditions.matches(l.when, context))) {
      throw new RuleViolation(400, 'zpolisTyp', 'validation:enum');
    }
  };

  return {
    /** Reports a damage of a vehicle the caller's vehicle scope reaches; answers its ids and case number. */
    async add(actor: Actor, session: Session, input: DamageInput): Promise<{ sprawaId: number; nrSprawy: string; autId: number }> {
      requireAllowedRiskType(session, input);
      const scope = scopeOfResource(app, 'car', session);
      return app.db.transaction().execute(async (trx) => {
        const added = await app.damages.addIn(trx, input, scope, { userId: session.userId, role: session.role });
        await app.writes.record(trx, {
          actor, resource: 'damage', key: added.sprawaId, action: 'create',
          after: { ...input, nrSprawy: added.nrSprawy, autId: added.autId },
          notify: {
            occurrence: { kind: 'damageCreated' }, entityId: added.sprawaId, seq: added.sprawaId, actorUserId: session.userId,
            record: { klientSymbol: added.klientSymbol, zgloEmail: added.zgloEmail }, payload: { by: session.login },
          },
        });
        return { sprawaId: added.sprawaId, nrSprawy: added.nrSprawy, autId: added.autId };
      });
    },
  };
}

export type DamageService = ReturnType<typeof damageService>;

declare module 'fastify' {
  interface FastifyInstance {
    damageService: DamageService;
  }
}

export default fp(
  async (app) => {
    app.decorate('damageService', damageService(app));
  },
  { name: 'damage-service', dependencies: ['config', 'db', 'write-service', 'damages-repository'] },
);
