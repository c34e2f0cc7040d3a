/**
 * Saved table filters and views (spec §3, §5, §7): kept per user and table on the server, names
 * required and unique with the spec's messages, only the caller's own (scope "self").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('saved table filters and views', () => {
  let t: TestApp;
  let manager: string;
  let manager2: string;
  let driver: string;
  const statusFilter = { status: { filterType: 'set', values: [4] }, rejestr: { filterType: 'text', type: 'contains', filter: 'WZ' } };

  const saveFilter = (token: string | undefined, body: object) => t.call('POST', '/api/user-table-filter', { token, body });
  const saveView = (token: string | undefined, body: object) => t.call('POST', '/api/user-table-view', { token, body });
  const settings = (token: string, table: string) => t.call('GET', `/api/user-table-view/${table}`, { token });

  beforeAll(async () => {
    t = await startTestApp();
    [manager, manager2, driver] = await Promise.all([t.signIn('manager'), t.signIn('manager2'), t.signIn('kierowca')]);
  }, 60_000);
  afterAll(async () => t?.close());

  it('saves a filter and a view and returns them by table name, with filterModel and columnOrder', async () => {
    const f = await saveFilter(manager, { name: 'Autoryzowane WZ', tablename: 'ORDER_TABLE', filterModel: statusFilter });
    expect(f.statusCode).toBe(200);
    expect(f.json()).toMatchObject({ id: expect.any(Number), name: 'Autoryzowane WZ', tablename: 'ORDER_TABLE', filterModel: statusFilter });
    const v = await saveView(manager, { name: 'Krótki', tablename: 'ORDER_TABLE', columnorder: ['autNr', 'rejestr', 'statusZnaczenie'] });
    expect(v.statusCode).toBe(200);
    expect(v.json()).toMatchObject({ name: 'Krótki', columnOrder: ['autNr', 'rejestr', 'statusZnaczenie'] });

    const res = await settings(manager, 'ORDER_TABLE');
    expect(res.statusCode).toBe(200);
    expect(res.json().filters).toEqual([f.json()]);
    expect(res.json().views).toEqual([v.json()]);
    // another table of the same user is separate
    expect((await settings(manager, 'INVOICE')).json()).toEqual({ filters: [], views: [] });
  });

  it('accepts the filter model and the column order as JSON text, as the spec keeps them', async () => {
    const f = await saveFilter(manager, { name: 'Jako tekst', tablename: 'INVOICE', filterModel: JSON.stringify({ faktNrCaly: { filterType: 'text', type: 'contains', filter: 'FV' } }) });
    expect(f.statusCode).toBe(200);
    expect(f.json().filterModel).toEqual({ faktNrCaly: { filterType: 'text', type: 'contains', filter: 'FV' } });
    const v = await saveView(manager, { name: 'Jako tekst', tablename: 'INVOICE', columnorder: '["faktNrCaly","ogBrutto"]' });
    expect(v.json().columnOrder).toEqual(['faktNrCaly', 'ogBrutto']);
    expect((await saveFilter(manager, { name: 'Zły JSON', tablename: 'INVOICE', filterModel: '{nie json' })).json().errors[0].field).toBe('filterModel');
  });

  it('requires a name: empty, blank and missing names get the spec’s message on the field', async () => {
    for (const name of ['', '   ', undefined, null]) {
      const f = await saveFilter(manager, { name, tablename: 'ORDER_TABLE', filterModel: {} });
      expect(f.statusCode).toBe(400);
      expect(f.json().errors).toEqual([{ field: 'name', message: 'Nazwa filtru jest wymagana' }]);
      const v = await saveView(manager, { name, tablename: 'ORDER_TABLE', columnorder: ['autNr'] });
      expect(v.statusCode).toBe(400);
      expect(v.json().errors).toEqual([{ field: 'name', message: 'Nazwa widoku jest wymagana' }]);
    }
  });

  it('refuses a name the user already gave on that table, but not another user’s or another table’s', async () => {
    await saveFilter(manager, { name: 'Duplikat', tablename: 'DAMAGE_TABLE', filterModel: {} });
    const again = await saveFilter(manager, { name: ' Duplikat ', tablename: 'DAMAGE_TABLE', filterModel: {} });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ detail: 'Filtr o podanej nazwie już istnieje', errors: [{ field: 'name', message: 'Filtr o podanej nazwie już istnieje' }] });
    await saveView(manager, { name: 'Duplikat', tablename: 'DAMAGE_TABLE', columnorder: ['nrSprawy'] });
    const view = await saveView(manager, { name: 'Duplikat', tablename: 'DAMAGE_TABLE', columnorder: ['rejestr'] });
    expect(view.json().errors).toEqual([{ field: 'name', message: 'Widok o podanej nazwie już istnieje' }]);
    expect((await saveFilter(manager2, { name: 'Duplikat', tablename: 'DAMAGE_TABLE', filterModel: {} })).statusCode).toBe(200);
    expect((await saveFilter(manager, { name: 'Duplikat', tablename: 'ORDER_TABLE', filterModel: {} })).statusCode).toBe(200);
  });

  it('refuses an unknown table, a column the table lacks and a filter the table cannot apply', async () => {
    const table = await saveFilter(manager, { name: 'x', tablename: 'NO_SUCH_TABLE', filterModel: {} });
    expect(table.json().errors[0]).toEqual({ field: 'tablename', message: 'Nieznana tabela: NO_SUCH_TABLE' });
    const column = await saveFilter(manager, { name: 'x', tablename: 'ORDER_TABLE', filterModel: { passwordHash: { filterType: 'text', type: 'equals', filter: 'a' } } });
    expect(column.json().errors[0].field).toBe('filterModel.passwordHash');
    const wrongType = await saveFilter(manager, { name: 'x', tablename: 'ORDER_TABLE', filterModel: { rejestr: { filterType: 'number', type: 'equals', filter: 1 } } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors[0].field).toBe('rejestr');
    const viewColumn = await saveView(manager, { name: 'x', tablename: 'ORDER_TABLE', columnorder: ['autNr', 'nieMaTakiej'] });
    expect(viewColumn.json().errors[0]).toEqual({ field: 'columnorder', message: 'Nieznana kolumna: nieMaTakiej' });
    const empty = await saveView(manager, { name: 'x', tablename: 'ORDER_TABLE', columnorder: [] });
    expect(empty.json().errors[0].field).toBe('columnorder');
    expect((await settings(manager, 'NO_SUCH_TABLE')).statusCode).toBe(404);
  });

  it('deletes only the caller’s own settings: another user’s id is answered 404 and stays', async () => {
    const f = (await saveFilter(manager, { name: 'Do usunięcia', tablename: 'HISTORY', filterModel: {} })).json();
    const v = (await saveView(manager, { name: 'Do usunięcia', tablename: 'HISTORY', columnorder: ['login'] })).json();
    for (const other of [manager2, driver]) {
      expect((await t.call('DELETE', `/api/user-table-filter?id=${f.id}`, { token: other })).statusCode).toBe(404);
      expect((await t.call('DELETE', `/api/user-table-view?id=${v.id}`, { token: other })).statusCode).toBe(404);
      expect((await settings(other, 'HISTORY')).json()).toEqual({ filters: [], views: [] });
    }
    expect((await settings(manager, 'HISTORY')).json().filters).toHaveLength(1);
    expect((await t.call('DELETE', `/api/user-table-filter?id=${f.id}`, { token: manager })).statusCode).toBe(204);
    expect((await t.call('DELETE', `/api/user-table-view?id=${v.id}`, { token: manager })).statusCode).toBe(204);
    expect((await settings(manager, 'HISTORY')).json()).toEqual({ filters: [], views: [] });
    expect((await t.call('DELETE', `/api/user-table-filter?id=${f.id}`, { token: manager })).statusCode).toBe(404);
    expect((await t.call('DELETE', '/api/user-table-filter?id=abc', { token: manager })).statusCode).toBe(400);
    expect((await t.call('DELETE', '/api/user-table-view', { token: manager })).statusCode).toBe(400);
  });

  it('needs a valid session and a signature', async () => {
    expect((await saveFilter(undefined, { name: 'x', tablename: 'ORDER_TABLE', filterModel: {} })).statusCode).toBe(401);
    expect((await saveFilter('Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA', { name: 'x', tablename: 'ORDER_TABLE', filterModel: {} })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/user-table-view/ORDER_TABLE', { token: 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA' })).statusCode).toBe(401);
    const unsigned = await t.call('POST', '/api/user-table-view', { token: manager, sign: false, body: { name: 'x', tablename: 'ORDER_TABLE', columnorder: ['autNr'] } });
    expect(unsigned.statusCode).toBe(400);
    expect((await settings(manager, 'ORDER_TABLE')).json().views.map((v: any) => v.name)).not.toContain('x');
  });
});
