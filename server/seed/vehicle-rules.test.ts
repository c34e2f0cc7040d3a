/**
 * The seeded handovers, returns, readings and damages obey the rules the server enforces on new
 * ones (issue 14, docs/decisions.md): a reading is never above the vehicle's current one, a return
 * is never before its handover, a vehicle is issued exactly when it has an open assignment, its
 * handovers never overlap, and a damage's participant works for the vehicle's client.
 */
import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testBackends, type TestDatabase } from './testing.ts';

describe.each(testBackends)('seeded vehicle history on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ kind, seed: true }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  const count = async (query: RawBuilder<unknown>) => Number(((await query.execute(t.db)).rows[0] as { n: number }).n);

  it('has open and closed assignments, readings and damages with participants', async () => {
    expect(await count(sql`select count(*) as n from vehicle_assignment where "dataZd" is null`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from vehicle_assignment where "dataZd" is not null`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from mileage_reading`)).toBeGreaterThan(0);
    expect(await count(sql`select count(*) as n from damage where "pracId" is not null and "sprawcaNazImie" is not null`)).toBeGreaterThan(0);
  });

  it('never records a reading above the vehicle\'s current one, and the current one is the highest', async () => {
    expect(await count(sql`select count(*) as n from vehicle_assignment a join car c using ("pojazdId")
      where a."licznikWy" > c."aktStanLicz" or a."licznikZd" > c."aktStanLicz" or a."licznikZd" < a."licznikWy"`)).toBe(0);
    expect(await count(sql`select count(*) as n from car c join (select "pojazdId", max("licznik") as m from mileage_reading group by 1) r using ("pojazdId")
      where r.m <> c."aktStanLicz"`)).toBe(0);
  });

  it('issues a vehicle exactly when it has an open assignment, whose handovers never overlap', async () => {
    expect(await count(sql`select count(*) as n from car c
      where c."czyWydany" <> exists (select 1 from vehicle_assignment a where a."pojazdId" = c."pojazdId" and a."dataZd" is null)`)).toBe(0);
    expect(await count(sql`select count(*) as n from vehicle_assignment a join vehicle_assignment b
      on a."pojazdId" = b."pojazdId" and a."przydzialId" <> b."przydzialId"
      where a."dataWy" <= b."dataWy" and (a."dataZd" is null or a."dataZd" > b."dataWy")`)).toBe(0);
  });

  it('gives every damage a participant of the vehicle\'s client and a case number of the one format', async () => {
    expect(await count(sql`select count(*) as n from damage d join employee e on e."pracId" = d."pracId" where e."klient" <> d."klientSymbol"`)).toBe(0);
    expect(await count(sql`select count(*) as n from damage where "nrSprawy" !~ '^SZK/[0-9]{4}/[0-9]{7}$'`)).toBe(0);
  });
});
