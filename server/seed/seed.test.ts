import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/password.ts';
import { openTestDatabase, testBackends, type TestDatabase } from './testing.ts';
import { DEMO_ACCOUNTS, seedDatabase, type SeedResult } from './seed.ts';
import { addDays } from './sql-util.ts';

// One anchor date for every backend, so their data can be compared row for row.
const TODAY = new Date().toISOString().slice(0, 10);
/** Per backend: a digest of the generated data (the same seed must give the same rows). */
const digests = new Map<string, string>();

describe.each(testBackends)('seed on %s', (kind) => {
  let t: TestDatabase;
  let result: SeedResult;
  beforeAll(async () => {
    t = await openTestDatabase({ kind });
    result = await seedDatabase(t.db, { today: TODAY });
  }, 240_000); // under CI's load the seed of one backend has taken a minute
  afterAll(async () => { await t?.close(); });

  const user = (login: string) => t.db.selectFrom('app_user').selectAll().where('login', '=', login).executeTakeFirstOrThrow();

  it('creates the default size: 120 vehicles over 3 clients and the variants’ own, 300 orders with damages, 72 invoices', () => {
    expect(result.skipped).toBe(false);
    expect(result.clients).toEqual(['KL001', 'KL002', 'KL003']);
    // the variants' own clients (client-variants/*/demo.json) count in the totals, not beside them
    expect(result.variantClients).toEqual(['KL006', 'KL004', 'KL005']);
    expect(result.counts).toMatchObject({ car: 120, service_order: 300, invoice: 72, client: 6 });
    expect(result.counts!.damage).toBeGreaterThanOrEqual(25);
    for (const table of ['vehicle_assignment', 'fuel_card', 'contract', 'contract_position', 'tire', 'order_position', 'note', 'login_history']) {
      expect(result.counts![table], table).toBeGreaterThan(0);
    }
  });

  it('creates the demo accounts with verifiable passwords; the everyday ones have signed in before, the "nowy" ones not', async () => {
    const firstSignIn = new Set(['nowy.kierowca', 'nowy.manager']);
    for (const account of Object.values(DEMO_ACCOUNTS)) {
      const u = await user(account.login);
      expect(u.rola, account.login).toBe(account.rola);
      expect(await verifyPassword(account.password, u.passwordHash), account.login).toBe(true);
      expect(await verifyPassword('wrong' + account.password, u.passwordHash)).toBe(false);
      expect(u.firstLogin, account.login).toBe(firstSignIn.has(account.login));
      expect(u.dataDo).toBe(addDays(TODAY, 365));
      expect(u.pwdDo! > addDays(TODAY, 3650)).toBe(true);
    }
  });

  it('stores the terms of the Customer Portal and the privacy policy as real, current PDFs, accepted by all but nowy.kierowca', async () => {
    const templates = await t.db.selectFrom('terms_template').select(['id', 'name', 'grupa', 'version', 'current', 'pdf']).orderBy('id').execute();
    expect(templates.map((d) => [d.name, d.version, d.current])).toEqual([['Regulamin Portalu Klienta', 1, true], ['Polityka prywatności', 1, true]]);
    for (const d of templates) {
      const pdf = Buffer.from(d.pdf as Uint8Array);
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.length).toBeGreaterThan(5_000); // a real document with an embedded font, not a placeholder
    }
    const accepted = await t.db.selectFrom('terms_acceptance as a').innerJoin('app_user as u', 'u.id', 'a.userId')
      .select(['u.login']).select(sql<number>`count(*)::integer`.as('n')).groupBy('u.login').execute();
    const byLogin = Object.fromEntries(accepted.map((r) => [r.login, r.n]));
    for (const account of Object.values(DEMO_ACCOUNTS)) expect(byLogin[account.login] ?? 0, account.login).toBe(account.login === 'nowy.kierowca' ? 0 : 2);
  });

  it('ties the demo accounts to their client, station and vehicle', async () => {
    expect((await user('manager')).klientSymbol).toBe('KL001');
    expect((await user('manager2')).klientSymbol).toBe('KL002');
    expect((await user('doradca')).stacjaSerw).toBe('SS01');
  });

  it('gives WZ12345 a VIN ending in 000123, the manager\'s client, full insurance and kierowca as its driver', async () => {
    const car = await t.db.selectFrom('v_car').selectAll().where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const kierowca = await user('kierowca');
    expect(car.nrPodw).toHaveLength(17);
    expect(car.nrPodw!.endsWith('000123')).toBe(true);
    expect(car.pojazdId).toBe(result.pojazdId!.WZ12345);
    expect(car.klientSymbol).toBe((await user('manager')).klientSymbol);
    expect(car.pracId).toBe(kierowca.pracId);
    expect([car.imie, car.nazwisko]).toEqual([kierowca.firstName, kierowca.lastName]);
    for (const p of ['oc', 'ac', 'nw', 'as']) {
      for (const f of ['Polisa', 'DataOd', 'DataDo', 'Firma', 'Kolor']) expect((car as Record<string, unknown>)[p + f], p + f).toBeTruthy();
    }
    // Exactly one vehicle answers to plate + last 6 VIN characters (advisor login).
    const { rows } = await sql`select 1 from car where rejestr = 'WZ12345' and right("nrPodw", 6) = '000123'`.execute(t.db);
    expect(rows).toHaveLength(1);
  });

  it('gives kierowca.licznik the vehicle WA20016, whose last reading is over 90 days old (the journey of "Podaj stan licznika")', async () => {
    const row = await t.db.selectFrom('app_user as u').innerJoin('car as c', 'c.pracId', 'u.pracId')
      .select(['c.rejestr', sql<number>`${TODAY}::date - c."aktDataLicz"`.as('age')]).where('u.login', '=', 'kierowca.licznik').executeTakeFirstOrThrow();
    expect(row.rejestr).toBe('WA20016');
    expect(Number(row.age)).toBeGreaterThan(90);
  });

  it('has vehicles with every insurance field empty', async () => {
    const fields = ['oc', 'ac', 'nw', 'as'].flatMap((p) => ['Polisa', 'DataOd', 'DataDo', 'Firma', 'Kolor'].map((f) => `"${p}${f}" is null`));
    const { rows } = await sql.raw<{ rejestr: string }>(`select rejestr from car where ${fields.join(' and ')} order by "pojazdId"`).execute(t.db);
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0].rejestr).toBe('WZ67890');
  });

  it('gives at least two clients vehicles, so isolation between managers can be tested', async () => {
    const rows = await t.db.selectFrom('car').select(['klientSymbol', sql<number>`count(*)`.as('n')]).groupBy('klientSymbol').orderBy('klientSymbol').execute();
    expect(rows.filter((r) => r.n > 0).length).toBeGreaterThanOrEqual(2);
    expect(rows.find((r) => r.klientSymbol === 'KL002')!.n).toBeGreaterThan(0);
  });

  it('has orders of the advisor\'s station for WZ12345 and for other vehicles', async () => {
    const rows = await t.db.selectFrom('v_order').select(['rejestr', 'statusZnaczenie', 'czySzkoda', 'sprawaId'])
      .where('stacjaSerw', '=', 'SS01').execute();
    expect(rows.some((r) => r.rejestr === 'WZ12345')).toBe(true);
    expect(rows.some((r) => r.rejestr !== 'WZ12345')).toBe(true);
    expect(rows.every((r) => r.statusZnaczenie)).toBe(true);
  });

  it('numbers every damage case in one format, SZK/<year>/<seven digits>', async () => {
    const rows = await t.db.selectFrom('damage').select('nrSprawy').execute();
    expect(rows.length).toBeGreaterThan(1);
    for (const { nrSprawy } of rows) expect(nrSprawy).toMatch(/^SZK\/\d{4}\/\d{7}$/);
  });

  it('pairs every damage with a czySzkoda order row', async () => {
    const { rows } = await sql<{ orders: number; damages: number; paired: number }>`
      select (select count(*) from service_order where "czySzkoda") as orders,
             (select count(*) from damage) as damages,
             (select count(*) from damage d join service_order o on o."autId" = d."zrodloId" and o."czySzkoda") as paired`.execute(t.db);
    expect(rows[0].orders).toBe(rows[0].damages);
    expect(rows[0].paired).toBe(rows[0].damages);
  });

  it('has the order statuses 0…10 in Polish and the intervention types of every order type', async () => {
    const statuses = await t.db.selectFrom('order_status').selectAll().orderBy('code').execute();
    expect(statuses.map((s) => s.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(statuses[0].statusZnaczenie).toBe('Zgłoszono');
    expect(statuses[4].statusZnaczenie).toBe('Autoryzowano');
    expect(statuses[10].statusZnaczenie).toBe('Do wyjaśnienia');
    const types = await t.db.selectFrom('intervention_type').select('autTyp').orderBy('sort').execute();
    expect(types.map((x) => x.autTyp)).toEqual([0, 1, 2, 3, 4, 6]);
  });

  it('gives every client invoices with 0, 1 and 2 files, so each manager sees every kind of button', async () => {
    const rows = await t.db.selectFrom('v_invoice').select(['klient', 'iloscZal']).distinct().orderBy('klient').orderBy('iloscZal').execute();
    for (const klient of result.clients) expect(rows.filter((r) => r.klient === klient).map((r) => r.iloscZal), klient).toEqual([0, 1, 2]);
  });

  it('stores each invoice file as a real PDF about its own invoice: the invoice (F) for 1 and 2 files, the attachment (A) for 2', async () => {
    const files = await t.db.selectFrom('invoice_file as f').innerJoin('v_invoice as i', 'i.faktId', 'f.faktId')
      .select(['f.kind', 'f.mime', 'f.filename', 'f.content', 'i.faktNrCaly', 'i.dokument', 'i.iloscZal']).execute();
    expect(files.length).toBe(72);
    for (const f of files) {
      expect(f.kind === 'F' || f.iloscZal === 2, f.faktNrCaly ?? undefined).toBe(true);
      expect(f.mime).toBe('application/pdf');
      expect(f.content.subarray(0, 5).toString()).toBe('%PDF-');
      expect(f.content.length).toBeGreaterThan(5_000); // an embedded font, not a placeholder
      const nr = f.faktNrCaly!.replaceAll('/', '_');
      const title = (await PDFDocument.load(f.content, { updateMetadata: false })).getTitle();
      if (f.kind === 'F') {
        expect(f.filename).toBe(`Faktura ${nr}.pdf`);
        expect(title).toBe(`${f.dokument} nr ${f.faktNrCaly}`);
      } else {
        expect(f.filename).toBe(`Załącznik do faktury ${nr}.pdf`);
        expect(title).toBe(`Załącznik do faktury nr ${f.faktNrCaly}`);
      }
    }
  });

  it('adds each variant’s own client from its demo.json: the organisation to its last level, vehicles with their drivers, accounts ready to sign in, orders', async () => {
    const dealer = await t.db.selectFrom('car').select(['rejestr', 'czyWydany']).where('klientSymbol', '=', 'KL004').orderBy('rejestr').execute();
    expect(dealer.map((c) => [c.rejestr, c.czyWydany])).toEqual([['LU1190E', false], ['LU4521A', true], ['LU7803C', true]]);
    const driver = await user('dealer.kierowca');
    expect(driver).toMatchObject({ rola: 'USER', klientSymbol: 'KL004', firstLogin: false });
    expect(await verifyPassword('Haslo123!', driver.passwordHash)).toBe(true);
    const driven = await t.db.selectFrom('v_assignment').select(['rejestr', 'stru1', 'stru2', 'stru3', 'stru4']).where('pracId', '=', driver.pracId!).execute();
    expect(driven).toEqual([{ rejestr: 'LU4521A', stru1: 'Region Wschód', stru2: 'Salon Lublin', stru3: 'Dział Sprzedaży Flotowej', stru4: null }]);
    const handovers = await t.db.selectFrom('vehicle_assignment').select('klientSymbol').where('klientSymbol', 'in', ['KL004', 'KL005', 'KL006']).execute();
    expect(handovers).toHaveLength(5);
    const manager = await user('t.manager');
    const accepted = await t.db.selectFrom('terms_acceptance').select('templateId').where('userId', '=', manager.id).execute();
    expect(accepted).toHaveLength(2); // no terms dialog in the way of someone looking at the variant
    // the orders of demo.json (besides the client's showcase of the reminders, reminder-showcase.ts)
    const orders = await t.db.selectFrom('v_order').select(['rejestr', 'status', 'zlecZakres', 'klientSymbol', 'zgloZakres']).where('klientSymbol', '=', 'KL005')
      .where('zgloZakres', 'in', ['Stuki w zawieszeniu przednim', 'Wymiana opon na zimowe']).orderBy('rejestr').execute();
    expect(orders).toEqual([
      { rejestr: 'GD3310K', status: 2, zlecZakres: 'Wymiana łączników stabilizatora przód', klientSymbol: 'KL005', zgloZakres: 'Stuki w zawieszeniu przednim' },
      { rejestr: 'GD5527M', status: 0, zlecZakres: null, klientSymbol: 'KL005', zgloZakres: 'Wymiana opon na zimowe' },
    ]);
    // the client's first order by date on GD3310K is still the one of demo.json (the variants' browser journeys open it)
    const newest = await t.db.selectFrom('v_order').select('zgloZakres').where('rejestr', '=', 'GD3310K').orderBy('zgloData', 'desc').executeTakeFirstOrThrow();
    expect(newest.zgloZakres).toBe('Stuki w zawieszeniu przednim');
  });

  describe('the reminders’ demo (screens/reminders.json): every rule has items in the fleet, as a believable fleet has them', () => {
    const clients = () => [...result.clients, ...result.variantClients];
    const inDays = (n: number) => addDays(TODAY, n);
    const carsWhere = async (klient: string | null, where: string) => Number((await sql.raw<{ n: number }>(
      `select count(*)::integer as n from car where ${klient ? `"klientSymbol" = '${klient}' and ` : ''}(${where})`).execute(t.db)).rows[0].n);
    /** Per vehicle rule: its items past due, and all its items (within the rule's "soon"). */
    const rules: Record<string, { late: string; due: string }> = {
      insuranceOc: { late: `"ocDataDo" < '${TODAY}'`, due: `"ocDataDo" < '${inDays(30)}'` },
      insuranceAc: { late: `"acDataDo" < '${TODAY}'`, due: `"acDataDo" < '${inDays(30)}'` },
      insuranceNw: { late: `"nwDataDo" < '${TODAY}'`, due: `"nwDataDo" < '${inDays(30)}'` },
      insuranceAs: { late: `"asDataDo" < '${TODAY}'`, due: `"asDataDo" < '${inDays(30)}'` },
      inspection: { late: `"dataPrzeg" < '${TODAY}'`, due: `"dataPrzeg" < '${inDays(30)}'` },
      serviceDate: { late: `"otDoDaty" < '${TODAY}'`, due: `"otDoDaty" < '${inDays(30)}'` },
      serviceDistance: { late: `"otDoKm" < "aktStanLicz"`, due: `"otDoKm" - "aktStanLicz" <= 2000` },
      contractEnd: { late: `"kontrDataDo" < '${TODAY}'`, due: `"kontrDataDo" < '${inDays(60)}'` },
      fuelCard: { late: `"kpalDataDo" < '${TODAY}'`, due: `"kpalDataDo" < '${inDays(30)}'` },
      liquidationDate: { late: `"planLikData" < '${TODAY}'`, due: `"planLikData" < '${inDays(30)}'` },
      liquidationDistance: { late: `"planLikLicznik" < "aktStanLicz"`, due: `"planLikLicznik" - "aktStanLicz" <= 3000` },
      staleReading: { late: `"aktDataLicz" < '${inDays(-90)}'`, due: `"aktDataLicz" < '${inDays(-76)}'` },
    };

    it('has items of every vehicle rule somewhere in the fleet, and each of past due, urgent and soon among them', async () => {
      for (const [rule, { due }] of Object.entries(rules)) expect(await carsWhere(null, due), rule).toBeGreaterThan(0);
      // the policies: some past due, some within two weeks, some within the month, over the clients together
      expect(await carsWhere(null, `"ocDataDo" < '${TODAY}' or "acDataDo" < '${TODAY}' or "nwDataDo" < '${TODAY}' or "asDataDo" < '${TODAY}'`)).toBeGreaterThan(0);
      expect(await carsWhere(null, `"ocDataDo" between '${TODAY}' and '${inDays(14)}' or "acDataDo" between '${TODAY}' and '${inDays(14)}'`)).toBeGreaterThan(0);
      expect(await carsWhere(null, `"ocDataDo" between '${inDays(15)}' and '${inDays(30)}' or "nwDataDo" between '${inDays(15)}' and '${inDays(30)}'`)).toBeGreaterThan(0);
      // the stored colour goes with the date
      expect(await carsWhere(null, `"ocDataDo" < '${TODAY}' and "ocKolor" <> 'red'`)).toBe(0);
      // a service due by km: close to the vehicle's reading, not a stray number
      expect(await carsWhere(null, `"otDoKm" - "aktStanLicz" between 1 and 2000`)).toBeGreaterThan(0);
    });

    it('gives each client a fleet that is mostly fine: several rules due soon, at most a few late, most vehicles with nothing past due', async () => {
      for (const klient of clients()) {
        const cars = await carsWhere(klient, 'true');
        const lateRules = [];
        for (const [rule, { late }] of Object.entries(rules)) if (await carsWhere(klient, late)) lateRules.push(rule);
        expect(lateRules.length, `${klient} rules past due: ${lateRules}`).toBeLessThanOrEqual(3);
        const dueRules = [];
        for (const [rule, { due }] of Object.entries(rules)) if (await carsWhere(klient, due)) dueRules.push(rule);
        expect(dueRules.length - lateRules.length, `${klient} rules due, not late`).toBeGreaterThanOrEqual(3);
        const anyLate = Object.values(rules).map((r) => `(${r.late})`).join(' or ');
        expect(await carsWhere(klient, anyLate), `${klient} vehicles with something past due`).toBeLessThanOrEqual(Math.max(2, Math.ceil(cars * 0.1)));
      }
    });

    it('has a current contract whose readings project the vehicle over its km limit by the contract’s end, and most contracts within it', async () => {
      const { rows } = await sql<{ over: number; all: number }>`
        select count(*) filter (where r.hi + (r.hi - r.lo) / (extract(epoch from r.last - r.first) / 86400) * (k."dataDo" - r.last::date)
                                      > k."limitKmOgol" + coalesce(c."zapasPrzekr", 0))::integer as over,
               count(*)::integer as all
        from contract k
        join car c on c."pojazdId" = k."pojazdId"
        join (select "pojazdId", min("data") as first, max("data") as last, min("licznik") as lo, max("licznik") as hi
              from mileage_reading group by 1) r on r."pojazdId" = k."pojazdId"
        where k."dataDo" > current_date and k."limitKmOgol" is not null and k."oplPrzekmIle" is not null
          and r.last - r.first > interval '30 days'`.execute(t.db);
      expect(rows[0].over).toBeGreaterThan(0);
      expect(rows[0].over).toBeLessThan(rows[0].all * 0.1);
    });

    it('has orders awaiting acceptance with positions (prices shown and hidden), orders to clarify, unconfirmed estimates and open damages, mostly recent', async () => {
      for (const klient of clients()) {
        const count = async (where: string) => Number((await sql.raw<{ n: number }>(
          `select count(*)::integer as n from service_order o where o."klientSymbol" = '${klient}' and (${where})`).execute(t.db)).rows[0].n);
        const positions = `exists (select 1 from order_position p where p."autId" = o."autId")`;
        expect(await count(`o.status = 1 and o."cenaWidoczna" = 'T' and ${positions}`), `${klient} 1/T`).toBeGreaterThan(0);
        expect(await count(`o.status = 1 and o."cenaWidoczna" = 'N' and ${positions}`), `${klient} 1/N`).toBeGreaterThan(0);
        expect(await count(`o.status = 10`), `${klient} 10`).toBeGreaterThan(0);
        expect(await count(`o.status = 0 and not o."pricingConfirmed"`), `${klient} 0 unconfirmed`).toBeGreaterThan(0);
        // an estimate, a decision or a clarification waits days, not months: a few are late, most are not
        const open = await count(`o.status in (0, 1, 10)`);
        expect(await count(`o.status in (0, 1, 10) and o."zgloData" < '${inDays(-7)}'`), `${klient} open orders older than a week`).toBeLessThanOrEqual(Math.max(2, Math.floor(open / 3)));
        const damages = await t.db.selectFrom('damage').select(['sprawaId', 'dataSzkod']).where('klientSymbol', '=', klient)
          .where('etapZnacz', 'not in', ['Zakończona', 'Zamknięta']).execute();
        expect(damages.length, `${klient} open damages`).toBeGreaterThan(0);
      }
      // no damage stays open for years: the oldest open one is a few weeks old
      const oldestOpen = await t.db.selectFrom('damage').select(sql<string>`min("dataSzkod")::date::text`.as('d'))
        .where('etapZnacz', 'not in', ['Zakończona', 'Zamknięta']).executeTakeFirstOrThrow();
      expect(oldestOpen.d >= inDays(-60), `oldest open damage ${oldestOpen.d}`).toBe(true);
    });

    it('gives every vehicle a rising history of readings over about 13 months that ends at its current reading and day', async () => {
      const { rows } = await sql<{ mismatched: number; falling: number; short: number; cars: number }>`
        select
          (select count(*)::integer from car c join (select "pojazdId", max("licznik") as hi, max("data") as last from mileage_reading group by 1) r
             using ("pojazdId") where r.hi <> c."aktStanLicz" or r.last::date <> c."aktDataLicz") as mismatched,
          (select count(*)::integer from (select "licznik" < lag("licznik") over (partition by "pojazdId" order by "data", id) as down from mileage_reading) x
             where down) as falling,
          (select count(*)::integer from car c where c."dataRej" < current_date - 420
             and (select count(*) < 12 or min(r."data") > now() - interval '360 days' from mileage_reading r where r."pojazdId" = c."pojazdId")) as short,
          (select count(*)::integer from car) as cars`.execute(t.db);
      expect(rows[0]).toEqual({ mismatched: 0, falling: 0, short: 0, cars: 120 });
    });

    it('gives every client an invoice in each of the last 12 months', async () => {
      const { rows } = await sql<{ klient: string; months: number }>`
        select "klientSymbol" as klient, count(distinct to_char("faktDataWyst", 'YYYY-MM'))::integer as months from invoice
        where "faktDataWyst" >= (date_trunc('month', ${TODAY}::date::timestamp) - interval '11 months')::date and "faktDataWyst" <= ${TODAY}::date
        group by 1 order by 1`.execute(t.db);
      expect(rows).toEqual(clients().sort().map((klient) => ({ klient, months: 12 })));
    });
  });

  it('does nothing when seeded twice', async () => {
    const before = await t.db.selectFrom('car').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const again = await seedDatabase(t.db, { today: TODAY });
    expect(again.skipped).toBe(true);
    expect(again.reason).toMatch(/already exist/);
    const after = await t.db.selectFrom('car').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    const admins = await t.db.selectFrom('app_user').select(sql<number>`count(*)`.as('n')).where('login', '=', 'admin').executeTakeFirstOrThrow();
    expect(admins.n).toBe(1);
  });

  it('is deterministic: the generated rows are identical on every backend', async () => {
    const { rows } = await sql<{ d: string }>`
      select md5(string_agg(x, '|' order by x)) as d from (
        select concat_ws(',', "pojazdId", rejestr, "nrPodw", "markaModel", "klientSymbol", "pracId", "aktStanLicz", "ocDataDo") as x from car
        union all
        select concat_ws(',', "autId", "autTyp", status, "zgloData", "pojazdId", "stacjaSerw", "zgloZakres") from service_order
        union all
        select concat_ws(',', "pracId", nazwisko, imie, email) from employee
      ) s`.execute(t.db);
    digests.set(kind, rows[0].d);
    if (digests.size > 1) expect(new Set(digests.values()).size).toBe(1);
  });
});
