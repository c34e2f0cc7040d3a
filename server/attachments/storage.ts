/**
 * Where attachment files live (DESIGN.md: in PostgreSQL, so every server process behind a load
 * balancer serves the same files). The routes and the repository talk to this interface only;
 * the default keeps the bytes in attachment."content" (bytea) in the same row, so file and record
 * are written, and removed, by one transaction. Another store (object storage) would implement
 * the same three calls and keep a key in the row instead.
 */
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';

export interface StoredFile {
  filename: string;
  mime: string;
  content: Buffer;
}

export interface NewAttachment {
  grupa: string;
  parentId: number;
  tytul: string;
  opis: string;
  filename: string;
  mime: string;
  content: Buffer;
  userId: number;
}

export interface AttachmentStorage {
  /** Writes the record and its file inside the caller's transaction; answers the new zalaczId. */
  insert(trx: Transaction<DB>, attachment: NewAttachment): Promise<number>;
  /** The file of an attachment, or undefined when there is none. */
  read(db: Kysely<DB>, zalaczId: number): Promise<StoredFile | undefined>;
  /** Removes record and file; false when there was nothing to remove. */
  remove(db: Kysely<DB> | Transaction<DB>, zalaczId: number): Promise<boolean>;
}

export const postgresAttachmentStorage: AttachmentStorage = {
  async insert(trx, a) {
    const row = await trx
      .insertInto('attachment')
      .values({ grupa: a.grupa, parentId: a.parentId, tytul: a.tytul, opis: a.opis, filename: a.filename, mime: a.mime, size: a.content.byteLength, content: a.content, userId: a.userId })
      .returning('zalaczId')
      .executeTakeFirstOrThrow();
    return row.zalaczId;
  },
  read: (db, zalaczId) => db.selectFrom('attachment').select(['filename', 'mime', 'content']).where('zalaczId', '=', zalaczId).executeTakeFirst(),
  async remove(db, zalaczId) {
    const result = await db.deleteFrom('attachment').where('zalaczId', '=', zalaczId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  },
};
