/**
 * Reporting a damage and reading it back (spec §2 Damage wizard, §3 Damage, §5, §7 POST
 * /damage/add, GET /damage/{id}; ACCESS.md "damage: add" and "damage: details": ADMIN all,
 * MANAGER client, USER own vehicle, ADVISOR refused). The damage, its row in the orders list
 * and its participants are written together or not at all.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const REQUIRED = 'Pole nie może być puste';
const REPORTED = 'Zgłoszono szkodę.';
const FAILED = 'Błąd podczas zgłaszania szkody.';

describe('damage reports', () => {
  let t: TestApp;
  const bearer: Record<'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca', string> = {} as any;
  /** WZ12345 (kierowca's, KL001), WZ67890 (KL001, not kierowca's), a KL002 vehicle. */
  let own: { pojazdId: number; rejestr: string; aktStanLicz: number };
  let other: { pojazdId: number; rejestr: string; aktStanLicz: number };
  let foreign: { pojazdId: number; rejestr: string };
  let kowalski: number, foreignEmployee: number;

  const report = (who: keyof typeof bearer, body: Record<string, unknown>) => t.call('POST', '/api/damage/add', { token: bearer[who], body });
  const details = (who: keyof typeof bearer, id: number) => t.call('GET', `/api/damage/${id}`, { token: bearer[who] });
  const valid = (vehicle: { pojazdId: number; rejestr: string }, extra: Record<string, unknown> = {}) => ({
    pojazdId: vehicle.pojazdId, rejestr: vehicle.rejestr, pracId: kowalski, dataSzkod: new Date().toISOString(),
    rodzSzkod: 'Kolizja drogowa', zgloNazwiskoImie: 'Nowak Anna', zgloTelef: '+48 600 100 200', zgloEmail: 'anna.nowak@transbud.pl',
    ...extra,
  });
  const counts = async () => {
    const { rows } = await sql<{ orders: number; damages: number }>`
      select (select count(*) from service_order)::int as orders, (select count(*) from damage)::int as damages`.execute(t.app.db);
    return rows[0];
  };

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) bearer[who] = await t.signIn(who);
    const car = (where: string) => t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'aktStanLicz']).where('rejestr', '=', where).executeTakeFirstOrThrow();
    own = (await car('WZ12345')) as typeof own;
    other = (await car('WZ67890')) as typeof other;
    foreign = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '=', 'KL002').orderBy('pojazdId').executeTakeFirstOrThrow();
    kowalski = (await t.app.db.selectFrom('employee').select('pracId').where('nazwisko', '=', 'Kowalski').where('imie', '=', 'Jan').executeTakeFirstOrThrow()).pracId;
    foreignEmployee = (await t.app.db.selectFrom('employee').select('pracId').where('klient', '=', 'KL002').executeTakeFirstOrThrow()).pracId;
  });
  afterAll(async () => t?.close());

  it('writes a manager\'s report with its participants and order row, numbered SZK/<year>/<order id on 7 digits>', async () => {
    const external = {
      sprawcaNazImie: 'Zieliński Tomasz', sprawcaMiejscow: 'Łódź', sprawcaKodPoczt: '90-001', sprawcaUlica: 'ul. Piotrkowska 1',
      sprawcaPojRejestr: 'EL12345', sprawcaPojMarka: 'Ford Focus', sprawcaPolisaOc: 'OC/2026/1', sprawcaFirmaTu: 'Warta',
    };
    const res = await report('manager', valid(other, { ...external, winaPrac: 'N', opisSzkody: 'Uderzenie w tył pojazdu', uwagi: 'Brak' }));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(REPORTED);
    const order = await t.app.db.selectFrom('v_order').select(['autId', 'czySzkoda', 'autTyp', 'sprawaId', sql<string>`to_char("zgloData", 'YYYY')`.as('year')]).where('sprawaId', '=', body.sprawaId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ czySzkoda: true, autTyp: 3 });
    // the year the order was reported in, as the database dates it: the test's own clock would read
    // another year in the last hour of 31 December (UTC against the portal's zone)
    expect(body.nrSprawy).toBe(`SZK/${order.year}/${String(order.autId).padStart(7, '0')}`);

    const read = await details('manager', body.sprawaId);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      ...external, sprawaId: body.sprawaId, nrSprawy: body.nrSprawy, pojazdId: other.pojazdId, rejestr: other.rejestr,
      pracId: kowalski, uczestnikNazwiskoImie: 'Kowalski Jan', zgloNazwiskoImie: 'Nowak Anna', winaPrac: 'N', uwagi: 'Brak',
      zpolisTyp: 'AC', nrZglosz: '-', etapZnacz: 'Zgłoszona',
    });
  });

  it('lets each role report exactly where ACCESS.md says: ADMIN anywhere, MANAGER its client, USER its own vehicle, ADVISOR nowhere', async () => {
    expect((await report('admin', valid(foreign, { pracId: foreignEmployee }))).statusCode).toBe(200);
    expect((await report('kierowca', valid(own))).statusCode).toBe(200);
    // outside the scope: answered as absent
    for (const [who, vehicle] of [['kierowca', other], ['manager2', own], ['manager', foreign]] as const) {
      const res = await report(who, valid(vehicle));
      expect(res.statusCode, `${who} on ${vehicle.rejestr}`).toBe(404);
    }
    const advisor = await report('doradca', valid(own));
    expect(advisor.statusCode).toBe(403);
  });

  it('shows a damage\'s details only within the caller\'s scope', async () => {
    const res = await report('manager', valid(own));
    const id = res.json().sprawaId;
    expect((await details('admin', id)).statusCode).toBe(200);
    expect((await details('manager', id)).statusCode).toBe(200);
    expect((await details('kierowca', id)).statusCode).toBe(200);
    expect((await details('manager2', id)).statusCode).toBe(404);
    expect((await details('doradca', id)).statusCode).toBe(403);
    const onOther = (await report('manager', valid(other))).json().sprawaId;
    expect((await details('kierowca', onOther)).statusCode).toBe(404);
  });

  it.each(['pojazdId', 'rejestr', 'pracId', 'dataSzkod', 'rodzSzkod', 'zgloNazwiskoImie', 'zgloTelef', 'zgloEmail'])(
    'refuses a report without %s, naming the field', async (field) => {
      const body: Record<string, unknown> = valid(other);
      delete body[field];
      const res = await report('manager', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toContainEqual({ field, message: REQUIRED });
    },
  );

  it.each(['rejestr', 'rodzSzkod', 'zgloNazwiskoImie', 'zgloTelef', 'zgloEmail'])('refuses a whitespace-only %s as empty', async (field) => {
    const res = await report('manager', valid(other, { [field]: '   ' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ field, message: REQUIRED });
  });

  it.each([
    ['sprawcaNazImie', 200], ['sprawcaMiejscow', 50], ['sprawcaKodPoczt', 10], ['sprawcaUlica', 50], ['sprawcaPojRejestr', 10],
    ['sprawcaPojMarka', 50], ['sprawcaPolisaOc', 30], ['sprawcaFirmaTu', 20], ['zgloEmail', 50], ['rejestr', 10],
  ] as const)('refuses an external participant or reporter field %s longer than %i characters', async (field, max) => {
    const ok = await report('manager', valid(other, { [field]: field === 'zgloEmail' ? `${'a'.repeat(max - 8)}@test.pl` : field === 'rejestr' ? other.rejestr : 'x'.repeat(max) }));
    expect(ok.statusCode, ok.body).toBe(200);
    const res = await report('manager', valid(other, { [field]: field === 'zgloEmail' ? `${'a'.repeat(max - 7)}@test.pl` : 'x'.repeat(max + 1) }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ field, message: `Pole może mieć najwyżej ${max} znaków` });
  });

  it('refuses a bad e-mail, risk type, fault type and an odometer beyond 999 999 999', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ zgloEmail: 'nie-email' }, 'zgloEmail', 'Niepoprawny adres email'],
      [{ zpolisTyp: 'NNW' }, 'zpolisTyp', 'Wybierz jedną z dostępnych wartości'],
      [{ winaPrac: 'X' }, 'winaPrac', 'Wybierz jedną z dostępnych wartości'],
      [{ stanLicz: 1_000_000_000 }, 'stanLicz', 'Pole musi być mniejsze równe 999999999'],
      [{ stanLicz: -1 }, 'stanLicz', 'Pole musi być większe równe 0'],
    ];
    for (const [extra, field, message] of cases) {
      const res = await report('manager', valid(other, extra));
      expect(res.statusCode, field).toBe(400);
      expect(res.json().errors).toContainEqual({ field, message });
    }
  });

  it('accepts the four risk types and both fault types, with AC and TU number "-" as defaults', async () => {
    for (const zpolisTyp of ['AC', 'OC', 'AC z regresem', 'OC nasze']) {
      for (const winaPrac of ['T', 'N']) expect((await report('manager', valid(other, { zpolisTyp, winaPrac }))).statusCode).toBe(200);
    }
  });

  it('refuses the risk types a client variant limits for the caller\'s role, and only those', async () => {
    const config = t.app.config.bundle.config as Record<string, unknown>;
    // what the regional dealer's variant sets (ACCESS.md)
    config.damageRiskTypeLimits = [{ when: { properties: { role: { enum: ['MANAGER', 'ADVISOR'] } } }, refused: ['AC z regresem', 'OC nasze'] }];
    try {
      for (const zpolisTyp of ['AC z regresem', 'OC nasze']) {
        const res = await report('manager', valid(other, { zpolisTyp }));
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual([{ field: 'zpolisTyp', message: 'Wybierz jedną z dostępnych wartości' }]);
        expect((await report('admin', valid(other, { zpolisTyp }))).statusCode).toBe(200);
      }
      expect((await report('manager', valid(other, { zpolisTyp: 'OC' }))).statusCode).toBe(200);
    } finally {
      config.damageRiskTypeLimits = [];
    }
  });

  it('refuses a participant of another client, a plate of another vehicle, and a reading below the vehicle\'s last one', async () => {
    let res = await report('manager', valid(other, { pracId: foreignEmployee }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('pracId');
    res = await report('manager', valid(other, { rejestr: own.rejestr }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].field).toBe('rejestr');
    res = await report('manager', valid(other, { stanLicz: other.aktStanLicz - 1 }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'stanLicz', message: `Stan licznika nie może być mniejszy niż ostatni odczyt pojazdu (${other.aktStanLicz} km)` }]);
    // a damage from before the day of the last reading may carry the reading it had then
    res = await report('manager', valid(other, { stanLicz: other.aktStanLicz - 500, dataSzkod: '2020-01-15T10:00:00+01:00' }));
    expect(res.statusCode, res.body).toBe(200);
    // and a damage's reading does not change the vehicle's
    const car = await t.app.db.selectFrom('car').select('aktStanLicz').where('pojazdId', '=', other.pojazdId).executeTakeFirstOrThrow();
    expect(car.aktStanLicz).toBe(other.aktStanLicz);
  });

  it('leaves neither the damage nor its order row when the damage\'s half of the write fails', async () => {
    // the damage row (the second write of the transaction) is refused by a constraint of this test's database
    await sql`alter table damage add constraint test_refuse_damage check ("sprawcaNazImie" is distinct from 'Odrzucony')`.execute(t.app.db);
    try {
      const before = await counts();
      const res = await report('manager', valid(other, { sprawcaNazImie: 'Odrzucony' }));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(FAILED);
      expect(await counts()).toEqual(before);
    } finally {
      await sql`alter table damage drop constraint test_refuse_damage`.execute(t.app.db);
    }
  });
});
