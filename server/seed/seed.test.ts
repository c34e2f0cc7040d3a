import { sql } from 'kysely';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../auth/password.ts';
import { openTestDatabase, testBackends, type TestDatabase } from '../db/testing.ts';
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
  }, 60_000);
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
    const orders = await t.db.selectFrom('v_order').select(['rejestr', 'status', 'zlecZakres', 'klientSymbol']).where('klientSymbol', '=', 'KL005').orderBy('rejestr').execute();
    expect(orders).toEqual([
      { rejestr: 'GD3310K', status: 2, zlecZakres: 'Wymiana łączników stabilizatora przód', klientSymbol: 'KL005' },
      { rejestr: 'GD5527M', status: 0, zlecZakres: null, klientSymbol: 'KL005' },
    ]);
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
