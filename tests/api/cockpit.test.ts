/**
 * The cockpit's data (issue 24): costs and kilometres per month, orders per status, cost per km and
 * the approval inbox. Who may call (ACCESS.md): the charts of orders and readings every role, invoices and
 * the inbox ADMIN and MANAGER (USER and ADVISOR 403). Which rows, from
 * ACCESS.md: a MANAGER the rows of their client (invoices, orders, vehicles and their readings of
 * klientSymbol), ADMIN all. Prices (spec §6, issue 12): a MANAGER does not see the prices of an order
 * whose cenaWidoczna is not T, the ADMIN sees every one. The expected answers are computed here from
 * the database with these rules written out, not with the server's scope or rule code.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

const ZONE = 'Europe/Warsaw'; // screens/app.json config.timeZone
const ENDPOINTS = ['costs-per-month', 'orders-per-status', 'km-per-month', 'cost-per-km', 'approval-inbox'] as const;
type Endpoint = (typeof ENDPOINTS)[number];

const round2 = (n: number) => Math.round(n * 100) / 100;
/** 'YYYY-MM' of an instant in the portal's time zone. */
const monthOf = (at: Date) => {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, year: 'numeric', month: '2-digit' }).formatToParts(at).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}`;
};
/** The 12 months up to the current one, oldest first. */
const lastTwelveMonths = () => {
  const [y, m] = monthOf(new Date()).split('-').map(Number);
  return Array.from({ length: 12 }, (_, i) => {
    const index = y * 12 + (m - 1) - (11 - i);
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
};

describe('the cockpit', () => {
  let t: TestApp;
  const tok = {} as Record<DemoAccount, string>;
  const months = lastTwelveMonths();
  const get = (who: DemoAccount, endpoint: Endpoint, query = '') => t.call('GET', `/api/cockpit/${endpoint}${query}`, { token: tok[who] });
  /** The rows of a chart, or of the inbox's largest page (it pages: rows and their total). */
  const rowsOf = async (who: DemoAccount, endpoint: Endpoint) => {
    const inbox = endpoint === 'approval-inbox';
    const res = await get(who, endpoint, inbox ? '?limit=50' : '');
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(inbox ? ['rows', 'total'] : ['rows']);
    return res.json().rows as any[];
  };
  /** ACCESS.md: the manager's client, or every client for the admin. */
  const clientOf: Record<string, string | null> = { manager: 'KL001', manager2: 'KL002', admin: null };

  /** Km per month and per vehicle, computed from the readings of the caller's vehicles. */
  async function expectedKm(klient: string | null) {
    let q = t.app.db.selectFrom('mileage_reading as r').innerJoin('car as c', 'c.pojazdId', 'r.pojazdId')
      .select(['r.id', 'r.pojazdId', 'r.data', 'r.licznik', 'c.rejestr', 'c.markaModel']);
    if (klient) q = q.where('c.klientSymbol', '=', klient);
    const readings = await q.execute();
    const byVehicle = new Map<number, typeof readings>();
    for (const r of readings) byVehicle.set(r.pojazdId, [...(byVehicle.get(r.pojazdId) ?? []), r]);
    const perMonth = new Map<string, number>(months.map((m) => [m, 0]));
    const perVehicle = new Map<number, { km: number; rejestr: string | null; markaModel: string | null }>();
    for (const [pojazdId, list] of byVehicle) {
      list.sort((a, b) => new Date(a.data).getTime() - new Date(b.data).getTime() || a.id - b.id);
      for (let i = 1; i < list.length; i++) {
        const month = monthOf(new Date(list[i].data));
        if (!perMonth.has(month)) continue;
        const km = Math.max(list[i].licznik - list[i - 1].licznik, 0);
        perMonth.set(month, perMonth.get(month)! + km);
        const v = perVehicle.get(pojazdId) ?? { km: 0, rejestr: list[i].rejestr, markaModel: list[i].markaModel };
        v.km += km;
        perVehicle.set(pojazdId, v);
      }
    }
    return { perMonth, perVehicle };
  }

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as DemoAccount[]) tok[who] = await t.signIn(who);
  }, 120_000);
  afterAll(async () => t?.close());

  it('answers the charts of orders and readings to every role, the invoices and the inbox to ADMIN and MANAGER only (ACCESS.md), no session 401', async () => {
    const fleetOnly = new Set<Endpoint>(['costs-per-month', 'approval-inbox']);
    for (const endpoint of ENDPOINTS) {
      for (const who of ['kierowca', 'doradca'] as DemoAccount[]) {
        const res = await get(who, endpoint);
        expect(res.statusCode, `${who} ${endpoint}`).toBe(fleetOnly.has(endpoint) ? 403 : 200);
        if (fleetOnly.has(endpoint)) expect(res.json().code).toBe('FORBIDDEN');
      }
      expect((await t.call('GET', `/api/cockpit/${endpoint}`)).statusCode, endpoint).toBe(401);
      for (const who of ['admin', 'manager', 'manager2'] as DemoAccount[]) expect((await get(who, endpoint)).statusCode, `${who} ${endpoint}`).toBe(200);
    }
  });

  describe('GET /api/cockpit/costs-per-month', () => {
    it('answers the 12 months up to the current one, each with the net and gross of the caller’s invoices issued in it (0 when none)', async () => {
      for (const who of ['manager', 'manager2', 'admin'] as DemoAccount[]) {
        let q = t.app.db.selectFrom('invoice').select(['faktDataWyst', 'ogNetto', 'ogBrutto']);
        if (clientOf[who]) q = q.where('klientSymbol', '=', clientOf[who]);
        const invoices = await q.execute();
        const expected = months.map((month) => {
          const inMonth = invoices.filter((i) => String(i.faktDataWyst).slice(0, 7) === month);
          return { month, netto: round2(inMonth.reduce((s, i) => s + Number(i.ogNetto), 0)), brutto: round2(inMonth.reduce((s, i) => s + Number(i.ogBrutto), 0)) };
        });
        const rows = await rowsOf(who, 'costs-per-month');
        expect(rows.map((r) => r.month)).toEqual(months);
        expect(rows.map((r) => r.partial)).toEqual(months.map((_, i) => i === 11));
        for (const [i, r] of rows.entries()) {
          expect(r.month, who).toBe(expected[i].month);
          expect(r.netto, `${who} ${r.month}`).toBeCloseTo(expected[i].netto, 2);
          expect(r.brutto, `${who} ${r.month}`).toBeCloseTo(expected[i].brutto, 2);
        }
      }
    });

    it('counts a new invoice of a client for that client’s manager only', async () => {
      const before = { manager: await rowsOf('manager', 'costs-per-month'), manager2: await rowsOf('manager2', 'costs-per-month') };
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
      await t.app.db.insertInto('invoice').values({ faktNrCaly: 'FV/TEST/COCKPIT/1', faktDataWyst: today, klientSymbol: 'KL002', dokument: 'Faktura VAT', ogNetto: 1000.1, ogVat: 230.02, ogBrutto: 1230.12 }).execute();
      try {
        const after2 = await rowsOf('manager2', 'costs-per-month');
        expect(after2[11].netto).toBeCloseTo(before.manager2[11].netto + 1000.1, 2);
        expect(after2[11].brutto).toBeCloseTo(before.manager2[11].brutto + 1230.12, 2);
        expect(await rowsOf('manager', 'costs-per-month')).toEqual(before.manager);
      } finally {
        await t.app.db.deleteFrom('invoice').where('faktNrCaly', '=', 'FV/TEST/COCKPIT/1').execute();
      }
    });
  });

  describe('GET /api/cockpit/orders-per-status', () => {
    it('answers every status 0…10 with its Polish name and how many of the caller’s orders are in it', async () => {
      for (const who of ['manager', 'manager2', 'admin'] as DemoAccount[]) {
        let q = t.app.db.selectFrom('service_order').select(['status', sql<number>`count(*)::integer`.as('n')]).groupBy('status');
        if (clientOf[who]) q = q.where('klientSymbol', '=', clientOf[who]);
        const counts = new Map((await q.execute()).map((r) => [r.status, Number(r.n)]));
        const rows = await rowsOf(who, 'orders-per-status');
        expect(rows.map((r) => r.status)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        for (const r of rows) expect(r.count, `${who} status ${r.status}`).toBe(counts.get(r.status) ?? 0);
        expect(rows.reduce((s, r) => s + r.count, 0)).toBeGreaterThan(0);
      }
      const rows = await rowsOf('manager', 'orders-per-status');
      expect(rows[0].label).toBe('Zgłoszono');
      expect(rows[1].label).toBe('Oczekuje na akceptację Fleet Managera');
      expect(rows[10].label).toBe('Do wyjaśnienia');
    });
  });

  describe('a driver\'s and an advisor\'s charts', () => {
    it('count only the driver\'s own vehicle, and the advisor\'s vehicle and station', async () => {
      const own = await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
      const mine = await t.app.db.selectFrom('service_order').select(sql<number>`count(*)::integer`.as('n')).where('pojazdId', '=', own.pojazdId).executeTakeFirstOrThrow();
      const driver = await rowsOf('kierowca', 'orders-per-status');
      expect(driver.reduce((sum, r) => sum + r.count, 0)).toBe(Number(mine.n));
      const station = await t.app.db.selectFrom('app_user').select('stacjaSerw').where('login', '=', 'doradca').executeTakeFirstOrThrow();
      const theirs = await t.app.db.selectFrom('service_order').select(sql<number>`count(*)::integer`.as('n'))
        .where((eb) => eb.or([eb('stacjaSerw', '=', station.stacjaSerw), eb('pojazdId', '=', own.pojazdId)])).executeTakeFirstOrThrow();
      const advisor = await rowsOf('doradca', 'orders-per-status');
      expect(advisor.reduce((sum, r) => sum + r.count, 0)).toBe(Number(theirs.n));
      for (const row of await rowsOf('kierowca', 'cost-per-km')) expect(row.pojazdId).toBe(own.pojazdId);
    });
  });

  describe('GET /api/cockpit/km-per-month', () => {
    it('answers the 12 months with the kilometres the caller’s vehicles drove, counted in the month of the later reading', async () => {
      for (const who of ['manager', 'manager2', 'admin'] as DemoAccount[]) {
        const { perMonth } = await expectedKm(clientOf[who]);
        const rows = await rowsOf(who, 'km-per-month');
        // the current month, not over yet, is marked partial
        expect(rows).toEqual(months.map((month, i) => ({ month, km: perMonth.get(month), partial: i === 11 })));
        expect(rows.some((r) => r.km > 0), who).toBe(true);
      }
    });

    it('counts a new reading of a client’s vehicle for that client’s manager only', async () => {
      const car = await t.app.db.selectFrom('car').select(['pojazdId', 'aktStanLicz']).where('klientSymbol', '=', 'KL002').orderBy('pojazdId').executeTakeFirstOrThrow();
      const before = { manager: await rowsOf('manager', 'km-per-month'), manager2: await rowsOf('manager2', 'km-per-month') };
      const last = await t.app.db.selectFrom('mileage_reading').select(['licznik']).where('pojazdId', '=', car.pojazdId).orderBy('data', 'desc').orderBy('id', 'desc').executeTakeFirstOrThrow();
      const inserted = await t.app.db.insertInto('mileage_reading').values({ pojazdId: car.pojazdId, licznik: last.licznik + 321, data: new Date() }).returning('id').executeTakeFirstOrThrow();
      try {
        const after2 = await rowsOf('manager2', 'km-per-month');
        expect(after2[11].km).toBe(before.manager2[11].km + 321);
        expect(await rowsOf('manager', 'km-per-month')).toEqual(before.manager);
      } finally {
        await t.app.db.deleteFrom('mileage_reading').where('id', '=', inserted.id).execute();
      }
    });
  });

  describe('GET /api/cockpit/cost-per-km', () => {
    /** The ten vehicles with the highest cost per km: the visible net of the orders reported in the 12 months (not cancelled 7 or rejected 8). */
    async function expectedRanking(who: DemoAccount) {
      const klient = clientOf[who];
      const { perVehicle } = await expectedKm(klient);
      let q = t.app.db.selectFrom('service_order as o').innerJoin('order_position as p', 'p.autId', 'o.autId')
        .select(['o.pojazdId', 'o.zgloData', 'o.status', 'o.cenaWidoczna', 'p.ogNetto']);
      if (klient) q = q.where('o.klientSymbol', '=', klient);
      const cost = new Map<number, number>();
      for (const p of await q.execute()) {
        if (!p.zgloData || !months.includes(monthOf(new Date(p.zgloData)))) continue;
        if (p.status === 7 || p.status === 8) continue;
        if (who !== 'admin' && p.cenaWidoczna !== 'T') continue; // prices hidden from a manager
        cost.set(p.pojazdId, (cost.get(p.pojazdId) ?? 0) + Number(p.ogNetto));
      }
      return [...perVehicle.entries()]
        .filter(([id, v]) => v.km >= 1 && round2(cost.get(id) ?? 0) > 0)
        .map(([id, v]) => ({ pojazdId: id, rejestr: v.rejestr, markaModel: v.markaModel, cost: round2(cost.get(id)!), km: v.km, ratio: round2(cost.get(id)!) / v.km }))
        .sort((a, b) => b.ratio - a.ratio)
        .slice(0, 10);
    }

    it('ranks the caller’s ten vehicles with the highest net cost per km driven, leaving out prices the caller may not see', async () => {
      for (const who of ['manager', 'manager2', 'admin'] as DemoAccount[]) {
        const expected = await expectedRanking(who);
        const rows = await rowsOf(who, 'cost-per-km');
        expect(rows.length, who).toBe(expected.length);
        expect(rows.length, who).toBeGreaterThan(0);
        expect(rows.map((r) => r.pojazdId), who).toEqual(expected.map((e) => e.pojazdId));
        for (const [i, r] of rows.entries()) {
          const e = expected[i];
          expect(r, who).toEqual({ pojazdId: e.pojazdId, rejestr: e.rejestr, markaModel: e.markaModel, cost: expect.any(Number), km: e.km, costPerKm: expect.any(Number) });
          expect(r.cost).toBeCloseTo(e.cost, 2);
          expect(r.costPerKm).toBeCloseTo(round2(e.ratio), 2);
          expect(r.km).toBeGreaterThanOrEqual(1);
        }
        expect(rows.map((r) => r.costPerKm)).toEqual([...rows.map((r) => r.costPerKm)].sort((a, b) => b - a));
      }
    });

    it('never ranks another client’s vehicle for a manager', async () => {
      for (const who of ['manager', 'manager2'] as DemoAccount[]) {
        const ids = (await rowsOf(who, 'cost-per-km')).map((r) => r.pojazdId);
        const foreign = await t.app.db.selectFrom('car').select('pojazdId').where('pojazdId', 'in', [0, ...ids]).where('klientSymbol', '<>', clientOf[who]!).execute();
        expect(foreign, who).toEqual([]);
      }
    });
  });

  describe('GET /api/cockpit/approval-inbox', () => {
    let priced: number; // a KL001 order awaiting acceptance whose prices the manager may see
    let hidden: number; // the demo order of WZ67890 awaiting acceptance, prices hidden from the manager (cenaWidoczna N)

    beforeAll(async () => {
      hidden = (await t.app.db.selectFrom('service_order').select('autId').where('rejestr', '=', 'WZ67890').where('status', '=', 1).executeTakeFirstOrThrow()).autId;
      // an order of KL001 with positions, moved to status 1 with its prices shown to the client
      const withPositions = await t.app.db.selectFrom('service_order as o').select('o.autId').where('o.klientSymbol', '=', 'KL001').where('o.status', '<>', 1)
        .where('o.rejestr', 'not in', ['WZ12345', 'WZ67890'])
        .where(({ exists, selectFrom }) => exists(selectFrom('order_position as p').select('p.pozId').whereRef('p.autId', '=', 'o.autId')))
        .orderBy('o.autId').executeTakeFirstOrThrow();
      priced = withPositions.autId;
      await t.app.db.updateTable('service_order').set({ status: 1, cenaWidoczna: 'T', pricingConfirmed: true }).where('autId', '=', priced).execute();
    });

    const net = async (autId: number) => round2((await t.app.db.selectFrom('order_position').select('ogNetto').where('autId', '=', autId).execute()).reduce((s, p) => s + Number(p.ogNetto), 0));

    it('lists the caller’s orders awaiting acceptance, newest first, with their vehicle, type and the moves of the fleet manager', async () => {
      for (const who of ['manager', 'manager2', 'admin'] as DemoAccount[]) {
        let q = t.app.db.selectFrom('service_order').select(['autId']).where('status', '=', 1).orderBy('zgloData', 'desc').orderBy('autId', 'desc').limit(50);
        if (clientOf[who]) q = q.where('klientSymbol', '=', clientOf[who]);
        const expected = (await q.execute()).map((r) => r.autId);
        const rows = await rowsOf(who, 'approval-inbox');
        expect(rows.map((r) => r.autId), who).toEqual(expected);
        expect(rows.length, who).toBeGreaterThan(0);
        for (const r of rows) {
          expect(Object.keys(r).sort()).toEqual(['autId', 'autNr', 'klientNazwa', 'markaModel', 'netTotal', 'recordName', 'rejestr', 'transitions', 'zgloData', 'zgloInterw', 'zgloInterwNazwa']);
          // spec §4: the fleet manager (and the admin) accept, partly accept, reject or send back; the admin may also cancel
          const moves = who === 'admin'
            ? [['accept', 2, 'Akceptuj'], ['acceptPartly', 3, 'Akceptuj częściowo'], ['reject', 8, 'Odrzuć'], ['clarify', 10, 'Do wyjaśnienia'], ['cancel', 7, 'Anuluj zlecenie']]
            : [['accept', 2, 'Akceptuj'], ['acceptPartly', 3, 'Akceptuj częściowo'], ['reject', 8, 'Odrzuć'], ['clarify', 10, 'Do wyjaśnienia']];
          expect(r.transitions).toEqual(moves.map(([id, to, label]) => ({ id, to, label })));
        }
      }
      const rows = await rowsOf('manager', 'approval-inbox');
      const demo = rows.find((r) => r.autId === hidden);
      expect(demo).toMatchObject({ rejestr: 'WZ67890', markaModel: 'Toyota Corolla', zgloInterw: expect.stringMatching(/^[A-Z]+$/), zgloInterwNazwa: expect.any(String), autNr: null, recordName: expect.stringMatching(/^z \d{2}\.\d{2}\.\d{4}$/) });
      expect(new Date(demo.zgloData).getTime()).toBeLessThan(Date.now());
    });

    it('gives the net total where the caller may see the prices, and null where they are hidden from them', async () => {
      const manager = await rowsOf('manager', 'approval-inbox');
      expect(manager.find((r) => r.autId === hidden).netTotal).toBeNull();
      expect(manager.find((r) => r.autId === priced).netTotal).toBeCloseTo(await net(priced), 2);
      const admin = await rowsOf('admin', 'approval-inbox');
      expect(admin.find((r) => r.autId === hidden).netTotal).toBeCloseTo(await net(hidden), 2);
      expect(admin.find((r) => r.autId === hidden).netTotal).toBe(197); // 149 + 60 − 20 % (demo data)
      for (const r of manager) {
        const order = await t.app.db.selectFrom('service_order').select('cenaWidoczna').where('autId', '=', r.autId).executeTakeFirstOrThrow();
        if (order.cenaWidoczna === 'T') expect(r.netTotal, String(r.autId)).toBeCloseTo(await net(r.autId), 2);
        else expect(r.netTotal, String(r.autId)).toBeNull();
      }
    });

    it('pages like the list: a page of 10 by default, the next from an offset, the total of all pages, and each order\'s client', async () => {
      const all = await rowsOf('admin', 'approval-inbox');
      const expectedTotal = Number((await t.app.db.selectFrom('service_order').select(sql<number>`count(*)`.as('n')).where('status', '=', 1).executeTakeFirstOrThrow()).n);
      expect(expectedTotal).toBeGreaterThan(10);
      const first = (await get('admin', 'approval-inbox')).json();
      expect(first.total).toBe(expectedTotal);
      expect(first.rows.map((r: any) => r.autId)).toEqual(all.slice(0, 10).map((r) => r.autId));
      const next = (await get('admin', 'approval-inbox', '?offset=10&limit=3')).json();
      expect(next.rows.map((r: any) => r.autId)).toEqual(all.slice(10, 13).map((r) => r.autId));
      expect(next.total).toBe(expectedTotal);
      // the admin decides for every client: each row names its vehicle's client
      const names = new Map((await t.app.db.selectFrom('service_order as o').innerJoin('client as c', 'c.klient', 'o.klientSymbol')
        .select(['o.autId', 'c.klientNazwa']).where('o.status', '=', 1).execute()).map((r) => [r.autId, r.klientNazwa]));
      for (const r of all) expect(r.klientNazwa, String(r.autId)).toBe(names.get(r.autId));
      expect(new Set(all.map((r) => r.klientNazwa)).size).toBeGreaterThan(1);
      const bad = await get('admin', 'approval-inbox', '?limit=500');
      expect(bad.statusCode).toBe(400);
      expect(bad.json().detail).toMatch(/limit/);
    });

    it('never shows one manager the other client’s orders', async () => {
      const ids = (await rowsOf('manager2', 'approval-inbox')).map((r) => r.autId);
      expect(ids).not.toContain(hidden);
      expect(ids).not.toContain(priced);
      const foreign = await t.app.db.selectFrom('service_order').select('autId').where('autId', 'in', [0, ...ids]).where('klientSymbol', '<>', 'KL002').execute();
      expect(foreign).toEqual([]);
    });
  });
});
