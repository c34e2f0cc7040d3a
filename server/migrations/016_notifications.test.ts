/**
 * The outbox's guarantees that the database itself keeps (migration 016): one row per dedupe key,
 * whoever inserts it; only the known states and channels; each user's settings once; the
 * administrators' log names the recipient's login.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';

describe('notification tables', () => {
  let t: TestDatabase;
  let userId: number;
  const row = (dedupeKey: string, extra: Record<string, unknown> = {}) => ({ event: 'e', userId, channel: 'email', dedupeKey, ...extra });

  beforeAll(async () => {
    t = await openTestDatabase({ migrate: true });
    userId = (await t.db.insertInto('app_user').values({ login: 'ola', rola: 'ADMIN', firstName: 'Ola', lastName: 'Nowak' }).returning('id').executeTakeFirstOrThrow()).id;
  }, 60_000);
  afterAll(async () => t?.close());

  it('keeps one row per dedupe key: a second insert of the same occurrence is refused or skipped', async () => {
    await t.db.insertInto('notification').values(row('e:order:1:7:1:email')).execute();
    await expect(t.db.insertInto('notification').values(row('e:order:1:7:1:email')).execute()).rejects.toThrow(/unique|duplicate/);
    const again = await t.db.insertInto('notification').values(row('e:order:1:7:1:email'))
      .onConflict((oc) => oc.column('dedupeKey').doNothing()).returning('id').execute();
    expect(again).toEqual([]);
    const stored = await t.db.selectFrom('notification').select(['state', 'attempts', 'payload']).where('dedupeKey', '=', 'e:order:1:7:1:email').executeTakeFirstOrThrow();
    expect(stored).toEqual({ state: 'queued', attempts: 0, payload: {} });
  });

  it('refuses an unknown state or channel and an hour outside the day', async () => {
    await expect(t.db.insertInto('notification').values(row('x1', { state: 'lost' })).execute()).rejects.toThrow(/check constraint/);
    await expect(t.db.insertInto('notification').values(row('x2', { channel: 'sms' })).execute()).rejects.toThrow(/check constraint/);
    await expect(t.db.insertInto('notification_setting').values({ userId, digestHour: 24 }).execute()).rejects.toThrow(/check constraint/);
    await t.db.insertInto('notification_setting').values({ userId, digestHour: 23 }).execute();
    await expect(t.db.insertInto('notification_setting').values({ userId, digestHour: 6 }).execute()).rejects.toThrow(/unique|duplicate|primary/);
  });

  it('shows the log with the recipient\'s login and without the payload', async () => {
    const log = await sql<Record<string, unknown>>`select * from v_notification`.execute(t.db);
    expect(log.rows).toHaveLength(1);
    expect(log.rows[0]).toMatchObject({ login: 'ola', event: 'e', channel: 'email', state: 'queued' });
    expect(log.rows[0]).not.toHaveProperty('payload');
  });
});
