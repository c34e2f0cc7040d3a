/**
 * A portal started in another time zone than the one its running totals were built in rebuilds
 * them once (a transaction late on the last evening of a month belongs to the next month in one
 * zone and not in the other); in the same zone it leaves them alone.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';
import { keepRunningTotalsInZone } from './running-totals.ts';

describe('keepRunningTotalsInZone', () => {
  let t: TestDatabase;
  let car: number;

  beforeAll(async () => {
    t = await openTestDatabase({ migrate: true });
    await t.db.insertInto('client').values({ klient: 'K1', klientNazwa: 'Klient' }).execute();
    car = (await t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr: 'WX1' }).returning('pojazdId').executeTakeFirstOrThrow()).pojazdId;
    const card = (await t.db.insertInto('fuel_card').values({ klientSymbol: 'K1', nrKarty: '7001', pojazdId: car }).returning('kartaId').executeTakeFirstOrThrow()).kartaId;
    await t.db.insertInto('fuel_transaction').values({ kartaId: card, nrTransakcji: 'T1', pojazdId: car, data: '2026-01-31T23:30:00Z', produkt: 'ON', netto: '10', brutto: '12.3' } as never).execute();
  }, 60_000);
  afterAll(async () => t?.close());

  it('records the zone on the first start, rebuilds when the zone changed, and only then', async () => {
    // one connection throughout: a session's time zone is its own
    await t.db.connection().execute(async (db) => {
      const warned: string[] = [];
      const firstMonth = async () => (await db.selectFrom('running_total').select('firstMonth').where('pojazdId', '=', car).where('source', '=', 'fuel').executeTakeFirstOrThrow()).firstMonth;
      await sql`set time zone 'Europe/Warsaw'`.execute(db);
      expect(await keepRunningTotalsInZone(db, (m) => warned.push(m))).toBe(false);
      expect(await firstMonth()).toBe(2026 * 12 + 1); // February in Warsaw
      await sql`set time zone 'UTC'`.execute(db);
      expect(await keepRunningTotalsInZone(db, (m) => warned.push(m))).toBe(true);
      expect(await firstMonth()).toBe(2026 * 12); // January in UTC
      expect(warned).toEqual([expect.stringContaining('Europe/Warsaw')]);
      expect(await keepRunningTotalsInZone(db, (m) => warned.push(m))).toBe(false);
      await sql`set time zone 'Europe/Warsaw'`.execute(db);
    });
  });
});
