/**
 * Checks the audit chain (issue 37; `npm run audit -- --verify`): entries in `seq` order from the
 * retention checkpoint on (1 while nothing was removed; migration 031), the first one's `prevHash`
 * the checkpoint's hash (the last removed entry's), each one's `prevHash` the hash before it, each
 * one's `hash` its own canonical form's SHA-256, and the head row naming the last entry. A moved
 * checkpoint must be the one the trail's newest retention entry recorded (a removal not recorded,
 * or a checkpoint moved by hand, is named as `checkpoint`). Read in pages by `seq`, so a long trail is read in bounded
 * memory. Answers the first entry that breaks the chain and why, or the count checked.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { entryHash, GENESIS_HASH, type ChainedFields } from './chain.ts';

const PAGE = 5_000;

export type Verdict =
  | { ok: true; entries: number; lastHash: string; firstSeq: number }
  | { ok: false; entries: number; brokenId: number | null; brokenSeq: number; reason: 'gap' | 'prevHash' | 'hash' | 'head' | 'checkpoint' };

const changesOf = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, [unknown, unknown]>;

export async function verifyChain(db: Kysely<DB>): Promise<Verdict> {
  const checkpoint = await db.selectFrom('audit_retention').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
  const startSeq = checkpoint ? Number(checkpoint.seq) + 1 : 1;
  let expectedSeq = startSeq;
  let previous = checkpoint?.hash ?? GENESIS_HASH;
  if (startSeq > 1) {
    // entries were removed: the newest retention entry names the checkpoint the removal left
    const recorded = await db.selectFrom('audit_entry').select(['id', 'seq', 'changes'])
      .where('resource', '=', 'audit').where('action', '=', 'retention').orderBy('seq', 'desc').limit(1).executeTakeFirst();
    const changes = recorded ? changesOf(recorded.changes) : undefined;
    if (!recorded || Number(changes?.throughSeq?.[1]) !== startSeq - 1 || changes?.lastHash?.[1] !== previous) {
      return { ok: false, entries: 0, brokenId: recorded ? Number(recorded.id) : null, brokenSeq: startSeq - 1, reason: 'checkpoint' };
    }
  }
  for (;;) {
    const rows = await db.selectFrom('audit_entry').selectAll().where('seq', '>=', expectedSeq).orderBy('seq').limit(PAGE).execute();
    for (const row of rows) {
      const seq = Number(row.seq);
      const broken = (reason: 'gap' | 'prevHash' | 'hash') => ({ ok: false as const, entries: expectedSeq - startSeq, brokenId: Number(row.id), brokenSeq: seq, reason });
      if (seq !== expectedSeq) return broken('gap');
      if (row.prevHash !== previous) return broken('prevHash');
      const fields: ChainedFields = {
        seq, at: new Date(row.at).toISOString(), actorKind: row.actorKind as ChainedFields['actorKind'],
        userId: row.userId === null ? null : Number(row.userId), role: row.role, keyId: row.keyId === null ? null : Number(row.keyId),
        accountId: row.accountId === null ? null : Number(row.accountId), job: row.job, actorLabel: row.actorLabel,
        address: row.address, session: row.session, resource: row.resource, recordKey: row.recordKey, action: row.action,
        changes: changesOf(row.changes),
        prevHash: row.prevHash,
      };
      if (entryHash(fields) !== row.hash) return broken('hash');
      previous = row.hash;
      expectedSeq = seq + 1;
    }
    if (rows.length < PAGE) break;
  }
  const head = await db.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).executeTakeFirst();
  // entries cut off the end (or a head moved on without its entry) break the chain at its end
  if (!head || Number(head.seq) !== expectedSeq - 1 || head.hash !== previous) {
    return { ok: false, entries: expectedSeq - startSeq, brokenId: null, brokenSeq: head ? Number(head.seq) : expectedSeq, reason: 'head' };
  }
  return { ok: true, entries: expectedSeq - startSeq, lastHash: previous, firstSeq: startSeq };
}
