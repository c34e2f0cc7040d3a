/**
 * Reports declared in configuration (issue 46): the list a caller may run, a run's rows within the
 * caller's vehicles (ACCESS.md: a manager sees his client's only), totals equal to the sum of the
 * rows, a vehicle's cost as the sum of its cost lines and fuel transactions (fuel invoiced both
 * ways counted once), kilometres from the readings interpolated at the period's ends, CO2 from the
 * declared factors, and bad input answered 400 in Polish naming the field.
 */
import ExcelJS from 'exceljs';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import reporting from '../../schemas/reporting/reporting.json' with { type: 'json' };
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { EXTRA_PASSWORD } from '../../server/seed/seed.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Result = { columns: { id: string; label: string; kind: string; format?: string }[]; rows: { keys: Record<string, unknown>; values: Record<string, number | string | null> }[]; totals: Record<string, number | null> };

describe('reports', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let wz: number;
  let today: string;
  const day = (offset: number) => new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca'] as const) tok[who] = await t.signIn(who);
    wz = (await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow()).pojazdId;
    const seed = await t.app.db.selectFrom('app_setting').select('value').where('key', '=', 'seed').executeTakeFirstOrThrow();
    today = (typeof seed.value === 'string' ? JSON.parse(seed.value) : seed.value).today;
  }, 600_000);
  afterAll(async () => t?.close());

  const run = async (who: string, id: string, body: Record<string, unknown>) => t.call('POST', `/api/reports/${id}/run`, { token: tok[who], body });
  const ok = async (who: string, id: string, body: Record<string, unknown>): Promise<Result> => {
    const res = await run(who, id, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const sumOf = (r: Result, column: string) => Math.round(r.rows.reduce((s, row) => s + Number(row.values[column] ?? 0), 0) * 100) / 100;

  it('lists the declared reports to managers and administrators, not to drivers', async () => {
    const res = await t.call('GET', '/api/reports', { token: tok.manager });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { id: string }) => r.id)).toEqual(expect.arrayContaining(['vehicle-cost', 'cost-centre', 'fuel-consumption', 'co2-emissions']));
    expect(res.json().find((r: { id: string }) => r.id === 'vehicle-cost')).toMatchObject({ label: 'Koszt pojazdów', defaults: { groupBy: ['vehicle'] } });
    expect((await t.call('GET', '/api/reports', { token: tok.kierowca })).statusCode).toBe(403);
  });

  it('vehicle-cost: the manager\'s vehicles only; a vehicle\'s cost is its cost lines and fuel transactions, fuel counted once; totals are the sums of the rows', async () => {
    const from = day(-200);
    const to = day(0);
    const r = await ok('manager', 'vehicle-cost', { from, to });
    const clients = await t.app.db.selectFrom('car').select('klientSymbol').distinct().where('pojazdId', 'in', r.rows.map((row) => Number(row.keys.vehicle))).execute();
    expect(clients.map((c) => c.klientSymbol)).toEqual(['KL001']);
    for (const column of r.columns.filter((c) => c.kind === 'measure' && !['costPerKm'].includes(c.id))) {
      expect(r.totals[column.id], column.id).toBeCloseTo(sumOf(r, column.id), 2);
    }
    // WZ12345: invoice lines of the invoice categories (not its re-invoiced fuel) + every transaction of the period
    const invoiceCategories = reporting.categories.filter((c) => c.source === 'invoice').map((c) => c.id);
    const lines = await t.app.db.selectFrom('invoice_line').select(['netto', 'kategoria', 'okres']).where('pojazdId', '=', wz).execute();
    const fromMonth = `${from.slice(0, 7)}-01`;
    const expectedLines = lines.filter((l) => invoiceCategories.includes(l.kategoria) && String(l.okres) >= fromMonth && String(l.okres) <= to).reduce((s, l) => s + Number(l.netto), 0);
    const fuel = await t.app.db.selectFrom('fuel_transaction').select(['netto', 'data']).where('pojazdId', '=', wz).execute();
    const expectedFuel = fuel.reduce((s, f) => s + Number(f.netto), 0);
    const row = r.rows.find((x) => Number(x.keys.vehicle) === wz)!;
    expect(row.values.costNet).toBeCloseTo(expectedLines + expectedFuel, 2);
    expect(lines.some((l) => l.kategoria === 'paliwo')).toBe(true);
    expect(row.values['category:paliwo']).toBeCloseTo(expectedFuel, 2);
    expect(Number(row.values.km)).toBeGreaterThan(0);
    expect(row.values.costPerKm).toBeCloseTo(Number(row.values.costNet) / Number(row.values.km), 2);
    // the administrator sees other clients' vehicles too; the other manager none of these
    const all = await ok('admin', 'vehicle-cost', { from, to });
    expect(all.rows.length).toBeGreaterThan(r.rows.length);
    const other = await ok('manager2', 'vehicle-cost', { from, to, filters: { vehicle: [wz] } });
    expect(other.rows).toEqual([]);
  });

  it('kilometres: interpolated at the period\'s ends; the months of a period add up to the period', async () => {
    const readings = await t.app.db.selectFrom('mileage_reading').select(['licznik', 'data']).where('pojazdId', '=', wz).orderBy('data').execute();
    const at = (ms: number) => {
      const after = readings.findIndex((x) => new Date(x.data as unknown as string).getTime() >= ms);
      if (after <= 0) return readings[Math.max(after, 0)].licznik;
      const a = readings[after - 1];
      const b = readings[after];
      const ta = new Date(a.data as unknown as string).getTime();
      const tb = new Date(b.data as unknown as string).getTime();
      return a.licznik + (b.licznik - a.licznik) * (ms - ta) / (tb - ta);
    };
    const from = day(-30);
    const to = day(-10);
    const localMidnight = async (d: string) => new Date(String((await t.app.db.selectNoFrom((eb) => eb.cast<string>(eb.val(d), 'timestamptz').as('x')).executeTakeFirstOrThrow()).x)).getTime();
    const expected = at(await localMidnight(day(-9))) - at(await localMidnight(from));
    const r = await ok('manager', 'vehicle-cost', { from, to, filters: { vehicle: [wz] } });
    expect(Number(r.rows[0].values.km)).toBeCloseTo(expected, 0);

    const period = await ok('manager', 'vehicle-cost', { from: day(-180), to: day(0), filters: { vehicle: [wz] } });
    const months = await ok('manager', 'vehicle-cost', { from: day(-180), to: day(0), groupBy: ['month'], filters: { vehicle: [wz] } });
    expect(Math.abs(sumOf(months, 'km') - Number(period.totals.km))).toBeLessThanOrEqual(months.rows.length);
  });

  it('cost-centre and co2-emissions: per month and category / fuel type, CO2 from the declared factors, totals the sum of rows', async () => {
    const cc = await ok('manager', 'cost-centre', { from: day(-90), to: day(0), groupBy: ['mpk', 'category'] });
    expect(cc.rows.length).toBeGreaterThan(0);
    expect(cc.totals.costNet).toBeCloseTo(sumOf(cc, 'costNet'), 2);
    expect(cc.rows.map((r) => r.keys.category)).not.toContain(null);
    const co2 = await ok('manager', 'co2-emissions', { from: day(-200), to: day(0), groupBy: ['fuelType'] });
    for (const row of co2.rows) {
      const factor = (reporting.emissionFactors.kgPerLitre as Record<string, number>)[String(row.keys.fuelType)];
      expect(Number(row.values.co2)).toBeCloseTo(Number(row.values.litres) * factor, 0);
    }
    expect(co2.totals.co2).toBeCloseTo(sumOf(co2, 'co2'), 2);
    const fc = await ok('manager', 'fuel-consumption', { from: day(-200), to: day(0) });
    const wzRow = fc.rows.find((r) => Number(r.keys.vehicle) === wz)!;
    expect(wzRow.values.l100).toBeGreaterThan(0);
    expect(['poniżej', 'w normie', 'powyżej']).toContain(wzRow.values.range);
  });

  it('answers a page of the rows in an order, with the totals and count of all rows', async () => {
    const body = { from: day(-200), to: day(0) };
    const all = await ok('manager', 'vehicle-cost', body);
    const page = await ok('manager', 'vehicle-cost', { ...body, page: { offset: 1, limit: 2 }, sort: { column: 'costNet', direction: 'desc' }, top: 3 });
    const byCost = [...all.rows].sort((a, b) => Number(b.values.costNet) - Number(a.values.costNet));
    expect(page.rows.map((r) => r.values.costNet)).toEqual(byCost.slice(1, 3).map((r) => r.values.costNet));
    expect(page.totals).toEqual(all.totals);
    expect((page as Result & { rowCount: number }).rowCount).toBe(all.rows.length);
    expect((page as Result & { top: unknown[] }).top).toHaveLength(3);
  });

  it('refuses a period ending before it starts, a grouping, filter, page or order the report does not allow, a report unknown or not the caller\'s, in Polish', async () => {
    const bad = await run('manager', 'vehicle-cost', { from: day(0), to: day(-1) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toMatchObject({ field: 'to', message: 'Data „do” nie może być wcześniejsza niż data „od”' });
    const group = await run('manager', 'vehicle-cost', { from: day(-30), to: day(0), groupBy: ['category'] });
    expect(group.statusCode).toBe(400);
    expect(group.json().errors[0]).toMatchObject({ field: 'groupBy/0', message: 'Raport nie pozwala grupować według „Kategoria”' });
    const filter = await run('manager', 'co2-emissions', { from: day(-30), to: day(0), filters: { driver: [1] } });
    expect(filter.statusCode).toBe(400);
    expect((await run('manager', 'no-such-report', { from: day(-30), to: day(0) })).statusCode).toBe(404);
    // a page and an order: a negative offset, a page too large, a column the run does not answer
    const offset = await run('manager', 'vehicle-cost', { from: day(-30), to: day(0), page: { offset: -1, limit: 10 } });
    expect(offset.statusCode).toBe(400);
    expect(offset.json().errors[0].field).toBe('page.offset');
    const limit = await run('manager', 'vehicle-cost', { from: day(-30), to: day(0), page: { offset: 0, limit: 100000 } });
    expect(limit.statusCode).toBe(400);
    expect(limit.json().errors[0].field).toBe('page.limit');
    const sort = await run('manager', 'vehicle-cost', { from: day(-30), to: day(0), page: { offset: 0, limit: 10 }, sort: { column: 'mpk', direction: 'desc' } });
    expect(sort.statusCode).toBe(400);
    expect(sort.json().errors[0]).toMatchObject({ field: 'sort.column', message: 'Raport nie pozwala sortować według „mpk”' });
    const direction = await run('manager', 'vehicle-cost', { from: day(-30), to: day(0), sort: { column: 'costNet', direction: 'down' } });
    expect(direction.statusCode).toBe(400);
    expect(direction.json().errors[0].field).toBe('sort.direction');
    expect((await run('kierowca', 'vehicle-cost', { from: day(-30), to: day(0) })).statusCode).toBe(403);
  });

  it('exports the run as xlsx (numbers as numbers, a header naming the report, period and filters, totals last) and as an A4 PDF', async () => {
    const body = { from: day(-200), to: day(0), filters: { vehicle: [wz] } };
    const r = await ok('manager', 'vehicle-cost', body);
    const xlsx = await t.call('POST', '/api/reports/vehicle-cost/export', { token: tok.manager, body: { ...body, format: 'xlsx' } });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.getCell('A1').value).toBe('Koszt pojazdów');
    expect(String(sheet.getCell('A2').value)).toMatch(/^Okres: \d\d\.\d\d\.\d{4} – \d\d\.\d\d\.\d{4}$/);
    expect(String(sheet.getCell('A3').value)).toContain('Pojazd');
    const last = sheet.getRow(sheet.rowCount);
    const costColumn = r.columns.findIndex((c) => c.id === 'costNet') + 1;
    expect(last.getCell(1).value).toBe('Razem');
    expect(last.getCell(costColumn).value).toBe(r.totals.costNet);
    expect(typeof last.getCell(costColumn).value).toBe('number');
    expect(last.getCell(costColumn).numFmt).toContain('zł');

    const pdf = await t.call('POST', '/api/reports/vehicle-cost/export', { token: tok.manager, body: { ...body, format: 'pdf' } });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await t.call('POST', '/api/reports/vehicle-cost/export', { token: tok.manager, body: { ...body, format: 'doc' } })).statusCode).toBe(400);
  });

  it('a month is its YYYY-MM key, declared as a month: the screen and the PDF write its name, the Excel file holds it as a date shown as month and year', async () => {
    const body = { from: day(-120), to: day(0), groupBy: ['month'], filters: { vehicle: [wz] } };
    const r = await ok('manager', 'vehicle-cost', body);
    expect(r.columns[0]).toMatchObject({ id: 'month', kind: 'dimension', format: 'month' });
    const months = r.rows.map((row) => row.values.month);
    expect(months.length).toBeGreaterThan(1);
    for (const m of months) expect(m).toMatch(/^\d{4}-(0[1-9]|1[0-2])$/);
    expect([...months].sort()).toEqual(months);
    // the other dimensions are written by the server as they are shown: no format
    expect((await ok('manager', 'vehicle-cost', { ...body, groupBy: ['vehicle'] })).columns[0].format).toBeUndefined();

    const xlsx = await t.call('POST', '/api/reports/vehicle-cost/export', { token: tok.manager, body: { ...body, format: 'xlsx' } });
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const header = [...Array(sheet.rowCount).keys()].map((i) => i + 1).find((n) => sheet.getCell(n, 1).value === r.columns[0].label)!;
    const first = sheet.getCell(header + 1, 1);
    expect(first.value).toEqual(new Date(`${months[0]}-01T00:00:00Z`));
    expect(first.numFmt).toBe('mmm yyyy');
  });

  it('a PDF carries its variant\'s look: the logo at its head and the portal\'s name as its author; the portal without a logo names itself in text', async () => {
    /** The PDF's author and the pixel sizes of the images it holds. */
    // a user of a variant signs his writes with his variant's name (spec §7), as his browser does
    const signedAs = (name: string, payload: string) => {
      const nonce = makeNonce();
      return { 'x-nonce': nonce, 'x-signature': signBody(name, nonce, payload) };
    };
    const look = async (who: string, variantName = t.preConfigName) => {
      const body = { from: day(-60), to: day(0), format: 'pdf' };
      const res = await t.call('POST', '/api/reports/vehicle-cost/export', { token: tok[who], body, sign: false, headers: signedAs(variantName, JSON.stringify(body)) });
      expect(res.statusCode, res.body).toBe(200);
      const doc = await PDFDocument.load(res.rawPayload);
      const objects = doc.context.enumerateIndirectObjects();
      const isImage = (o: unknown): o is PDFRawStream => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image');
      // a PNG's transparency is an image of its own (its soft mask), not a second picture
      const masks = new Set(objects.map(([, o]) => (isImage(o) ? o.dict.get(PDFName.of('SMask'))?.toString() : undefined)).filter(Boolean));
      const images = objects.filter(([ref, o]) => isImage(o) && !masks.has(ref.toString()))
        .map(([, o]) => `${(o as PDFRawStream).dict.get(PDFName.of('Width'))}x${(o as PDFRawStream).dict.get(PDFName.of('Height'))}`);
      return { author: doc.getAuthor(), images };
    };
    // manager3's client KL003 is served by the customer-brand variant (its logo-mail.png is 480 × 160)
    const signed = await t.call('POST', '/api/user/auth', { body: { username: 'manager3', password: EXTRA_PASSWORD, role: 'MANAGER' } });
    expect(signed.statusCode, signed.body).toBe(200);
    tok.manager3 = signed.json().id_token;
    const accepted = await t.call('POST', '/api/terms/accept-current', { token: tok.manager3, sign: false, headers: signedAs('portal-marka', '') });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await look('manager3', 'portal-marka')).toEqual({ author: 'Zielona Flota – portal kierowcy', images: ['480x160'] });
    expect(await look('manager')).toEqual({ author: 'Partner CFM', images: [] });
  });
});
