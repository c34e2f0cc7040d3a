/**
 * Migration 015's triggers: a write to a table with a "pojazdId" column marks the vehicles it
 * touched (both of an update that moves a record), and reminder_count follows reminder_due's rows
 * by rule, client and days through inserts and deletes.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';

describe('reminder_due and its triggers', () => {
  let t: TestDatabase;
  const cars: number[] = [];
  const dirty = async () => (await t.db.selectFrom('reminder_dirty').select('pojazdId').orderBy('pojazdId').execute()).map((r) => r.pojazdId);

  beforeAll(async () => {
    t = await openTestDatabase({ migrate: true });
    await t.db.insertInto('client').values({ klient: 'K1', klientNazwa: 'Klient' }).execute();
    for (const rejestr of ['WX1', 'WX2']) cars.push((await t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr }).returning('pojazdId').executeTakeFirstOrThrow()).pojazdId);
  }, 60_000);
  afterAll(async () => t?.close());

  it('marks the vehicles a statement touched, once each, old and new of an update', async () => {
    expect(await dirty()).toEqual([...cars].sort((a, b) => a - b));
    await t.db.deleteFrom('reminder_dirty').execute();
    await t.db.insertInto('mileage_reading').values([{ pojazdId: cars[0], licznik: 10, data: '2026-01-01T10:00:00Z' }, { pojazdId: cars[0], licznik: 20, data: '2026-02-01T10:00:00Z' }]).execute();
    expect(await dirty()).toEqual([cars[0]]);
    await t.db.deleteFrom('reminder_dirty').execute();
    await t.db.updateTable('mileage_reading').set({ pojazdId: cars[1] }).where('licznik', '=', 20).execute();
    expect(await dirty()).toEqual([...cars].sort((a, b) => a - b));
  });

  it('sums the rows by rule, client and days, and takes them away again', async () => {
    await t.db.insertInto('reminder_rule').values({ ruleKey: 'r@1', definition: JSON.stringify({}) }).execute();
    const row = (recordId: string, scopeClient: string | null, soonFrom: string) =>
      ({ ruleKey: 'r@1', recordId, openId: recordId, pojazdId: cars[0], scopeClient, soonFrom, pastFrom: null });
    await t.db.insertInto('reminder_due').values([row('1', 'K1', '2026-01-01'), row('2', 'K1', '2026-01-01'), row('3', null, '2026-01-01'), row('4', 'K1', '-infinity')]).execute();
    const sums = async () => (await sql<{ scopeClient: string | null; soonFrom: string; n: number }>`
      select "scopeClient", "soonFrom"::text as "soonFrom", "n" from reminder_count where "n" <> 0 order by 1, 2`.execute(t.db)).rows;
    expect(await sums()).toEqual([{ scopeClient: 'K1', soonFrom: '-infinity', n: 1 }, { scopeClient: 'K1', soonFrom: '2026-01-01', n: 2 }, { scopeClient: null, soonFrom: '2026-01-01', n: 1 }]);
    await t.db.deleteFrom('reminder_due').where('recordId', 'in', ['1', '3']).execute();
    expect(await sums()).toEqual([{ scopeClient: 'K1', soonFrom: '-infinity', n: 1 }, { scopeClient: 'K1', soonFrom: '2026-01-01', n: 1 }]);
  });
});
