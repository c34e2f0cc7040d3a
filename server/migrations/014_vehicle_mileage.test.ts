/**
 * vehicle_mileage follows mileage_reading in the writer's own statement (migration 014): a bulk
 * insert, an update and a delete each leave the count and the first and last reading right.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';

describe('vehicle_mileage', () => {
  let t: TestDatabase;
  let pojazdId: number;
  const summary = () => t.db.selectFrom('vehicle_mileage').select(['readings', 'firstLicznik', 'lastLicznik']).where('pojazdId', '=', pojazdId).executeTakeFirst();

  beforeAll(async () => {
    t = await openTestDatabase({ migrate: true });
    await t.db.insertInto('client').values({ klient: 'K1', klientNazwa: 'Klient' }).execute();
    pojazdId = (await t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr: 'WX1' }).returning('pojazdId').executeTakeFirstOrThrow()).pojazdId;
  }, 60_000);
  afterAll(async () => t?.close());

  it('sums up a bulk insert, then an update and a delete of readings', async () => {
    await t.db.insertInto('mileage_reading').values([
      { pojazdId, licznik: 1000, data: '2026-01-01T10:00:00Z' },
      { pojazdId, licznik: 4000, data: '2026-03-01T10:00:00Z' },
      { pojazdId, licznik: 2500, data: '2026-02-01T10:00:00Z' },
    ]).execute();
    expect(await summary()).toEqual({ readings: 3, firstLicznik: 1000, lastLicznik: 4000 });
    await t.db.updateTable('mileage_reading').set({ licznik: 5000 }).where('licznik', '=', 4000).execute();
    expect(await summary()).toEqual({ readings: 3, firstLicznik: 1000, lastLicznik: 5000 });
    await t.db.deleteFrom('mileage_reading').where('licznik', '>=', 2500).execute();
    expect(await summary()).toEqual({ readings: 1, firstLicznik: 1000, lastLicznik: 1000 });
    await t.db.deleteFrom('mileage_reading').where('pojazdId', '=', pojazdId).execute();
    expect(await summary()).toBeUndefined();
  });
});
