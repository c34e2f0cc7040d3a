/**
 * Attachments of assignments, vehicles, orders and damages (spec §3 Attachment, §7 Attachments):
 * the list of one record, the metadata of one, a title/description change and removal. The files
 * themselves go through the storage interface (server/attachments/storage.ts; PostgreSQL by
 * default). Who may touch which attachment is the routes' business, decided on the parent record
 * through app.tableQueries; these functions take ids already checked.
 */
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { postgresAttachmentStorage, type AttachmentStorage, type NewAttachment } from '../attachments/storage.ts';
import { hashToken } from '../auth/sessions.ts';
import type { DB } from '../db/types.generated.ts';

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
    async update(zalaczId: number, values: { tytul: string; opis: string }, userId: number, conn: Kysely<DB> = db): Promise<boolean> {
      const result = await conn.updateTable('attachment').set({ ...values, userId, dataMod: new Date() }).where('zalaczId', '=', zalaczId).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    remove: (zalaczId: number, conn: Kysely<DB> = db) => storage.remove(conn, zalaczId),
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
