/**
 * Fuel anomalies (issue 46): the rules of screens/fuel-anomalies.json found when fuel transactions
 * are imported, each firing just past its bound and not at it; the same file again adds nothing;
 * the fleet manager's list within his client (ACCESS.md), the explanation with its note recorded
 * in the trail, the refusals (a driver, another client's manager, a missing note), the
 * announcement to the client's managers, and the fuel-anomalies report whose totals are its rows.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { importRuns } from '../support/imports.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const CARD = '7077000000046001';
const HEAD = 'Nr transakcji;Data transakcji;Nr karty;Nr rejestracyjny;Stacja;Produkt;Ilość;Cena jednostkowa;Wartość netto;Wartość brutto;Stan licznika';

describe('fuel anomalies', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let vehicle: { pojazdId: number; rejestr: string | null };

  const file = (rows: string[]) => iconv.encode(`${[HEAD, ...rows].join('\r\n')}\r\n`, 'win1250');
  /** A transaction row of the test card: number, when (DD.MM.RRRR GG:MM), product, litres, gross, odometer. */
  const tx = (no: string, when: string, produkt: string, litry: string, brutto = '10,00', licznik = '') =>
    `${no};${when};${CARD};;ORLEN Test;${produkt};${litry};1,00;${brutto};${brutto};${licznik}`;
  const run = (name: string, rows: string[]) => importRuns(t, tok.admin).runOf('fuel-orlen', name, file(rows));
  /** The anomalies of one rule on the test vehicle, by their transaction's number. */
  const found = async (rule: string) => (await t.app.db.selectFrom('fuel_anomaly as a').innerJoin('fuel_transaction as f', 'f.transId', 'a.transId')
    .select(['f.nrTransakcji', 'a.wartosc', 'a.granica']).where('a.regula', '=', rule).where('a.pojazdId', '=', vehicle.pojazdId)
    .orderBy('f.nrTransakcji').execute()).map((r) => r.nrTransakcji);

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca'] as const) tok[who] = await t.signIn(who);
    // a vehicle of the manager's client without transactions of its own: 50 l of diesel, a card with a 1000 zł monthly limit
    const busy = (await t.app.db.selectFrom('fuel_transaction').select('pojazdId').distinct().execute()).map((r) => r.pojazdId).filter((id): id is number => id !== null);
    vehicle = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '=', 'KL001').where('pojazdId', 'not in', busy)
      .orderBy('pojazdId').executeTakeFirstOrThrow();
    await t.app.db.updateTable('car').set({ pojZbiornika: 50, rodzajPaliwa: 'ON' }).where('pojazdId', '=', vehicle.pojazdId).execute();
    await t.app.db.insertInto('fuel_card').values({ klientSymbol: 'KL001', pojazdId: vehicle.pojazdId, nrKarty: CARD, status: 'Aktywna', limWaMiePal: 1000 }).execute();
    // another system takes the client's anomaly events (no delivery worker runs here: the messages wait in the outbox)
    const endpoint = await t.call('POST', '/api/webhooks/endpoints', { token: tok.admin, body: { url: 'https://example.com/anomalie', events: ['fuel.anomaly', 'fuel.anomaly_explained'], clients: ['KL001'] } });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
  }, 180_000);
  /** The outbox's messages of an event, with the anomaly each carries. */
  const messages = async (event: string) => (await t.app.db.selectFrom('webhook_message').select(['payload']).where('event', '=', event).execute())
    .map((m) => ((typeof m.payload === 'string' ? JSON.parse(m.payload) : m.payload) as { data: { 'fuel-anomaly': { id: number; regula: string; pojazdId: number } } }).data['fuel-anomaly']);
  afterAll(async () => t?.close());

  it('over the tank: 50,01 l into a 50 l tank is an anomaly, 50 l is not', async () => {
    expect(await run('zbiornik.csv', [tx('AN-T1', '03.01.2025 08:00', 'ON', '50,00'), tx('AN-T2', '13.01.2025 08:00', 'ON', '50,01')]))
      .toMatchObject({ state: 'succeeded', counts: { new: 2 } });
    expect(await found('overTank')).toEqual(['AN-T2']);
  });

  it('another fuel: petrol into the diesel is an anomaly; diesel under another name and a car wash are not', async () => {
    await run('paliwo.csv', [
      tx('AN-F1', '03.02.2025 08:00', 'PB95', '20,00'), tx('AN-F2', '10.02.2025 08:00', 'Verva ON', '20,00'), tx('AN-F3', '17.02.2025 08:00', 'Myjnia', '0'),
    ]);
    expect(await found('wrongFuel')).toEqual(['AN-F1']);
  });

  it('two fills within 4 hours: 3 h 59 min apart is an anomaly on the later fill, exactly 4 h apart is not', async () => {
    await run('dwa.csv', [
      tx('AN-W1', '03.03.2025 10:00', 'ON', '20,00'), tx('AN-W2', '03.03.2025 13:59', 'ON', '20,00'),
      tx('AN-W3', '17.03.2025 10:00', 'ON', '20,00'), tx('AN-W4', '17.03.2025 14:00', 'ON', '20,00'),
    ]);
    expect(await found('fillsTooClose')).toEqual(['AN-W2']);
    // a fill imported later, just before a stored one, makes the stored one the second fill
    await run('pozniej.csv', [tx('AN-W5', '24.03.2025 09:30', 'ON', '10,00')]);
    await run('wczesniej.csv', [tx('AN-W6', '24.03.2025 08:00', 'ON', '10,00')]);
    expect(await found('fillsTooClose')).toEqual(['AN-W2', 'AN-W5']);
  });

  it('the card\'s monthly limit: 1000,00 zł in a month is not over it, 1000,01 zł is, on the transaction that crosses it', async () => {
    await run('limit.csv', [
      tx('AN-L1', '03.04.2025 08:00', 'ON', '30,00', '600,00'), tx('AN-L2', '20.04.2025 08:00', 'ON', '30,00', '400,00'),
      tx('AN-L3', '03.05.2025 08:00', 'ON', '30,00', '600,00'), tx('AN-L4', '20.05.2025 08:00', 'ON', '30,00', '400,01'),
      tx('AN-L5', '27.05.2025 08:00', 'ON', '10,00', '50,00'),
    ]);
    expect(await found('cardLimit')).toEqual(['AN-L4']);
    const row = await t.app.db.selectFrom('fuel_anomaly').select(['wartosc', 'granica', 'klucz']).where('regula', '=', 'cardLimit').where('pojazdId', '=', vehicle.pojazdId).executeTakeFirstOrThrow();
    expect([Number(row.wartosc), Number(row.granica)]).toEqual([1000.01, 1000]);
  });

  it('consumption between odometer readings outside 4–9 l/100 km: 9,00 is not, 9,01 is; fewer than 50 km are not judged', async () => {
    await run('zuzycie.csv', [
      tx('AN-C1', '02.06.2025 08:00', 'ON', '40,00', '10,00', '10000'),
      tx('AN-C2', '09.06.2025 08:00', 'ON', '45,00', '10,00', '10500'), // 45 l / 500 km = 9,00
      tx('AN-C3', '16.06.2025 08:00', 'ON', '45,05', '10,00', '11000'), // 9,01
      tx('AN-C4', '17.06.2025 08:00', 'ON', '30,00', '10,00', '11049'), // 49 km: not judged
      tx('AN-C5', '23.06.2025 08:00', 'ON', '3,90', '10,00', '11149'), // 3,90 l / 100 km: below 4
    ]);
    expect(await found('consumption')).toEqual(['AN-C3', 'AN-C5']);
    const c3 = await t.app.db.selectFrom('fuel_anomaly as a').innerJoin('fuel_transaction as f', 'f.transId', 'a.transId')
      .select(['a.wartosc', 'a.granica']).where('f.nrTransakcji', '=', 'AN-C3').where('a.regula', '=', 'consumption').executeTakeFirstOrThrow();
    expect([Number(c3.wartosc), Number(c3.granica)]).toEqual([9.01, 9]);
  });

  it('the same file imported again adds no transaction and no anomaly', async () => {
    const count = async () => Number((await t.app.db.selectFrom('fuel_anomaly').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    expect(await run('zbiornik.csv', [tx('AN-T1', '03.01.2025 08:00', 'ON', '50,00'), tx('AN-T2', '13.01.2025 08:00', 'ON', '50,01')]))
      .toMatchObject({ state: 'succeeded', counts: { new: 0, unchanged: 2 } });
    expect(await count()).toBe(before);
  });

  it('the client\'s fleet managers are told once per import, with the number found; never the other client\'s', async () => {
    const manager = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
    const manager2 = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager2').executeTakeFirstOrThrow();
    const told = await eventually(async () => {
      const rows = await t.app.db.selectFrom('notification').select(['userId', 'payload', 'channel']).where('event', '=', 'fuelAnomaliesFound').execute();
      return rows.some((r) => r.userId === manager.id) && rows;
    }, { what: 'the manager\'s notification of the anomalies' });
    expect(told.filter((r) => r.userId === manager2.id)).toEqual([]);
    const inApp = told.filter((r) => r.userId === manager.id && r.channel === 'inApp');
    // one per import that found something (tank, fuel, two fills ×2, limit, consumption), never one per anomaly
    expect(inApp.length).toBeLessThanOrEqual(6);
    expect(inApp.map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload).found)).toContain(2);
    expect(await t.app.db.selectFrom('fuel_anomaly').select('id').where('announcedAt', 'is', null).where('pojazdId', '=', vehicle.pojazdId).execute()).toEqual([]);
    // and the webhook event once per anomaly, carrying it
    const sent = await messages('fuel.anomaly');
    expect(sent.map((a) => a.regula).sort()).toEqual(['cardLimit', 'consumption', 'consumption', 'fillsTooClose', 'fillsTooClose', 'overTank', 'wrongFuel']);
    expect(new Set(sent.map((a) => a.pojazdId))).toEqual(new Set([vehicle.pojazdId]));
  });

  it('lists the manager\'s anomalies, not another client\'s; a driver may not list them', async () => {
    const mine = await t.call('GET', '/api/fuel-anomalies?limit=100', { token: tok.manager });
    expect(mine.statusCode, mine.body).toBe(200);
    const rows = mine.json().rows as { pojazdId: number; regula: string; opis: string; klientSymbol: string; wyjasniona: boolean }[];
    expect(rows.filter((r) => r.pojazdId === vehicle.pojazdId).map((r) => r.regula).sort())
      .toEqual(['cardLimit', 'consumption', 'consumption', 'fillsTooClose', 'fillsTooClose', 'overTank', 'wrongFuel']);
    expect(new Set(rows.map((r) => r.klientSymbol))).toEqual(new Set(['KL001']));
    expect(rows.find((r) => r.regula === 'overTank' && r.pojazdId === vehicle.pojazdId)?.opis).toBe('Zatankowano 50,01 l, a zbiornik mieści 50 l');
    const other = await t.call('GET', '/api/fuel-anomalies?limit=100', { token: tok.manager2 });
    expect(other.statusCode).toBe(200);
    expect((other.json().rows as { pojazdId: number }[]).filter((r) => r.pojazdId === vehicle.pojazdId)).toEqual([]);
    expect((await t.call('GET', '/api/fuel-anomalies', { token: tok.kierowca })).statusCode).toBe(403);
    const open = await t.call('GET', '/api/fuel-anomalies/open?limit=100', { token: tok.manager });
    expect((open.json().rows as { wyjasniona: boolean }[]).every((r) => !r.wyjasniona)).toBe(true);
  });

  it('explaining: the manager\'s note marks it explained, in the trail; a driver, another client\'s manager and a missing note are refused', async () => {
    const id = Number((await t.app.db.selectFrom('fuel_anomaly').select('id').where('regula', '=', 'overTank').where('pojazdId', '=', vehicle.pojazdId).executeTakeFirstOrThrow()).id);
    const explain = (who: string, body: unknown) => t.call('POST', `/api/fuel-anomalies/${id}/explain`, { token: tok[who], body });
    expect((await explain('kierowca', { notatka: 'To nie ja' })).statusCode).toBe(403);
    const foreign = await explain('manager2', { notatka: 'Cudza' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain(String(vehicle.rejestr));
    for (const body of [{}, { notatka: '' }, { notatka: '   ' }]) {
      const bad = await explain('manager', body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json().errors[0]).toMatchObject({ field: 'notatka', message: 'Wpisz wyjaśnienie anomalii' });
      expect(new Set((bad.json().errors as { field: string }[]).map((e) => e.field))).toEqual(new Set(['notatka']));
    }
    expect(await t.app.db.selectFrom('fuel_anomaly').select(['wyjasniona']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ wyjasniona: false });

    const ok = await explain('manager', { notatka: 'Tankowanie kanistra do agregatu' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ id, wyjasniona: true, notatka: 'Tankowanie kanistra do agregatu' });
    const entries = await t.app.db.selectFrom('audit_entry').selectAll().where('resource', '=', 'fuel-anomaly').where('recordKey', '=', String(id)).execute();
    expect(entries).toHaveLength(1);
    const changes = typeof entries[0].changes === 'string' ? JSON.parse(entries[0].changes) : entries[0].changes;
    expect(entries[0]).toMatchObject({ action: 'explain', actorLabel: 'manager' });
    expect(changes).toEqual({ wyjasniona: [false, true], notatka: [null, 'Tankowanie kanistra do agregatu'] });
    const open = await t.call('GET', '/api/fuel-anomalies/open?limit=100', { token: tok.manager });
    expect((open.json().rows as { id: number }[]).map((r) => r.id)).not.toContain(id);
    expect((await messages('fuel.anomaly_explained')).map((a) => a.id)).toEqual([id]);
    expect((await explain('manager', { notatka: 'x' })).statusCode).toBe(200);
    expect((await explain('admin', { notatka: 'Sprawdzone przez biuro' })).statusCode).toBe(200);
  });

  it('the fuel-anomalies report: the manager\'s vehicles only, explained or not, filterable; its totals are the sums of its rows', async () => {
    const body = { from: '2025-01-01', to: '2025-06-30', groupBy: ['rule'], filters: { vehicle: [vehicle.pojazdId] } };
    const res = await t.call('POST', '/api/reports/fuel-anomalies/run', { token: tok.manager, body });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json() as { rows: { keys: Record<string, unknown>; values: Record<string, number | string> }[]; totals: Record<string, number> };
    expect(Object.fromEntries(r.rows.map((row) => [row.keys.rule, row.values.anomalies]))).toEqual({ cardLimit: 1, consumption: 2, fillsTooClose: 2, overTank: 1, wrongFuel: 1 });
    expect(r.rows.find((row) => row.keys.rule === 'overTank')?.values).toMatchObject({ rule: 'Tankowanie ponad pojemność zbiornika', anomaliesExplained: 1, anomaliesOpen: 0 });
    for (const m of ['anomalies', 'anomaliesOpen', 'anomaliesExplained']) expect(r.totals[m], m).toBe(r.rows.reduce((s, row) => s + Number(row.values[m]), 0));
    expect(r.totals.anomalies).toBe(r.totals.anomaliesOpen + r.totals.anomaliesExplained);

    const explained = await t.call('POST', '/api/reports/fuel-anomalies/run', { token: tok.manager, body: { ...body, groupBy: ['vehicle'], filters: { ...body.filters, explained: ['true'] } } });
    expect(explained.json().totals).toMatchObject({ anomalies: 1, anomaliesOpen: 0 });
    const all = await t.call('POST', '/api/reports/fuel-anomalies/run', { token: tok.manager, body: { from: '2022-01-01', to: '2026-12-31', groupBy: ['client'] } });
    expect((all.json().rows as { keys: { client: string } }[]).map((row) => row.keys.client)).toEqual(['KL001']);
    const other = await t.call('POST', '/api/reports/fuel-anomalies/run', { token: tok.manager2, body });
    expect(other.json().rows).toEqual([]);
    const group = await t.call('POST', '/api/reports/fuel-anomalies/run', { token: tok.manager, body: { ...body, groupBy: ['category'] } });
    expect(group.statusCode).toBe(400);
    expect(group.json().errors[0].field).toBe('groupBy/0');
  });

  it('a big import (more anomalies of a client than perRowUpTo, 100) sends no webhook message per anomaly, only the one notification', async () => {
    const before = (await messages('fuel.anomaly')).length;
    const start = Date.parse('2025-08-01T06:00:00Z');
    const when = (i: number) => {
      const d = new Date(start + i * 5 * 3_600_000);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${two(d.getUTCDate())}.${two(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ${two(d.getUTCHours())}:00`;
    };
    await run('duzo.csv', Array.from({ length: 101 }, (_, i) => tx(`AN-B${i}`, when(i), 'PB95', '10,00', '1,00')));
    expect((await found('wrongFuel')).filter((n) => n.startsWith('AN-B'))).toHaveLength(101);
    const manager = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
    await eventually(async () => {
      const rows = await t.app.db.selectFrom('notification').select(['payload']).where('event', '=', 'fuelAnomaliesFound').where('userId', '=', manager.id).where('channel', '=', 'inApp').execute();
      return rows.some((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload).found === 101);
    }, { what: 'the one notification of the 101 anomalies' });
    expect((await messages('fuel.anomaly')).length).toBe(before);
  });

  it('consumption: a fill without an odometer imported later, between two stored readings, is counted in their interval', async () => {
    await run('przedzial.csv', [
      tx('AN-K1', '01.07.2025 08:00', 'ON', '40,00', '10,00', '20000'),
      tx('AN-K3', '15.07.2025 08:00', 'ON', '40,00', '10,00', '21000'), // 40 l / 1000 km = 4,00: within the range
    ]);
    expect(await found('consumption')).not.toContain('AN-K3');
    // 60 l more in the same interval: 100 l / 1000 km = 10,00, over 9 — on the stored fill that closes it
    await run('przedzial-pozniej.csv', [tx('AN-K2', '08.07.2025 08:00', 'ON', '60,00', '10,00')]);
    expect(await found('consumption')).toContain('AN-K3');
    const k3 = await t.app.db.selectFrom('fuel_anomaly as a').innerJoin('fuel_transaction as f', 'f.transId', 'a.transId')
      .select(['a.wartosc']).where('f.nrTransakcji', '=', 'AN-K3').where('a.regula', '=', 'consumption').executeTakeFirstOrThrow();
    expect(Number(k3.wartosc)).toBe(10);
  });
});
