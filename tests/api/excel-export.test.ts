/**
 * Excel export (spec §7, §8; issue 4) through the real application and database: the file holds
 * exactly the rows /table2 answers for the same request, in the same order, with the requested
 * columns; dates and money are typed cells; the one-time link is refused in every way it should be;
 * the configured limit, unknown fields, roles and row scopes are enforced.
 * The test reads the .xlsx back with the xlsx package (the server itself never parses one).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, ROOT, startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Headers as the orders table shows them (locales/pl/order.json). */
const orderFields: Record<string, string> = JSON.parse(readFileSync(join(ROOT, 'locales/pl/order.json'), 'utf8')).fields;
const REFUSED = 'Link do pobrania wygasł lub został już użyty. Wróć do portalu i pobierz plik ponownie.';

function readSheet(payload: Buffer) {
  const book = XLSX.read(payload, { type: 'buffer', cellNF: true });
  const sheet = book.Sheets[book.SheetNames[0]];
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
  return { book, sheet, header: rows[0] as string[], data: rows.slice(1) };
}

describe('Excel export of the table resources', () => {
  let t: TestApp;
  const tokens: Partial<Record<DemoAccount, string>> = {};
  const users: Partial<Record<DemoAccount, any>> = {};

  beforeAll(async () => {
    t = await startTestApp();
    for (const account of ['admin', 'manager', 'kierowca', 'doradca'] as const) {
      const res = await t.call('POST', '/api/user/auth', { body: DEMO[account] });
      tokens[account] = res.json().id_token;
      users[account] = res.json().body.userDetails;
    }
  }, 60_000);
  afterAll(async () => t?.close());

  const label = (key: string) => t.app.config.t(key);
  const prepare = (resource: string, body: unknown, token = tokens.manager) => t.call('POST', `/api/${resource}/excel/prepare`, { token, body });
  const download = (link: string, headers?: Record<string, string>) => t.call('GET', link, { headers });

  async function exportFile(resource: string, body: unknown, token = tokens.manager) {
    const res = await prepare(resource, body, token);
    expect(res.statusCode, res.body).toBe(200);
    const file = await download(res.json().data);
    expect(file.statusCode).toBe(200);
    return { link: res.json().data as string, file, ...readSheet(file.rawPayload) };
  }

  const orderColumns = ['autNr', 'zgloData', 'rejestr', 'stanLicz', 'zgloKto', 'status'];
  const orderRequest = {
    fieldNames: orderColumns,
    columnNames: orderColumns.map((f) => orderFields[f]),
    columnFormats: [null, 'datetime', null, 'km', null, null],
    valueLabels: [null, null, null, null, { USER: 'Użytkownik', MANAGER: 'Fleet Manager', ADVISOR: 'Doradca', ADMIN: 'Administrator' }, null],
    rowParams: {
      startRow: 0,
      endRow: 20000,
      filterModel: { status: { filterType: 'set', values: [1, 4, 5] }, rejestr: { filterType: 'text', type: 'contains', filter: 'w' } },
      sortModel: [{ colId: 'stanLicz', sort: 'desc' }, { colId: 'autNr', sort: 'asc' }],
    },
  };

  it("holds exactly the manager's filtered, sorted rows of /table2, with the requested columns in order and Polish headers", async () => {
    const { header, data, book, file } = await exportFile('order', orderRequest);
    const table = await t.call('POST', '/api/order/table2', {
      token: tokens.manager,
      body: { ...orderRequest.rowParams, endRow: 1000 },
    });
    const rows: any[] = table.json().rows;
    expect(rows.length).toBeGreaterThan(3);
    expect(header).toEqual(['Nr zlecenia', 'Data zgłoszenia', 'Nr rejestracyjny', orderFields.stanLicz, orderFields.zgloKto, orderFields.status]);
    expect(data.map((r) => r[0])).toEqual(rows.map((r) => r.autNr));
    expect(data.map((r) => r[2])).toEqual(rows.map((r) => r.rejestr));
    expect(data.map((r) => r[3])).toEqual(rows.map((r) => r.stanLicz));
    const roleLabels: Record<string, string> = orderRequest.valueLabels[4]!;
    expect(data.map((r) => r[4])).toEqual(rows.map((r) => roleLabels[r.zgloKto] ?? r.zgloKto));
    expect(book.SheetNames).toEqual(['Zlecenia']);
    expect(file.headers['content-type']).toBe(XLSX_MIME);
    expect(decodeURIComponent(String(file.headers['content-disposition']))).toMatch(/^attachment; .*filename\*=UTF-8''Zlecenia \d{2}\.\d{2}\.\d{4}\.xlsx$/);
  });

  it('writes dates as date cells shown DD.MM.YYYY (HH:mm) and money as numbers with a money format', async () => {
    const { sheet } = await exportFile('order', { ...orderRequest, rowParams: { endRow: 5 } });
    const at = sheet.B2 as XLSX.CellObject;
    expect(at.t).toBe('n');
    expect(XLSX.SSF.is_date(String(at.z))).toBe(true);
    expect(at.z).toBe('dd\\.mm\\.yyyy hh:mm');
    expect(sheet.D2).toMatchObject({ t: 'n', z: '#,##0 "km"' });

    const invoices = await exportFile('invoice', {
      fieldNames: ['faktNrCaly', 'faktDataWyst', 'ogNetto', 'ogBrutto'],
      columnNames: ['Nr faktury', 'Data wystawienia', 'Netto', 'Brutto'],
      columnFormats: ['text', 'date', 'money', 'money'],
      rowParams: { endRow: 20000, sortModel: [{ colId: 'faktNrCaly', sort: 'asc' }] },
    });
    const listed = (await t.call('POST', '/api/invoice/table2', { token: tokens.manager, body: { startRow: 0, endRow: 1000, sortModel: [{ colId: 'faktNrCaly', sort: 'asc' }] } })).json().rows;
    expect(invoices.data.map((r) => r[2])).toEqual(listed.map((r: any) => r.ogNetto));
    expect(invoices.sheet.C2).toMatchObject({ t: 'n', z: '#,##0.00 "zł"' });
    expect(invoices.sheet.B2).toMatchObject({ t: 'n', z: 'dd\\.mm\\.yyyy' });
    const [y, m, d] = String(listed[0].faktDataWyst).split('-').map(Number);
    expect(XLSX.SSF.format(invoices.sheet.B2.z, invoices.sheet.B2.v)).toBe(`${String(d).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}`);
  });

  it('opens once: a second use, an expired, a forged and another resource\'s token are refused, and the file is gone', async () => {
    const res = await prepare('order', { ...orderRequest, rowParams: { endRow: 10 } });
    const link: string = res.json().data;
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    expect(link).toBe(`/api/order/excel/download?token=${token}`);

    // another resource's download does not open it, and does not spend it
    const elsewhere = await download(`/api/invoice/excel/download?token=${token}`);
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.json()).toMatchObject({ detail: REFUSED });

    expect((await download(link)).statusCode).toBe(200);
    const again = await download(link);
    expect(again.statusCode).toBe(403);
    expect(again.json().detail).toBe(REFUSED);
    expect(again.body).not.toContain('PK');
    const left = await t.app.db.selectFrom('export_file').select('id').execute();
    expect(left).toEqual([]);

    for (const forged of ['', 'x', 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA', 'A'.repeat(43)]) {
      const refused = await download(`/api/order/excel/download?token=${forged}`);
      expect(refused.statusCode, forged).toBe(403);
    }
    expect((await download('/api/order/excel/download')).statusCode).toBe(403);

    // a browser window gets a short Polish page instead of JSON
    const page = await download(`/api/order/excel/download?token=${token}`, { accept: 'text/html' });
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Link do pobrania wygasł');
  });

  it('refuses an expired link', async () => {
    const link: string = (await prepare('order', { ...orderRequest, rowParams: { endRow: 10 } })).json().data;
    await sql`update download_token set "expiresAt" = now() - interval '1 second' where "usedAt" is null`.execute(t.app.db);
    expect((await download(link)).statusCode).toBe(403);
  });

  it('dies with the session: signing out kills the link', async () => {
    const token = await t.signIn('manager');
    const link: string = (await prepare('order', { ...orderRequest, rowParams: { endRow: 10 } }, token)).json().data;
    expect((await t.call('POST', '/api/user/logout', { token })).statusCode).toBeLessThan(300);
    expect((await download(link)).statusCode).toBe(403);
  });

  it('needs a session to prepare, and refuses roles without access with 403', async () => {
    const body = { fieldNames: ['id'], columnNames: ['Id'], rowParams: { endRow: 10 } };
    for (const token of [undefined, 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA']) {
      const res = await t.call('POST', '/api/order/excel/prepare', { token, body: orderRequest });
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('/excel/download');
    }
    expect((await prepare('invoice', { ...body, fieldNames: ['faktId'] }, tokens.kierowca)).statusCode).toBe(403);
    expect((await prepare('damage', { ...body, fieldNames: ['szkodaId'] }, tokens.doradca)).statusCode).toBe(403);
    const users = await prepare('users', body, tokens.manager);
    expect(users.statusCode).toBe(403);
    expect(users.json().detail).toBe(label('errors:forbidden'));
    expect((await prepare('login-history', body, tokens.manager)).statusCode).toBe(403);
    // even a request naming unknown columns gets 403, not a hint about the columns
    expect((await prepare('users', { ...body, fieldNames: ['nope'] }, tokens.kierowca)).statusCode).toBe(403);
  });

  it('is not offered where the resource declares no export', async () => {
    expect((await prepare('attachment', { fieldNames: ['id'], columnNames: ['Id'], rowParams: { endRow: 10 } }, tokens.admin)).statusCode).toBe(404);
    expect((await prepare('acceptance-history', { fieldNames: ['id'], columnNames: ['Id'], rowParams: { endRow: 10 } }, tokens.admin)).statusCode).toBe(404);
  });

  it('answers a 400 naming an unknown field, a bad filter, mismatched headers or too many rows', async () => {
    const unknown = await prepare('order', { ...orderRequest, fieldNames: ['autNr', 'hasloUzytkownika'], columnNames: ['Nr', 'Hasło'], columnFormats: [], valueLabels: [] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'unknownColumn', detail: 'Nieznana kolumna: hasloUzytkownika', errors: [{ field: 'hasloUzytkownika' }] });

    const badFilter = await prepare('order', { ...orderRequest, rowParams: { endRow: 10, filterModel: { nieMa: { filterType: 'text', type: 'contains', filter: 'x' } } } });
    expect(badFilter.statusCode).toBe(400);
    expect(badFilter.json().errors[0].field).toBe('nieMa');

    const mismatch = await prepare('order', { ...orderRequest, columnNames: ['Nr'] });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().errors[0]).toEqual({ field: 'columnNames', message: label('errors:excel.columnMismatch') });

    const tooMany = await prepare('order', { ...orderRequest, rowParams: { endRow: 20001 } });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors[0].field).toMatch(/endRow/);
  });

  it('exports only the rows of the caller: a driver his vehicle, an advisor his station and vehicle', async () => {
    const scoped = { fieldNames: ['autId', 'pojazdId', 'stacjaSerw', 'klientSymbol'], columnNames: ['Id', 'Pojazd', 'Stacja', 'Klient'], rowParams: { endRow: 20000 } };
    for (const account of ['kierowca', 'doradca', 'manager'] as const) {
      const { data } = await exportFile('order', scoped, tokens[account]);
      const listed = (await t.call('POST', '/api/order/table2', { token: tokens[account], body: { startRow: 0, endRow: 1000 } })).json().rows;
      expect(data.length, account).toBeGreaterThan(0);
      expect(data.map((r) => r[0]), account).toEqual(listed.map((r: any) => r.autId));
      const u = users[account];
      for (const [, pojazdId, stacjaSerw, klientSymbol] of data) {
        if (account === 'kierowca') expect(pojazdId).toBe(u.pojazdId);
        if (account === 'doradca') expect(stacjaSerw === u.stacjaSerw || pojazdId === u.pojazdId).toBe(true);
        if (account === 'manager') expect(klientSymbol).toBe(u.klientSymbol);
      }
    }
  });
});

describe('the export limit of a client variant', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    // a private copy of the configuration with a variant that lowers the limit, as an implementer would
    root = mkdtempSync(join(tmpdir(), 'portal-export-'));
    for (const sub of ['screens', 'schemas', 'locales', 'client-variants', 'package.json']) cpSync(join(ROOT, sub), join(root, sub), { recursive: true });
    mkdirSync(join(root, 'client-variants/small-export'), { recursive: true });
    writeFileSync(join(root, 'client-variants/small-export/variant.json'), JSON.stringify({ schemaVersion: 1, name: 'Mały eksport', app: { config: { excelExportLimit: 5 } } }));
    t = await startTestApp({ root, variant: 'small-export' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const request = (rowParams: object) => ({ fieldNames: ['autNr'], columnNames: ['Nr zlecenia'], rowParams: { endRow: 20000, ...rowParams } });

  it('refuses more rows than the limit with the spec\'s code and a Polish detail, and stores nothing', async () => {
    const token = await t.signIn('manager');
    const res = await t.call('POST', '/api/order/excel/prepare', { token, body: request({}) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'document.excel.dataSizeLimit', detail: 'Dane przekraczają limit 5 pozycji. Użyj filtrów, aby zawęzić dane do eksportu.' });
    expect(await t.app.db.selectFrom('export_file').select('id').execute()).toEqual([]);
  });

  it('exports a filtered list within the limit, and a window of the list that fits', async () => {
    const token = await t.signIn('manager');
    const few = await t.call('POST', '/api/order/table2', { token, body: { startRow: 0, endRow: 5, sortModel: [{ colId: 'autNr', sort: 'asc' }] } });
    const numbers = few.json().rows.map((r: any) => r.autNr);
    const filtered = await t.call('POST', '/api/order/excel/prepare', {
      token,
      body: request({ filterModel: { autNr: { filterType: 'set', values: numbers } }, sortModel: [{ colId: 'autNr', sort: 'asc' }] }),
    });
    expect(filtered.statusCode, filtered.body).toBe(200);
    const file = await t.call('GET', filtered.json().data);
    expect(readSheet(file.rawPayload).data.map((r) => r[0])).toEqual(numbers);

    const window = await t.call('POST', '/api/order/excel/prepare', { token, body: request({ startRow: 10, endRow: 15 }) });
    expect(window.statusCode).toBe(200);
    expect(readSheet((await t.call('GET', window.json().data)).rawPayload).data).toHaveLength(5);
  });
});
