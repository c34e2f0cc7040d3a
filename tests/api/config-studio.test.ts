/**
 * The configuration studio through the API (issue 26): a draft of texts and columns, the checks'
 * problems with their layer path and JSON pointer (nothing saved), publishing that every next
 * request is served by, a variant's change reaching only its users, the concurrent publish refused
 * as stale (and rebased), rollback, export as files that pass the check and give the same bundle,
 * import, the preview, and ADMIN only (the other roles are refused, by the access test too).
 */
import { cpSync, existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';
import { loadBundle } from '../../server/config/load-bundle.ts';
import { loadVariants } from '../../server/config/variants.ts';

describe('the configuration studio', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const as = async (who: DemoAccount) => (tokens[who] ??= await t.signIn(who));
  let analyst = '';
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, token?: string) =>
    t.call(method, url, { token: token ?? (await as('admin')), body });
  const publish = async (comment: string, token?: string) => call('POST', '/api/config-studio/publish', { comment }, token);
  const vehiclesLabel = async (host?: string, who: DemoAccount = 'manager') => {
    const res = await t.call('GET', '/api/ui/config', { token: await as(who), headers: host ? { host } : {} });
    return res.json().locales.pl.car.fields.rejestr as string;
  };

  beforeAll(async () => {
    t = await startTestApp();
    // a second administrator, for the concurrent publish
    await t.app.db.insertInto('app_user').expression((eb) =>
      eb.selectFrom('app_user').select([
        eb.val('analityk').as('login'), eb.val('Anna').as('firstName'), eb.val('Analityk').as('lastName'), 'passwordHash', eb.val('ADMIN').as('rola'),
        eb.val(false).as('firstLogin'),
      ]).where('login', '=', 'admin'),
    ).columns(['login', 'firstName', 'lastName', 'passwordHash', 'rola', 'firstLogin']).execute();
    const res = await t.call('POST', '/api/user/auth', { body: { username: 'analityk', password: 'Admin123!', role: 'MANAGER' } });
    expect(res.statusCode).toBe(200);
    analyst = res.json().id_token;
  }, 120_000);
  afterAll(async () => t?.close());

  it('finds a text by the words on screen, changes it in a draft, and serves it once published', async () => {
    const overview = (await call('GET', '/api/config-studio')).json();
    expect(overview).toMatchObject({ published: null, draft: null, stale: false, broken: [] });
    expect(overview.scopes).toEqual(expect.arrayContaining(['base', 't', 'p']));
    expect(overview.documents).toContainEqual(expect.objectContaining({ path: 'screens/vehicles-table.json', kind: 'screen', type: 'table' }));

    const found = (await call('GET', `/api/config-studio/texts?scope=base&q=${encodeURIComponent('nr rejestracyjny')}`)).json();
    expect(found.items).toContainEqual(expect.objectContaining({ key: 'car:fields.rejestr', text: 'Nr rejestracyjny', filesText: 'Nr rejestracyjny', changed: false }));

    const saved = await call('PUT', '/api/config-studio/texts', { scope: 'base', key: 'car:fields.rejestr', text: 'Rejestracja' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().draft).toMatchObject({ basedOn: null, author: 'admin', paths: ['locales/pl/car.json'] });
    // not live yet
    expect(await vehiclesLabel()).toBe('Nr rejestracyjny');
    const diff = (await call('GET', '/api/config-studio/draft/diff')).json();
    expect(diff.changes).toEqual([expect.objectContaining({ scope: 'base', path: 'locales/pl/car.json', pointer: '/fields/rejestr', before: 'Nr rejestracyjny', after: 'Rejestracja' })]);
    // a text's change says where the text is shown, its key beside it
    expect(diff.changes[0].text).toMatch(/^Portal bazowy · Dane pojazdu → [a-ząćęłńóśźż ]+ \(car:fields\.rejestr\): „Nr rejestracyjny” → „Rejestracja”$/);

    const published = await publish('Krótsza etykieta');
    expect(published.statusCode).toBe(200);
    expect(published.json().version).toMatchObject({ status: 'published', author: 'admin', comment: 'Krótsza etykieta', current: true });
    expect(await vehiclesLabel()).toBe('Rejestracja');
    expect((await call('GET', '/api/config-studio')).json()).toMatchObject({ draft: null, published: { id: published.json().version.id } });
  });

  it('hides a column and reorders the columns by saving the edited document', async () => {
    const doc = (await call('GET', '/api/config-studio/document?scope=base&path=screens/vehicles-table.json')).json();
    expect(doc).toMatchObject({ layerPath: 'screens/vehicles-table.json', changed: false });
    const columns = doc.effective.columns.map((c: any) => (c.id === 'marka' ? { ...c, hide: true } : c));
    const [first, ...rest] = columns;
    const edited = { ...doc.effective, columns: [...rest.slice(0, 2), first, ...rest.slice(2)] };
    const res = await call('PUT', '/api/config-studio/documents', { changes: [{ scope: 'base', path: 'screens/vehicles-table.json', document: edited }] });
    expect(res.statusCode).toBe(200);
    const again = (await call('GET', '/api/config-studio/document?scope=base&path=screens/vehicles-table.json')).json();
    expect(again.changed).toBe(true);
    expect(again.effective).toEqual(edited);
    expect((await publish('Bez marki')).statusCode).toBe(200);
    const served = (await t.call('GET', '/api/ui/config', { token: await as('manager') })).json().screens['vehicles-table'];
    expect(served.columns.slice(0, 3).map((c: any) => c.id)).toEqual(['marka', 'markaModel', 'rejestr']);
    expect(served.columns[0]).toMatchObject({ id: 'marka', hide: true });
  });

  it('refuses a change the checks refuse, naming the layer path, the JSON pointer and the place in words, and saves nothing', async () => {
    const doc = (await call('GET', '/api/config-studio/document?scope=base&path=screens/vehicles-table.json')).json();
    const save = (path: string, document: unknown) => call('PUT', '/api/config-studio/documents', { changes: [{ scope: 'base', path, document }] });
    const columns = doc.effective.columns.map((c: any, i: number) => (i === 1 ? { ...c, width: 'szeroka' } : c));
    const res = await save('screens/vehicles-table.json', { ...doc.effective, columns });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('CONFIG_INVALID');
    expect(body.errors).toEqual([{ field: 'screens/vehicles-table.json#/columns/1/width', message: `columns › ${columns[1].id} › width: must be integer` }]);
    expect(body.problems).toEqual([expect.objectContaining({ layerPath: 'screens/vehicles-table.json', pointer: '/columns/1/width', where: `columns › ${columns[1].id} › width` })]);
    // a column naming a field the entity does not have
    const unknown = await save('screens/vehicles-table.json', { ...doc.effective, columns: [...doc.effective.columns, { id: 'kolorNadwozia', width: 120 }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toContainEqual({
      field: `screens/vehicles-table.json#/columns/${doc.effective.columns.length}/id`,
      message: 'columns › kolorNadwozia › id: field "kolorNadwozia" is not in the entity schema "car"',
    });
    // a menu entry to a route that does not exist
    const menu = (await call('GET', '/api/config-studio/document?scope=base&path=screens/menu.json')).json().effective;
    menu.groups[0].items.push({ id: 'nowa', route: '/app/nie-ma-takiej' });
    const bad = await save('screens/menu.json', menu);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toMatch(/^screens\/menu\.json#\/groups\/0\/items\/\d+/);
    // nothing was saved
    expect((await call('GET', '/api/config-studio')).json().draft).toBeNull();
    // other roles are refused
    for (const who of ['manager', 'kierowca', 'doradca'] as const) {
      expect((await t.call('GET', '/api/config-studio', { token: await as(who) })).statusCode).toBe(403);
      expect((await t.call('PUT', '/api/config-studio/texts', { token: await as(who), body: { scope: 'base', key: 'car:title', text: 'x' } })).statusCode).toBe(403);
    }
  });

  it("changes a text for variant t only: t's manager sees it, the default manager does not", async () => {
    const res = await call('PUT', '/api/config-studio/texts', { scope: 't', key: 'car:fields.rejestr', text: 'Numer auta (T)' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().draft.paths).toEqual(['client-variants/t/locales/pl/car.json']);
    // the preview shows the draft for t before it is published
    const preview = (await call('GET', '/api/config-studio/preview?variant=t&source=draft')).json();
    expect(preview.locales.pl.car.fields.rejestr).toBe('Numer auta (T)');
    expect((await publish('Wariant T')).statusCode).toBe(200);
    expect(await vehiclesLabel('t.localhost', 'manager')).toBe('Numer auta (T)');
    expect(await vehiclesLabel(undefined, 'manager')).toBe('Rejestracja');
  });

  it("refuses the second of two concurrent publishes as stale with the other's changes, and publishes after a rebase", async () => {
    expect((await call('PUT', '/api/config-studio/texts', { scope: 'base', key: 'car:fields.marka', text: 'Marka (A)' })).statusCode).toBe(200);
    expect((await call('PUT', '/api/config-studio/texts', { scope: 'base', key: 'car:fields.markaModel', text: 'Model (B)' }, analyst)).statusCode).toBe(200);
    const [a, b] = await Promise.all([publish('A'), publish('B', analyst)]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const [, refused] = a.statusCode === 409 ? [b, a] : [a, b];
    const loser = a.statusCode === 409 ? tokens.admin : analyst;
    expect(refused.json()).toMatchObject({ code: 'CONFIG_STALE', published: { current: true } });
    expect(refused.json().changes.map((c: any) => c.text).join('\n')).toMatch(a.statusCode === 409 ? /Model \(B\)/ : /Marka \(A\)/);
    expect((await call('GET', '/api/config-studio', undefined, loser)).json().stale).toBe(true);
    expect((await call('POST', '/api/config-studio/draft/rebase', undefined, loser)).statusCode).toBe(200);
    expect((await publish('po uwzględnieniu', loser)).statusCode).toBe(200);
    const labels = (await t.call('GET', '/api/ui/config', { token: await as('manager') })).json().locales.pl.car.fields;
    expect([labels.marka, labels.markaModel]).toEqual(['Marka (A)', 'Model (B)']);
  });

  it('rolls back to an earlier version in one call, as a new version, with its diff', async () => {
    const versions = (await call('GET', '/api/config-studio/versions')).json().items;
    const first = versions[versions.length - 1];
    expect(first.comment).toBe('Krótsza etykieta');
    const diff = (await call('GET', `/api/config-studio/versions/${versions[0].id}/diff`)).json();
    expect(diff.changes.length).toBeGreaterThan(0);
    const res = await call('POST', `/api/config-studio/versions/${first.id}/restore`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().version).toMatchObject({ restoredFrom: first.id, current: true, comment: `Przywrócenie wersji ${first.numbers.base}` });
    const served = (await t.call('GET', '/api/ui/config', { token: await as('manager') })).json();
    expect(served.locales.pl.car.fields).toMatchObject({ rejestr: 'Rejestracja', marka: 'Marka' });
    expect(served.screens['vehicles-table'].columns[0].id).toBe('rejestr');
    expect(await vehiclesLabel('t.localhost')).toBe('Rejestracja');
    expect((await call('POST', '/api/config-studio/versions/99999/restore', {})).statusCode).toBe(404);
  });

  it('exports the layer as files that pass the check and give the bundle the portal serves, and imports them again', async () => {
    // a change of the base, of a variant's app settings and of a variant's texts
    expect((await call('PUT', '/api/config-studio/texts', { scope: 't', key: 'car:fields.rejestr', text: 'Numer auta (T)' })).statusCode).toBe(200);
    const app = (await call('GET', '/api/config-studio/document?scope=t&path=screens/app.json')).json().effective;
    expect((await call('PUT', '/api/config-studio/documents', { changes: [{ scope: 't', path: 'screens/app.json', document: { ...app, loginAppName: 'Portal T' } }] })).statusCode).toBe(200);
    expect((await publish('do eksportu')).statusCode).toBe(200);

    const exported = await call('GET', '/api/config-studio/export?source=published');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="konfiguracja-published-/);
    const { format, files } = exported.json();
    expect(format).toBe('fleet-portal-config/1');
    expect(Object.keys(files).sort()).toEqual(['client-variants/t/locales/pl/car.json', 'client-variants/t/variant.json', 'locales/pl/car.json']);

    const dir = mkdtempSync(join(tmpdir(), 'studio-export-'));
    try {
      for (const sub of ['screens', 'schemas', 'locales', 'client-variants', 'assets'].filter((d) => existsSync(join(ROOT, d)))) cpSync(join(ROOT, sub), join(dir, sub), { recursive: true });
      for (const [file, content] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, file)), { recursive: true });
        writeFileSync(join(dir, file), JSON.stringify(content, null, 2));
      }
      const fromFiles = loadVariants({ root: dir });
      for (const [variant, bundle] of fromFiles.bundles) {
        const served = (await t.call('GET', '/api/ui/config', { token: await as('manager'), headers: variant === 'default' ? {} : { host: `${[...fromFiles.byHost].find(([, v]) => v === variant)![0]}` } })).json();
        expect(bundle.locales.pl.car, variant).toEqual(served.locales.pl.car);
        expect(bundle.app.loginAppName, variant).toBe(served.app.loginAppName);
      }
      expect(loadBundle({ root: dir, variant: 't' }).app.loginAppName).toBe('Portal T');
      expect(loadBundle({ root: dir, variant: 'example' }).locales.pl.car.fields).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }

    // imported again into a draft, the draft equals what was published
    const imported = await call('POST', '/api/config-studio/import', { format, files });
    expect(imported.statusCode).toBe(200);
    expect(imported.json().draft.paths).toEqual([]);
    expect((await call('GET', '/api/config-studio/draft/diff')).json().changes).toEqual([]);
    expect((await call('POST', '/api/config-studio/draft/discard')).json()).toEqual({ draft: null });
  });

  it("serves the configuration's meta-schemas for the JSON editor", async () => {
    const { schemas } = (await call('GET', '/api/config-studio/meta-schemas')).json();
    expect(schemas['meta/table']).toMatchObject({ $id: 'meta/table', type: 'object' });
    expect(schemas['meta/common']).toBeDefined();
  });

  it('answers bad requests 400 and unknown documents 404', async () => {
    expect((await call('GET', '/api/config-studio/document?scope=base&path=../package.json')).statusCode).toBe(400);
    expect((await call('GET', '/api/config-studio/document?scope=nie-ma&path=screens/menu.json')).statusCode).toBe(404);
    expect((await call('GET', '/api/config-studio/document?scope=base&path=screens/nie-ma.json')).statusCode).toBe(404);
    const unknown = await call('PUT', '/api/config-studio/texts', { scope: 'base', key: 'car:nie.ma', text: 'x' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'UNKNOWN_KEY', detail: 'Nie ma tekstu o kluczu car:nie.ma.' });
    expect((await call('POST', '/api/config-studio/publish', { comment: 'nic' })).statusCode).toBe(404);
    expect((await call('POST', '/api/config-studio/import', { format: 'inny', files: {} })).statusCode).toBe(400);
  });
});
