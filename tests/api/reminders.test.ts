/**
 * What is due (issue 24): GET /api/reminders (counts per rule and urgency) and
 * GET /api/reminders/items, on the seeded database plus vehicles of this file's own, with the
 * clock fixed at 10.03.2031 (Warsaw). Expected answers come from the rules as issue 24 states them
 * and from ACCESS.md's row scopes (a manager his client's rows, a driver his own vehicle, an
 * advisor the orders of his station), never from the server's code.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const TODAY = '2031-03-10';
const clock = () => new Date(`${TODAY}T10:00:00Z`);
const day = (offset: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

type Who = 'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca';

interface Item {
  rule: string;
  urgency: string;
  pojazdId: number;
  recordId: number;
  rejestr: string;
  dueDate: string | null;
  daysLeft: number | null;
  kmLeft: number | null;
  projectedKm?: number | null;
  excessKm?: number | null;
  excessCost?: number | null;
  tooFewReadings?: boolean;
  text: string;
  open: { screen: string; id: number; tab?: string };
  action?: { label: string; screen: string };
}

/** Vehicles of this file, on the manager's client KL001 (their plates start with RMD). */
async function addFixture(t: TestApp) {
  const db = t.app.db;
  const car = async (rejestr: string, values: Record<string, unknown>) => {
    const row = await db.insertInto('car').values({ klientSymbol: 'KL001', rejestr, markaOpis: 'Skoda', modelOpis: 'Octavia', ...values } as any)
      .returning('pojazdId').executeTakeFirstOrThrow();
    return row.pojazdId;
  };
  const readings = async (pojazdId: number, list: [number, number][]) => {
    for (const [offset, licznik] of list) {
      await db.insertInto('mileage_reading').values({ pojazdId, licznik, data: `${day(offset)}T12:00:00Z` } as any).execute();
    }
  };
  const contract = async (pojazdId: number, umowaNr: string) => {
    const row = await db.insertInto('contract').values({ umowaNr, pojazdId, klientSymbol: 'KL001', dataOd: day(-600), dataDo: day(100), limitKmOgol: 50_000, oplPrzekmIle: 0.5 } as any)
      .returning('kontraktId').executeTakeFirstOrThrow();
    return row.kontraktId;
  };
  const far = day(400);
  const farDates = { ocDataDo: far, acDataDo: far, nwDataDo: far, asDataDo: far, dataPrzeg: far, otDoDaty: far, kontrDataDo: far, kpalDataDo: far, aktDataLicz: TODAY };
  const ids = {
    dates: await car('RMD0001', { ...farDates, ocDataDo: day(-1), acDataDo: TODAY, nwDataDo: day(14), asDataDo: day(15), dataPrzeg: day(30), otDoDaty: day(31) }),
    thresholds: await car('RMD0002', { ...farDates, ocDataDo: day(20) }),
    stale: await car('RMD0003', { ...farDates, aktDataLicz: day(-95), aktStanLicz: 10_000 }),
    service: await car('RMD0004', { ...farDates, otDoKm: 45_000, aktStanLicz: 44_000 }),
    noReading: await car('RMD0010', { ...farDates, zapasPrzekr: 1000, aktStanLicz: 49_500 }),
    oneReading: await car('RMD0011', { ...farDates, zapasPrzekr: 1000, aktStanLicz: 49_500 }),
    tooClose: await car('RMD0012', { ...farDates, zapasPrzekr: 1000, aktStanLicz: 49_500 }),
    normal: await car('RMD0013', { ...farDates, zapasPrzekr: 1000, aktStanLicz: 44_000 }),
    over: await car('RMD0014', { ...farDates, zapasPrzekr: 1000, aktStanLicz: 52_000 }),
  };
  await readings(ids.service, [[-60, 38_000], [0, 44_000]]);
  await readings(ids.oneReading, [[-40, 49_500]]);
  await readings(ids.tooClose, [[-10, 49_000], [0, 49_500]]);
  await readings(ids.normal, [[-60, 38_000], [0, 44_000]]);
  await readings(ids.over, [[-60, 45_000], [0, 52_000]]);
  const contracts: Record<string, number> = {};
  for (const name of ['noReading', 'oneReading', 'tooClose', 'normal', 'over'] as const) contracts[name] = await contract(ids[name], `RMD/${name}`);
  return { ids, contracts };
}

describe('reminders', () => {
  let t: TestApp;
  let fixture: Awaited<ReturnType<typeof addFixture>>;
  const bearer = {} as Record<Who, string>;

  const summary = async (who: Who) => {
    const res = await t.call('GET', '/api/reminders', { token: bearer[who] });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { today: string; rules: { id: string; counts: Record<string, number>; total: number; worst: string | null; table?: { route: string; filter: object } }[] };
  };
  const items = async (who: Who, query = '') => {
    const res = await t.call('GET', `/api/reminders/items?limit=100${query}`, { token: bearer[who] });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { total: number; items: Item[] };
  };
  /** Every item the caller is shown, page after page. */
  const everything = async (who: Who) => {
    const all: Item[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await items(who, `&offset=${offset}`);
      all.push(...page.items);
      if (all.length >= page.total || page.items.length === 0) return all;
    }
  };
  const ofVehicle = async (who: Who, pojazdId: number) => (await items(who, `&pojazdId=${pojazdId}`)).items;
  const byRule = (list: Item[]) => Object.fromEntries(list.map((i) => [i.rule, i]));

  beforeAll(async () => {
    t = await startTestApp({ clock });
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) bearer[who] = await t.signIn(who);
    fixture = await addFixture(t);
  });
  afterAll(async () => t?.close());

  it('places each date at its urgency: yesterday past due, today and the 14th day urgent, the 15th and 30th soon, the 31st not due', async () => {
    const due = byRule(await ofVehicle('manager', fixture.ids.dates));
    expect(due.insuranceOc).toMatchObject({ urgency: 'pastDue', dueDate: day(-1), daysLeft: -1, rejestr: 'RMD0001', text: `Polisa OC kończy się ${day(-1).split('-').reverse().join('.')}` });
    expect(due.insuranceAc).toMatchObject({ urgency: 'urgent', daysLeft: 0 });
    expect(due.insuranceNw).toMatchObject({ urgency: 'urgent', daysLeft: 14 });
    expect(due.insuranceAs).toMatchObject({ urgency: 'soon', daysLeft: 15 });
    expect(due.inspection).toMatchObject({ urgency: 'soon', daysLeft: 30 });
    expect(due.serviceDate).toBeUndefined();
    expect(due.insuranceOc.open).toEqual({ screen: 'vehicle-details', id: fixture.ids.dates, tab: 'insurance' });
  });

  it('sees a write at the next read: a policy renewed leaves the counts and the list, and comes back when moved again', async () => {
    const total = async (rule: string) => (await summary('manager')).rules.find((r) => r.id === rule)!.total;
    const vehicle = fixture.ids.dates;
    const { ocDataDo } = await t.app.db.selectFrom('car').select('ocDataDo').where('pojazdId', '=', vehicle).executeTakeFirstOrThrow();
    const before = await total('insuranceOc');
    await t.app.db.updateTable('car').set({ ocDataDo: day(400) }).where('pojazdId', '=', vehicle).execute();
    expect(await total('insuranceOc')).toBe(before - 1);
    expect(byRule(await ofVehicle('manager', vehicle)).insuranceOc).toBeUndefined();
    await t.app.db.updateTable('car').set({ ocDataDo }).where('pojazdId', '=', vehicle).execute();
    expect(await total('insuranceOc')).toBe(before);
    expect(byRule(await ofVehicle('manager', vehicle)).insuranceOc).toMatchObject({ urgency: 'pastDue' });
  });

  it('shows the colour fields of the vehicle as its reminders rate the dates', async () => {
    const res = await t.call('GET', `/api/car/${fixture.ids.dates}`, { token: bearer.manager });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ocKolor: 'red', acKolor: 'red', nwKolor: 'red', asKolor: 'yellow' });
    const calm = await t.call('GET', `/api/car/${fixture.ids.stale}`, { token: bearer.manager });
    expect(calm.json()).toMatchObject({ ocKolor: 'green', acKolor: 'green' });
  });

  it('asks for the odometer when the last reading is older than 90 days, with the button that opens it', async () => {
    const due = byRule(await ofVehicle('manager', fixture.ids.stale));
    expect(due.staleReading).toMatchObject({ urgency: 'pastDue', text: 'Podaj stan licznika — ostatni odczyt 95 dni temu' });
    expect(due.staleReading.action).toEqual({ label: 'Podaj stan licznika', screen: 'counter', mode: 'create' });
  });

  it('projects the day a service by distance comes due from the daily average of the readings', async () => {
    const due = byRule(await ofVehicle('manager', fixture.ids.service));
    // 1 000 km left at 100 km a day: in 10 days
    expect(due.serviceDistance).toMatchObject({ urgency: 'soon', kmLeft: 1000, dueDate: day(10), daysLeft: 10, tooFewReadings: false });
    expect(due.serviceDistance.text).toBe(`Obsługa techniczna przy 45\u00a0000 km, pozostało 1000 km (prognoza: ${day(10).split('-').reverse().join('.')})`);
  });

  it('projects the mileage at the contract end against its limit and margin, and prices the excess', async () => {
    const { ids, contracts } = fixture;
    const contractItem = async (pojazdId: number) => byRule(await ofVehicle('manager', pojazdId)).contractMileage;
    // 44 000 km now at 100 km a day, 100 days to the end: 54 000 against 50 000 + 1 000 margin
    expect(await contractItem(ids.normal)).toMatchObject({
      urgency: 'urgent', recordId: contracts.normal, projectedKm: 54_000, kmLeft: -3000, excessKm: 3000, excessCost: 1500, tooFewReadings: false,
      open: { screen: 'vehicle-details', id: ids.normal, tab: 'contract' },
    });
    // already above limit + margin
    expect(await contractItem(ids.over)).toMatchObject({ urgency: 'pastDue', tooFewReadings: false });
    // no reading, one reading, two only 10 days apart: no projection, said so; still listed, by the current reading
    for (const id of [ids.noReading, ids.oneReading, ids.tooClose]) {
      const item = await contractItem(id);
      expect(item, String(id)).toMatchObject({ urgency: 'soon', kmLeft: 1500, projectedKm: null, tooFewReadings: true });
      expect(item.text).toContain('za mało odczytów licznika');
    }
    expect(contracts.normal).toBeGreaterThan(0);
  });

  it('lists the most urgent first, then by the day they come due', async () => {
    const list = await everything('manager');
    const rank = { pastDue: 0, urgent: 1, soon: 2 } as Record<string, number>;
    for (let i = 1; i < list.length; i++) {
      const [a, b] = [list[i - 1], list[i]];
      expect(rank[a.urgency] <= rank[b.urgency], `${a.rule} before ${b.rule}`).toBe(true);
      if (a.urgency === b.urgency && a.dueDate && b.dueDate) expect(a.dueDate <= b.dueDate).toBe(true);
    }
  });

  it('counts for a manager only the rows of his client, and the counts match the items', async () => {
    const expected = await t.app.db.selectFrom('car').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('klientSymbol', '=', 'KL001').where('ocDataDo', '<=', day(30)).executeTakeFirstOrThrow();
    const rules = (await summary('manager')).rules;
    const oc = rules.find((r) => r.id === 'insuranceOc')!;
    expect(oc.total).toBe(Number(expected.n));
    expect(oc.worst).toBe('pastDue');
    const list = await everything('manager');
    for (const rule of rules) expect(list.filter((i) => i.rule === rule.id).length, rule.id).toBe(rule.total);
  });

  it('never shows manager2 a vehicle of another client', async () => {
    const own = new Set((await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', 'KL001').execute()).map((r) => r.pojazdId));
    const list = await everything('manager2');
    expect(list.length).toBeGreaterThan(0);
    expect(list.filter((i) => own.has(i.pojazdId))).toEqual([]);
    expect((await items('manager2', `&pojazdId=${fixture.ids.dates}`)).total).toBe(0);
  });

  it('shows a driver only his own vehicle, and no rule of orders or damages', async () => {
    const own = await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const list = await everything('kierowca');
    expect(list.every((i) => i.pojazdId === own.pojazdId)).toBe(true);
    const rules = (await summary('kierowca')).rules.map((r) => r.id);
    expect(rules).toContain('staleReading');
    expect(rules).not.toContain('ordersAwaitingAcceptance');
    expect(rules).not.toContain('damagesOpen');
  });

  it('shows an advisor the orders of his station and his vehicle, not the acceptance of managers', async () => {
    const user = await t.app.db.selectFrom('app_user').select('stacjaSerw').where('login', '=', 'doradca').executeTakeFirstOrThrow();
    const vehicle = await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const list = await everything('doradca');
    const orders = list.filter((i) => i.open.screen === 'order-details');
    for (const item of orders) {
      const order = await t.app.db.selectFrom('service_order').select(['stacjaSerw', 'pojazdId']).where('autId', '=', item.recordId).executeTakeFirstOrThrow();
      expect(order.stacjaSerw === user.stacjaSerw || order.pojazdId === vehicle.pojazdId, String(item.recordId)).toBe(true);
    }
    const rules = (await summary('doradca')).rules.map((r) => r.id);
    expect(rules).toContain('estimatesUnconfirmed');
    expect(rules).not.toContain('ordersAwaitingAcceptance');
  });

  it('gives the administrator every client, and a tile the table and filter it opens', async () => {
    const list = await everything('admin');
    const clients = new Set<string>();
    for (const i of list.slice(0, 400)) {
      const car = await t.app.db.selectFrom('car').select('klientSymbol').where('pojazdId', '=', i.pojazdId).executeTakeFirst();
      if (car) clients.add(car.klientSymbol);
    }
    expect(clients.size).toBeGreaterThan(1);
    const awaiting = (await summary('admin')).rules.find((r) => r.id === 'ordersAwaitingAcceptance')!;
    expect(awaiting.table).toEqual({ route: '/app/order', filter: { status: { filterType: 'set', values: [1] } } });
  });

  it('refuses an unknown rule, an unknown urgency and a page beyond 100 with 400 naming the field; a guest with 401', async () => {
    const rule = await t.call('GET', '/api/reminders/items?rule=nieznana', { token: bearer.manager });
    expect(rule.statusCode).toBe(400);
    expect(rule.json().errors[0]).toEqual({ field: 'rule', message: 'Nieznana reguła przypomnień' });
    // a rule the role is not shown is as unknown as one that does not exist
    expect((await t.call('GET', '/api/reminders/items?rule=ordersAwaitingAcceptance', { token: bearer.kierowca })).statusCode).toBe(400);
    const urgency = await t.call('GET', '/api/reminders/items?urgency=wczoraj', { token: bearer.manager });
    expect(urgency.statusCode).toBe(400);
    expect((await t.call('GET', '/api/reminders/items?limit=101', { token: bearer.manager })).statusCode).toBe(400);
    expect((await t.call('GET', '/api/reminders')).statusCode).toBe(401);
  });
});

describe('reminders of a variant', () => {
  let root: string;
  let t: TestApp;
  let fixture: Awaited<ReturnType<typeof addFixture>>;
  let token: string;
  const write = (file: string, value: unknown) => {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(value, null, 2));
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'portal-reminders-'));
    for (const sub of ['screens', 'schemas', 'locales', 'client-variants', 'package.json', 'assets']) {
      if (existsSync(join(ROOT, sub))) cpSync(join(ROOT, sub), join(root, sub), { recursive: true });
    }
    const v = join(root, 'client-variants', 'throwaway');
    write(join(v, 'variant.json'), { schemaVersion: 1, name: 'Throwaway' });
    // a variant's thresholds, and an analyst's rule of its own on another date: JSON alone
    write(join(v, 'screens', 'reminders.json'), {
      rules: [
        { id: 'insuranceOc', thresholds: { urgent: 30, soon: 60 } },
        {
          id: 'fuelCardRecord', resource: 'fuel-card', due: { kind: 'date', field: 'dataDo' }, thresholds: { urgent: 7, soon: 30 },
          label: 'reminders:rules.fuelCardRecord.label', message: 'reminders:rules.fuelCardRecord.message',
          open: { screen: 'vehicle-details', idField: 'pojazdId', tab: 'fuel-card' },
        },
      ],
    });
    write(join(v, 'locales', 'pl', 'reminders.json'), { rules: { fuelCardRecord: { label: 'Karta z rejestru kart', message: 'Karta {{recordLabel}} ważna do {{date}}' } } });
    t = await startTestApp({ root, variant: 'throwaway', clock });
    token = await t.signIn('manager');
    fixture = await addFixture(t);
    await t.app.db.insertInto('fuel_card').values({ klientSymbol: 'KL001', pojazdId: fixture.ids.dates, nrKarty: 'RMD-CARD-1', dataDo: day(5) } as any).execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const ofVehicle = async (pojazdId: number) => {
    const res = await t.call('GET', `/api/reminders/items?pojazdId=${pojazdId}`, { token });
    expect(res.statusCode, res.body).toBe(200);
    return Object.fromEntries((res.json().items as Item[]).map((i) => [i.rule, i]));
  };

  it('uses the variant\'s thresholds: a policy ending in 20 days is urgent there, and its colour says so', async () => {
    expect((await ofVehicle(fixture.ids.thresholds)).insuranceOc).toMatchObject({ urgency: 'urgent', daysLeft: 20 });
    const car = await t.call('GET', `/api/car/${fixture.ids.thresholds}`, { token });
    expect(car.json().ocKolor).toBe('red');
  });

  it('lists a rule an analyst added in JSON, with its own text', async () => {
    const item = (await ofVehicle(fixture.ids.dates)).fuelCardRecord;
    expect(item).toMatchObject({ urgency: 'urgent', daysLeft: 5, label: 'Karta z rejestru kart', open: { screen: 'vehicle-details', id: fixture.ids.dates, tab: 'fuel-card' } });
    expect(item.text).toMatch(/^Karta .* ważna do /);
    const rules = (await t.call('GET', '/api/reminders', { token })).json().rules.map((r: { id: string }) => r.id);
    expect(rules).toContain('fuelCardRecord');
  });
});

describe('reminders in the default configuration', () => {
  it('rates a policy ending in 20 days as soon (the variant above moved it)', async () => {
    const t = await startTestApp({ clock });
    try {
      const fixture = await addFixture(t);
      const token = await t.signIn('manager');
      const res = await t.call('GET', `/api/reminders/items?pojazdId=${fixture.ids.thresholds}`, { token });
      expect(res.json().items.find((i: Item) => i.rule === 'insuranceOc')).toMatchObject({ urgency: 'soon', daysLeft: 20 });
    } finally {
      await t.close();
    }
  }, 60_000);
});
