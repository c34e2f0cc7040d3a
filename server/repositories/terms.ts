/**
 * Terms of service (terms_template: versioned PDF documents, one current version per group;
 * terms_acceptance: who accepted which). The terms routes call these; publishing a version is
 * server/terms/publish.ts (npm run terms).
 */
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { recordChange, type Actor } from '../audit/index.ts';

import type { TermsStatus } from '../../runtime/core/generated/api.ts';

/** One current document with this user's acceptance (schemas/api/terms-status.schema.json). */
export type TemplateStatus = TermsStatus['documents'][number];

/** The current documents, in a stable order, with this user's acceptance of each. */
export async function termsStatus(db: Kysely<DB>, userId: number): Promise<TermsStatus> {
  const rows = await db.selectFrom('terms_template as t')
    .leftJoin('terms_acceptance as a', (join) => join.onRef('a.templateId', '=', 't.id').on('a.userId', '=', userId))
    .select(['t.id as templateId', 't.name', 't.grupa as group', 't.version', 'a.acceptedAt'])
    .where('t.current', '=', true)
    .orderBy('t.id')
    .execute();
  const documents = rows.map((r) => ({
    templateId: r.templateId,
    name: r.name,
    group: r.group,
    version: r.version,
    accepted: r.acceptedAt !== null,
    acceptedAt: r.acceptedAt === null ? null : new Date(r.acceptedAt).toISOString(),
  }));
  return { allAccepted: documents.every((d) => d.accepted), documents };
}

export function termsRepository(db: Kysely<DB>) {
  /** Records acceptance (idempotent: a second acceptance keeps the first date). */
  async function accept(userId: number, templateIds: number[], conn: Kysely<DB> = db): Promise<number[]> {
    if (!templateIds.length) return [];
    const rows = await conn.insertInto('terms_acceptance')
      .values(templateIds.map((templateId) => ({ userId, templateId, acceptedAt: new Date() })))
      .onConflict((oc) => oc.columns(['userId', 'templateId']).doNothing())
      .returning('templateId').execute();
    // the documents accepted now (one accepted before keeps its first date and is not named)
    return rows.map((r) => r.templateId);
  }

  return {
    status: (userId: number) => termsStatus(db, userId),

    /** The first current document the user has not accepted. */
    nextToAccept: (userId: number) => db.selectFrom('terms_template as t')
      .select(['t.id', 't.name', 't.version', 't.pdf'])
      .where('t.current', '=', true)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('terms_acceptance as a').select(sql`1`.as('one'))
        .whereRef('a.templateId', '=', 't.id').where('a.userId', '=', userId))))
      .orderBy('t.id')
      .executeTakeFirst(),

    /** The current version of the group a template (of any version) belongs to. */
    currentOfGroupOf: (templateId: number) => db.selectFrom('terms_template as t')
      .innerJoin('terms_template as asked', 'asked.grupa', 't.grupa')
      .select(['t.id', 't.name', 't.version', 't.pdf'])
      .where('asked.id', '=', templateId)
      .where('t.current', '=', true)
      .executeTakeFirst(),

    async isCurrent(templateId: number): Promise<boolean> {
      const row = await db.selectFrom('terms_template').select('id').where('id', '=', templateId).where('current', '=', true).executeTakeFirst();
      return row !== undefined;
    },

    async currentIds(): Promise<number[]> {
      return (await db.selectFrom('terms_template').select('id').where('current', '=', true).execute()).map((r) => r.id);
    },

    accept,

    /**
     * The user accepts these documents, each accepted now with its trail entry (issue 37), in one
     * transaction; one accepted before is neither accepted again nor recorded.
     */
    async acceptWithTrail(actor: Actor, userId: number, templateIds: number[]): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const templateId of await accept(userId, templateIds, trx)) {
          await recordChange(trx, { actor, resource: 'terms', recordKey: templateId, action: 'accept', changes: { templateId: [null, templateId] } });
        }
      });
    },

    /** Who accepted which document and when, newest first. */
    acceptanceHistory({ login, limit }: { login?: string; limit: number }) {
      let q = db.selectFrom('v_terms_acceptance')
        .select(['id', 'userId', 'login', 'name', 'surname', 'client', 'templateId', 'templateName', 'group', 'acceptedAt', 'klientSymbol'])
        .orderBy('acceptedAt', 'desc').orderBy('id', 'desc')
        .limit(limit);
      if (login) q = q.where(sql`lower("login")`, '=', login.toLowerCase());
      return q.execute();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    terms: ReturnType<typeof termsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('terms', termsRepository(app.db));
}, { name: 'terms-repository', dependencies: ['db'] });
