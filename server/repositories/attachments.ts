/**
 * Attachments of assignments, vehicles, orders and damages (spec §3 Attachment, §7 Attachments):
 * the list of one record, the metadata of one, a title/description change and removal. The files
 * themselves go through the storage interface (server/attachments/storage.ts; PostgreSQL by
 * default). Who may touch which attachment is the routes' business, decided on the parent record
 * through app.tableQueries; these functions take ids already checked. A write of the routes opens
 * its own transaction here and records its trail entry in it (issue 45: routes open none).
 */
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { postgresAttachmentStorage, type AttachmentStorage, type NewAttachment } from '../attachments/storage.ts';
import { recordChange, recordRowChange, type Actor } from '../audit/index.ts';
import { hashToken } from '../auth/sessions.ts';
import type { DB } from '../db/types.generated.ts';

/** The trail's name of the resource (audit:resources). */
const RESOURCE = 'attachment';
/** The entity's columns (schemas/entities/attachment.schema.json); the file content never. */
const LISTED = ['zalaczId', 'grupa', 'parentId', 'tytul', 'opis', 'filename', 'mime', 'size', 'dataMod'] as const;

export function attachmentsRepository(db: Kysely<DB>, storage: AttachmentStorage = postgresAttachmentStorage) {
  return {
    storage,
    /** The attachments of one record, newest first. */
    ofParent: (grupa: string, parentId: number) => db.selectFrom('v_attachment').select([...LISTED])
      .where('grupa', '=', grupa).where('parentId', '=', parentId)
      .orderBy('dataMod', 'desc').orderBy('zalaczId', 'desc').execute(),
    /** Which record an attachment belongs to (for the parent's scope check), or undefined. */
    parentOf: (zalaczId: number) => db.selectFrom('attachment').select(['zalaczId', 'grupa', 'parentId', 'filename', 'mime'])
      .where('zalaczId', '=', zalaczId).executeTakeFirst(),
    /** Writes every new attachment in the caller's transaction (all or none). */
    async insertAll(trx: Transaction<DB>, attachments: NewAttachment[]): Promise<number[]> {
      const ids: number[] = [];
      for (const a of attachments) ids.push(await storage.insert(trx, a));
      return ids;
    },
    /**
     * New attachments of one record and their trail entries (issue 37), all or none: one entry per
     * attachment, what it is and whose record it belongs to, never the file's bytes. Answers their ids.
     */
    async addWithTrail(actor: Actor, attachments: NewAttachment[]): Promise<number[]> {
      return db.transaction().execute(async (trx) => {
        const ids: number[] = [];
        for (const a of attachments) ids.push(await storage.insert(trx, a));
        for (const [i, a] of attachments.entries()) {
          await recordChange(trx, { actor, resource: RESOURCE, recordKey: ids[i], action: 'create', changes: {
            grupa: [null, a.grupa], parentId: [null, a.parentId], tytul: [null, a.tytul], opis: [null, a.opis], filename: [null, a.filename], mime: [null, a.mime], size: [null, a.content.byteLength],
          } });
        }
        return ids;
      });
    },
    /** A new title and description, by `userId`, with the trail entry of what changed; false when the attachment is gone. */
    async retitleWithTrail(actor: Actor, zalaczId: number, values: { tytul: string; opis: string }, userId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('attachment').select(['tytul', 'opis']).where('zalaczId', '=', zalaczId).forUpdate().executeTakeFirst();
        if (!before) return false;
        const result = await trx.updateTable('attachment').set({ ...values, userId, dataMod: new Date() }).where('zalaczId', '=', zalaczId).executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) return false;
        await recordRowChange(trx, actor, { resource: RESOURCE, recordKey: zalaczId, action: 'update', before, after: values, fields: ['tytul', 'opis'] });
        return true;
      });
    },
    /** The attachment and its file go, with the trail entry of what it was; false when it is gone already. */
    async removeWithTrail(actor: Actor, zalaczId: number): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('attachment').select(['grupa', 'parentId', 'tytul', 'opis', 'filename', 'mime']).where('zalaczId', '=', zalaczId).executeTakeFirst();
        if (!before || !(await storage.remove(trx, zalaczId))) return false;
        await recordRowChange(trx, actor, { resource: RESOURCE, recordKey: zalaczId, action: 'delete', before, after: null, fields: Object.keys(before) });
        return true;
      });
    },
    read: (zalaczId: number) => storage.read(db, zalaczId),
    /**
     * The vehicle of the session a download token was issued for: a USER's or ADVISOR's rows are
     * those of their session's vehicle, which the account alone does not know.
     */
    async vehicleOfTokenSession(token: string): Promise<number | null> {
      const row = await db.selectFrom('download_token as d').innerJoin('user_session as s', 's.tokenHash', 'd.sessionHash')
        .select('s.pojazdId').where('d.tokenHash', '=', hashToken(token)).executeTakeFirst();
      return row?.pojazdId ?? null;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    attachments: ReturnType<typeof attachmentsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('attachments', attachmentsRepository(app.db));
}, { name: 'attachments-repository', dependencies: ['db'] });
