/**
 * Publishing a terms document: a PDF becomes the next version of its group and the current one;
 * the previous version stays in the history (acceptances point at it) but no longer counts, so
 * every USER and MANAGER accepts the new version at their next call.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { recordChange, systemActor } from '../audit/index.ts';

/** Who the trail names for the command's publishes (issue 37): the command itself, run by an operator. */
const TERMS_COMMAND = 'npm run terms';

export interface PublishRequest {
  /** The document group, e.g. REGULAMIN or POLITYKA_PRYWATNOSCI (a new group adds a document). */
  group: string;
  /** The name users see, e.g. "Regulamin Portalu Klienta". */
  name: string;
  pdf: Uint8Array;
}

export async function publishTermsVersion(db: Kysely<DB>, request: PublishRequest): Promise<{ id: number; version: number }> {
  if (!/^[A-Z][A-Z0-9_]{0,49}$/.test(request.group)) throw new Error('group must be upper-case letters, digits and _ (e.g. REGULAMIN)');
  if (!request.name.trim()) throw new Error('name must not be empty');
  if (Buffer.from(request.pdf.subarray(0, 5)).toString('latin1') !== '%PDF-') throw new Error('the file is not a PDF');
  return db.transaction().execute(async (trx) => {
    const last = await trx.selectFrom('terms_template').select(sql<number>`coalesce(max("version"), 0)`.as('v'))
      .where('grupa', '=', request.group).executeTakeFirstOrThrow();
    await trx.updateTable('terms_template').set({ current: false }).where('grupa', '=', request.group).where('current', '=', true).execute();
    const version = Number(last.v) + 1;
    const row = await trx.insertInto('terms_template')
      .values({ name: request.name.trim(), grupa: request.group, version, current: true, pdf: Buffer.from(request.pdf) })
      .returning('id').executeTakeFirstOrThrow();
    await recordChange(trx, { actor: systemActor(TERMS_COMMAND), resource: 'terms', recordKey: row.id, action: 'publish', changes: {
      grupa: [null, request.group], name: [null, request.name.trim()], version: [last.v ? Number(last.v) : null, version],
    } });
    return { id: row.id, version };
  });
}

/** Takes a group out of use (its documents no longer have to be accepted). */
export async function withdrawTermsGroup(db: Kysely<DB>, group: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const withdrawn = await trx.updateTable('terms_template').set({ current: false }).where('grupa', '=', group).where('current', '=', true).returning('id').execute();
    for (const { id } of withdrawn) {
      await recordChange(trx, { actor: systemActor(TERMS_COMMAND), resource: 'terms', recordKey: id, action: 'withdraw', changes: { grupa: [group, group], current: [true, false] } });
    }
    return withdrawn.length;
  });
}
