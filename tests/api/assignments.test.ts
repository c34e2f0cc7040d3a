/**
 * Handover (Wydanie) and return (Zdanie) of a vehicle and its latest assignment (spec §2
 * Assignments, §7 POST /assignment/pickup, /assignment/dropoff, GET /assignment/last/{pojazdId};
 * ACCESS.md: pickup ADMIN all, MANAGER client; dropoff also USER own vehicle; last ADMIN all,
 * MANAGER client; ADVISOR none). Rules: one open assignment per vehicle (a database index, so two
 * handovers at once: exactly one wins), a return needs an open one and is never before it,
 * readings never below the vehicle's last one and within 0–999 999 999, and the vehicle's state
 * changes with the assignment or not at all.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const SAVED = 'Zapisano zmianę przydziału';
const REQUIRED = 'Pole nie może być puste';

type Who = 'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca';

describe('vehicle handover and return', () => {
  let t: TestApp;
  const bearer = {} as Record<Who, string>;
  let today: string, yesterday: string;
  /** WZ67890: KL001, not issued, last reading 41 200. */
  let free: { pojazdId: number; aktStanLicz: number };
  /** WZ12345: KL001, kierowca's, issued (open assignment since 2023). */
  let issued: { pojazdId: number; aktStanLicz: number };
  /** Another KL001 vehicle never handed over (for the race), and a KL002 one. */
  let spare: { pojazdId: number; aktStanLicz: number };
  let nowicki: number, foreignEmployee: number;

  const pickup = (who: Who, body: Record<string, unknown>) => t.call('POST', '/api/assignment/pickup', { token: bearer[who], body });
  const dropoff = (who: Who, body: Record<string, unknown>) => t.call('POST', '/api/assignment/dropoff', { token: bearer[who], body });
  const last = (who: Who, pojazdId: number | string) => t.call('GET', `/api/assignment/last/${pojazdId}`, { token: bearer[who] });
  const handover = (vehicle: { pojazdId: number; aktStanLicz: number }, extra: Record<string, unknown> = {}) => ({
    pojazdId: vehicle.pojazdId, pracId: nowicki, dataWy: today, czasWy: '08:00', licznikWy: vehicle.aktStanLicz + 10, palWy: 40,
    uwagiWy: 'Komplet kluczyków', opWydal: 'Anna Nowak', ...extra,
  });
  const giveBack = (vehicle: { pojazdId: number }, extra: Record<string, unknown> = {}) => ({
    pojazdId: vehicle.pojazdId, dataZd: today, czasZd: '16:00', licznikZd: 999_999, palZd: 20, palStanZd: 20, uwagiZd: 'Bez uwag',
    opOdebral: 'Anna Nowak', ...extra,
  });
  const car = (pojazdId: number) => t.app.db.selectFrom('car').select(['aktStanLicz', 'aktDataLicz', 'czyWydany', 'pracId', 'dataWyd'])
    .where('pojazdId', '=', pojazdId).executeTakeFirstOrThrow();
  const openCount = async (pojazdId: number) => (await t.app.db.selectFrom('vehicle_assignment').select((eb) => eb.fn.countAll<number>().as('n'))
    .where('pojazdId', '=', pojazdId).where('dataZd', 'is', null).executeTakeFirstOrThrow()).n;

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) bearer[who] = await t.signIn(who);
    const { rows } = await sql<{ today: string; yesterday: string }>`
      select to_char(current_date, 'YYYY-MM-DD') as today, to_char(current_date - 1, 'YYYY-MM-DD') as yesterday`.execute(t.app.db);
    ({ today, yesterday } = rows[0]);
    const byPlate = (rejestr: string) => t.app.db.selectFrom('car').select(['pojazdId', 'aktStanLicz']).where('rejestr', '=', rejestr)
      .executeTakeFirstOrThrow() as Promise<{ pojazdId: number; aktStanLicz: number }>;
    free = await byPlate('WZ67890');
    issued = await byPlate('WZ12345');
    spare = (await t.app.db.selectFrom('car').select(['pojazdId', 'aktStanLicz']).where('klientSymbol', '=', 'KL001')
      .where('pojazdId', 'not in', [free.pojazdId, issued.pojazdId])
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('vehicle_assignment as a').select('a.przydzialId').whereRef('a.pojazdId', '=', 'car.pojazdId'))))
      .orderBy('pojazdId').executeTakeFirstOrThrow()) as typeof spare;
    nowicki = (await t.app.db.selectFrom('employee').select('pracId').where('nazwisko', '=', 'Nowicki').executeTakeFirstOrThrow()).pracId;
    foreignEmployee = (await t.app.db.selectFrom('employee').select('pracId').where('klient', '=', 'KL002').executeTakeFirstOrThrow()).pracId;
  });
  afterAll(async () => t?.close());

  it('refuses a return of a vehicle that is not issued (409, naming pojazdId)', async () => {
    const res = await dropoff('manager', giveBack(free));
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toEqual([{ field: 'pojazdId', message: 'Pojazd WZ67890 nie jest wydany: nie ma czego zdać' }]);
  });

  it('refuses handover readings below the vehicle\'s last one or outside 0–999 999 999, naming the field', async () => {
    const cases: [number, string][] = [
      [free.aktStanLicz - 1, `Stan licznika nie może być mniejszy niż ostatni odczyt pojazdu (${free.aktStanLicz} km)`],
      [1_000_000_000, 'Pole musi być mniejsze równe 999999999'],
      [-1, 'Pole musi być większe równe 0'],
    ];
    for (const [licznikWy, message] of cases) {
      const res = await pickup('manager', handover(free, { licznikWy }));
      expect(res.statusCode, String(licznikWy)).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'licznikWy', message }]);
    }
    expect(await openCount(free.pojazdId)).toBe(0);
  });

  it.each(['pojazdId', 'pracId', 'dataWy', 'licznikWy', 'opWydal'])('refuses a handover without %s', async (field) => {
    const body = handover(free);
    delete (body as Record<string, unknown>)[field];
    const res = await pickup('manager', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ field, message: REQUIRED });
  });

  it.each(['pojazdId', 'dataZd', 'licznikZd', 'opOdebral'])('refuses a return without %s', async (field) => {
    const body = giveBack(issued);
    delete (body as Record<string, unknown>)[field];
    const res = await dropoff('manager', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ field, message: REQUIRED });
  });

  it('refuses a bad date or time, a blank person and an employee of another client', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ dataWy: '2026-02-30' }, 'dataWy', 'Niepoprawny format'],
      [{ czasWy: '25:00' }, 'czasWy', 'Niepoprawny format'],
      [{ opWydal: '  ' }, 'opWydal', REQUIRED],
      [{ pracId: foreignEmployee }, 'pracId', 'Pojazd można wydać tylko pracownikowi klienta, do którego należy'],
    ];
    for (const [extra, field, message] of cases) {
      const res = await pickup('manager', handover(free, extra));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors).toContainEqual({ field, message });
    }
  });

  it('requires the handover time when the configuration says so', async () => {
    const config = t.app.config.bundle.config as Record<string, unknown>;
    config.handoverTimeRequired = true;
    try {
      const res = await pickup('manager', handover(free, { czasWy: null }));
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'czasWy', message: 'Podaj godzinę wydania' }]);
    } finally {
      config.handoverTimeRequired = false;
    }
  });

  it('hands a vehicle over: one open assignment, the vehicle issued to that employee with the new reading', async () => {
    const before = await t.app.db.selectFrom('mileage_reading').select((eb) => eb.fn.countAll<number>().as('n')).where('pojazdId', '=', free.pojazdId).executeTakeFirstOrThrow();
    const res = await pickup('manager', handover(free));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ message: SAVED, przydzialId: expect.any(Number) });
    expect(await car(free.pojazdId)).toMatchObject({ czyWydany: true, pracId: nowicki, aktStanLicz: free.aktStanLicz + 10, aktDataLicz: today, dataWyd: today });
    const after = await t.app.db.selectFrom('mileage_reading').select((eb) => eb.fn.countAll<number>().as('n')).where('pojazdId', '=', free.pojazdId).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n + 1);

    const open = await last('manager', free.pojazdId);
    expect(open.statusCode).toBe(200);
    expect(open.json()).toMatchObject({ przydzialId: res.json().przydzialId, licznikWy: free.aktStanLicz + 10, opWydal: 'Anna Nowak', dataZd: null, nazwisko: 'Nowicki' });
  });

  it('refuses a second handover of an issued vehicle (409)', async () => {
    const res = await pickup('admin', handover(free, { licznikWy: free.aktStanLicz + 20 }));
    expect(res.statusCode).toBe(409);
    expect(res.json().errors).toEqual([{ field: 'pojazdId', message: 'Pojazd WZ67890 jest już wydany: najpierw trzeba go zdać' }]);
    expect(await openCount(free.pojazdId)).toBe(1);
  });

  it('refuses a return before its handover or below its reading, naming the field', async () => {
    let res = await dropoff('manager', giveBack(free, { dataZd: yesterday }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'dataZd', message: 'Data zdania nie może być wcześniejsza niż data wydania' }]);
    res = await dropoff('manager', giveBack(free, { czasZd: '07:59' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('dataZd');
    res = await dropoff('manager', giveBack(free, { licznikZd: free.aktStanLicz + 9 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('licznikZd');
    expect(await openCount(free.pojazdId)).toBe(1);
  });

  it('takes the vehicle back: the assignment closed, the vehicle no longer issued, the reading its own', async () => {
    const res = await dropoff('manager', giveBack(free, { licznikZd: free.aktStanLicz + 300, czasZd: null }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(SAVED);
    expect(await car(free.pojazdId)).toMatchObject({ czyWydany: false, aktStanLicz: free.aktStanLicz + 300 });
    const closed = (await last('admin', free.pojazdId)).json();
    expect(closed).toMatchObject({ licznikZd: free.aktStanLicz + 300, opOdebral: 'Anna Nowak' });
    expect(closed.dataZd).not.toBeNull();
    // a return without a time is at the end of its day (23:59): a new handover that day before it is refused
    const early = await pickup('manager', handover(free, { licznikWy: free.aktStanLicz + 300, czasWy: '10:00' }));
    expect(early.statusCode).toBe(400);
    expect(early.json().errors[0].field).toBe('dataWy');
  });

  it('lets exactly one of two simultaneous handovers of one vehicle through; the other gets 409', async () => {
    const [a, b] = await Promise.all([
      pickup('manager', handover(spare)),
      pickup('admin', handover(spare, { opWydal: 'Administrator' })),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await openCount(spare.pojazdId)).toBe(1);
  });

  it('keeps one open assignment per vehicle in the database itself, whatever the writer', async () => {
    const row = await t.app.db.selectFrom('vehicle_assignment').select(['pojazdId', 'pracId', 'klientSymbol']).where('pojazdId', '=', spare.pojazdId)
      .where('dataZd', 'is', null).executeTakeFirstOrThrow();
    await expect(t.app.db.insertInto('vehicle_assignment').values({ ...row, dataWy: new Date() }).execute()).rejects.toMatchObject({ code: '23505' });
  });

  it('changes nothing when the vehicle\'s half of a handover fails', async () => {
    const target = free.aktStanLicz + 4444;
    await sql`alter table car add constraint test_refuse_reading check ("aktStanLicz" <> ${sql.lit(target)})`.execute(t.app.db);
    try {
      const before = await car(free.pojazdId);
      const res = await pickup('manager', handover(free, { dataWy: today, czasWy: '23:59', licznikWy: target }));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe('Błąd podczas zapisywania zmiany przydziału');
      expect(await openCount(free.pojazdId)).toBe(0);
      expect(await car(free.pojazdId)).toEqual(before);
    } finally {
      await sql`alter table car drop constraint test_refuse_reading`.execute(t.app.db);
    }
  });

  it('answers each role as ACCESS.md says and a vehicle outside the scope as absent', async () => {
    // USER: return of the own vehicle only; no handover
    expect((await pickup('kierowca', handover(issued))).statusCode).toBe(403);
    expect((await dropoff('kierowca', giveBack(free))).statusCode).toBe(404);
    const own = await dropoff('kierowca', giveBack(issued));
    expect(own.statusCode, own.body).toBe(200);
    // ADVISOR: none
    expect((await pickup('doradca', handover(issued))).statusCode).toBe(403);
    expect((await dropoff('doradca', giveBack(issued))).statusCode).toBe(403);
    expect((await last('doradca', issued.pojazdId)).statusCode).toBe(403);
    expect((await last('kierowca', issued.pojazdId)).statusCode).toBe(403);
    // another client's manager: absent
    expect((await pickup('manager2', handover(issued, { licznikWy: 999_999 }))).statusCode).toBe(404);
    expect((await dropoff('manager2', giveBack(spare))).statusCode).toBe(404);
    expect((await last('manager2', issued.pojazdId)).statusCode).toBe(404);
    expect((await last('manager', 'abc')).statusCode).toBe(400);
  });

  it('answers null for a vehicle in scope that was never handed over', async () => {
    const never = await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', 'KL001')
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('vehicle_assignment as a').select('a.przydzialId').whereRef('a.pojazdId', '=', 'car.pojazdId'))))
      .orderBy('pojazdId').executeTakeFirstOrThrow();
    const res = await last('manager', never.pojazdId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toBeNull();
  });
});
