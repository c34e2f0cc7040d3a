/**
 * The audit trail's retention (issue 37, docs/decisions.md "Retention"): entries older than the
 * period leave the oldest first through the database's one door for it, the removal is itself an
 * entry naming how many went, up to which sequence number and the last removed hash, and the chain
 * stays verifiable from the retained first entry. The portal's ordinary DELETE is still refused,
 * no entry younger than 30 days ever goes, and an edit after a removal is still named.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entryHash, type ChainedFields } from '../../server/audit/chain.ts';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { removeExpiredEntries } from '../../server/audit/retention.ts';
import { verifyChain } from '../../server/audit/verify.ts';
import type { DB } from '../../server/db/types.generated.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const DAY = 86_400_000;

/** An entry written as the writer writes it, but at a time in the past (the writer itself only writes "now"). */
async function appendAt(db: Kysely<DB>, at: Date, recordKey: number) {
  await db.transaction().execute(async (trx) => {
    const head = await trx.selectFrom('audit_head').select(['seq', 'hash']).where('id', '=', 1).forUpdate().executeTakeFirstOrThrow();
    const fields: ChainedFields = {
      seq: Number(head.seq) + 1, at: at.toISOString(), actorKind: 'system', userId: null, role: null, keyId: null, accountId: null,
      job: 'test', actorLabel: 'test', address: null, session: null, resource: 'users', recordKey: String(recordKey), action: 'update',
      changes: { firstName: ['A', 'B'] }, prevHash: head.hash,
    };
    const hash = entryHash(fields);
    await trx.insertInto('audit_entry').values({ ...fields, changes: JSON.stringify(fields.changes), hash }).execute();
    await trx.updateTable('audit_head').set({ seq: fields.seq, hash }).where('id', '=', 1).execute();
  });
}

describe('audit retention', () => {
  let t: TestApp;
  let firstSeq: number;

  beforeAll(async () => {
    t = await startTestApp();
    const before = Number((await t.app.db.selectFrom('audit_head').select('seq').executeTakeFirstOrThrow()).seq);
    firstSeq = before + 1;
    // start-up may have recorded entries of its own "now": the old ones come after them in the chain,
    // so a removal stops at the first young one; this trail starts with old entries only when it is empty
    expect(before).toBe(0);
    for (let i = 0; i < 5; i++) await appendAt(t.app.db, new Date(Date.now() - (800 - i) * DAY), i);
    await t.app.db.transaction().execute((trx) => recordChange(trx, { actor: systemActor('test'), resource: 'users', recordKey: 99, action: 'update', changes: { firstName: ['B', 'C'] } }));
  }, 120_000);
  afterAll(async () => t?.close());

  it('removes the entries older than the period, the oldest first, and records the removal', async () => {
    const lastOld = await t.app.db.selectFrom('audit_entry').select(['hash', 'at']).where('seq', '=', String(firstSeq + 4) as never).executeTakeFirstOrThrow();
    const done = await removeExpiredEntries(t.app.db, { keepDays: 730 });
    expect(done).toEqual({ removed: 5, throughSeq: firstSeq + 4, lastHash: lastOld.hash, throughAt: new Date(lastOld.at).toISOString() });
    const left = await t.app.db.selectFrom('audit_entry').select(['seq', 'resource', 'action', 'actorKind', 'job', 'changes']).orderBy('seq').execute();
    expect(left.map((e) => Number(e.seq))).toEqual([firstSeq + 5, firstSeq + 6]);
    const recorded = left.at(-1)!;
    expect(recorded).toMatchObject({ resource: 'audit', action: 'retention', actorKind: 'system', job: 'audit-retention' });
    const changes = typeof recorded.changes === 'string' ? JSON.parse(recorded.changes) : recorded.changes;
    expect(changes).toEqual({ removed: [null, 5], throughSeq: [null, firstSeq + 4], throughAt: [null, done!.throughAt], lastHash: [null, lastOld.hash], keepDays: [null, 730] });
    // nothing older is left: a second run removes and records nothing
    expect(await removeExpiredEntries(t.app.db, { keepDays: 730 })).toBeNull();
  });

  it('the chain stays verifiable from the retained first entry', async () => {
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: true, entries: 2, firstSeq: firstSeq + 5 });
  });

  it('the portal\'s ordinary DELETE, UPDATE and TRUNCATE are still refused, and so is moving the checkpoint', async () => {
    const oldest = await t.app.db.selectFrom('audit_entry').select('id').orderBy('seq').executeTakeFirstOrThrow();
    await expect(t.app.db.deleteFrom('audit_entry').where('id', '=', oldest.id).execute()).rejects.toThrow(/append-only/);
    await expect(t.app.db.updateTable('audit_entry').set({ action: 'edited' }).where('id', '=', oldest.id).execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_entry`.execute(t.app.db)).rejects.toThrow(/append-only/);
    await expect(t.app.db.updateTable('audit_retention').set({ seq: 0 }).execute()).rejects.toThrow(/append-only/);
    await expect(t.app.db.deleteFrom('audit_retention').execute()).rejects.toThrow(/append-only/);
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: true });
  });

  it('no entry younger than 30 days goes, whatever period the retention is asked for', async () => {
    await expect(sql`select audit_remove_expired(now() + interval '1 day', 10)`.execute(t.app.db)).rejects.toThrow(/younger than 30 days/);
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: true, entries: 2 });
  });

  it('an entry edited after a removal is still named by the check', async () => {
    const victim = await t.app.db.selectFrom('audit_entry').select(['id', 'seq']).orderBy('seq').executeTakeFirstOrThrow();
    await t.app.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update audit_entry set "changes" = '{"firstName": ["B", "X"]}'::jsonb where "id" = ${victim.id}`.execute(trx);
    });
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: false, brokenId: Number(victim.id), brokenSeq: Number(victim.seq), reason: 'hash' });
  });

  it('a checkpoint moved without a recorded removal is named', async () => {
    await t.app.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update audit_retention set "seq" = "seq" + 1`.execute(trx);
    });
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: false, reason: 'checkpoint' });
  });
});
