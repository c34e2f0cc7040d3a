/**
 * A new odometer reading (spec §3 Mileage reading, §7 POST /counter; ACCESS.md "counter
 * (mileage)": ADMIN all, MANAGER client, USER own vehicle, ADVISOR none). The reading and the
 * vehicle's current reading and day change together, or neither does.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Who = 'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca';

describe('odometer readings', () => {
  let t: TestApp;
  const bearer = {} as Record<Who, string>;
  let own: { pojazdId: number; aktStanLicz: number };
  let other: { pojazdId: number; aktStanLicz: number };
  let foreign: { pojazdId: number; aktStanLicz: number };

  const counter = (who: Who, body: Record<string, unknown>) => t.call('POST', '/api/counter', { token: bearer[who], body });
  const car = (pojazdId: number) => t.app.db.selectFrom('car').select(['aktStanLicz', 'aktDataLicz', 'stanPal']).where('pojazdId', '=', pojazdId).executeTakeFirstOrThrow();
  const readings = async (pojazdId: number) => (await t.app.db.selectFrom('mileage_reading').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pojazdId', '=', pojazdId).executeTakeFirstOrThrow()).n;

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) bearer[who] = await t.signIn(who);
    const pick = (q: (db: TestApp['app']['db']) => any) => q(t.app.db).executeTakeFirstOrThrow() as Promise<{ pojazdId: number; aktStanLicz: number }>;
    own = await pick((db) => db.selectFrom('car').select(['pojazdId', 'aktStanLicz']).where('rejestr', '=', 'WZ12345'));
    other = await pick((db) => db.selectFrom('car').select(['pojazdId', 'aktStanLicz']).where('rejestr', '=', 'WZ67890'));
    foreign = await pick((db) => db.selectFrom('car').select(['pojazdId', 'aktStanLicz']).where('klientSymbol', '=', 'KL002').orderBy('pojazdId'));
  });
  afterAll(async () => t?.close());

  it('stores a driver\'s reading of the own vehicle and makes it the vehicle\'s current one', async () => {
    const before = await readings(own.pojazdId);
    const res = await counter('kierowca', { pojaId: own.pojazdId, licznik: own.aktStanLicz + 120, palStan: 33 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ pojazdId: own.pojazdId, aktStanLicz: own.aktStanLicz + 120, message: 'Zapisano stan licznika' });
    const { rows } = await sql<{ today: string }>`select to_char(current_date, 'YYYY-MM-DD') as today`.execute(t.app.db);
    expect(await car(own.pojazdId)).toEqual({ aktStanLicz: own.aktStanLicz + 120, aktDataLicz: rows[0].today, stanPal: 33 });
    expect(await readings(own.pojazdId)).toBe(before + 1);
    // the vehicle panel reads the same vehicle
    const panel = await t.call('GET', '/api/car/single-car', { token: bearer.kierowca });
    expect(panel.json().aktStanLicz).toBe(own.aktStanLicz + 120);
    own.aktStanLicz += 120;
  });

  it('accepts the same reading again and refuses one below the last, naming licznik', async () => {
    expect((await counter('manager', { pojaId: own.pojazdId, licznik: own.aktStanLicz })).statusCode).toBe(200);
    const res = await counter('manager', { pojaId: own.pojazdId, licznik: own.aktStanLicz - 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'licznik', message: `Stan licznika nie może być mniejszy niż ostatni odczyt pojazdu (${own.aktStanLicz} km)` }]);
  });

  it('refuses readings outside 0–999 999 999, a missing reading or vehicle, and a bad date', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ pojaId: own.pojazdId, licznik: 1_000_000_000 }, 'licznik', 'Pole musi być mniejsze równe 999999999'],
      [{ pojaId: own.pojazdId, licznik: -5 }, 'licznik', 'Pole musi być większe równe 0'],
      [{ pojaId: own.pojazdId }, 'licznik', 'Pole nie może być puste'],
      [{ licznik: 5 }, 'pojaId', 'Pole nie może być puste'],
      [{ pojaId: own.pojazdId, licznik: own.aktStanLicz, data: 'wczoraj' }, 'data', 'Niepoprawny format'],
    ];
    for (const [body, field, message] of cases) {
      const res = await counter('manager', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors).toContainEqual({ field, message });
    }
  });

  it('answers each role as ACCESS.md says: a vehicle outside the scope is absent, an advisor refused', async () => {
    expect((await counter('admin', { pojaId: foreign.pojazdId, licznik: foreign.aktStanLicz + 1 })).statusCode).toBe(200);
    expect((await counter('manager', { pojaId: other.pojazdId, licznik: other.aktStanLicz + 1 })).statusCode).toBe(200);
    expect((await counter('manager', { pojaId: foreign.pojazdId, licznik: foreign.aktStanLicz + 5 })).statusCode).toBe(404);
    expect((await counter('manager2', { pojaId: own.pojazdId, licznik: own.aktStanLicz + 5 })).statusCode).toBe(404);
    expect((await counter('kierowca', { pojaId: other.pojazdId, licznik: other.aktStanLicz + 5 })).statusCode).toBe(404);
    expect((await counter('doradca', { pojaId: own.pojazdId, licznik: own.aktStanLicz + 5 })).statusCode).toBe(403);
  });

  it('keeps no reading when the vehicle\'s half of the write fails', async () => {
    const target = own.aktStanLicz + 777;
    await sql`alter table car add constraint test_refuse_reading check ("aktStanLicz" <> ${sql.lit(target)})`.execute(t.app.db);
    try {
      const before = { readings: await readings(own.pojazdId), car: await car(own.pojazdId) };
      const res = await counter('manager', { pojaId: own.pojazdId, licznik: target });
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('Błąd podczas dodawania stanu licznika');
      expect({ readings: await readings(own.pojazdId), car: await car(own.pojazdId) }).toEqual(before);
    } finally {
      await sql`alter table car drop constraint test_refuse_reading`.execute(t.app.db);
    }
  });
});
