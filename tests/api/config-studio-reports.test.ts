/**
 * Reports made in the configuration studio (issue 46, "an analyst adds a report without code"): a
 * new report document, copied from an existing one, lives in the draft only (no file), with its
 * name in Polish, English and Ukrainian; published, it is listed and runs for the roles it
 * declares, in the scope it was made in; a taken id is refused; forgetting it removes it; the
 * export writes it as a whole file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Result = { columns: { id: string; kind: string }[]; rows: { values: Record<string, number | string | null> }[]; totals: Record<string, number | null> };

describe('the configuration studio makes reports', () => {
  let t: TestApp;
  let token = '';
  let manager = '';
  let today = '';
  const day = (offset: number) => new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token, body });
  const path = (id: string) => `schemas/reports/${id}.json`;
  /** A copy of a served report with a new id and name key, as the studio's Raporty tab makes it. */
  const copyOf = async (from: string, id: string, scope = 'base') => {
    const source = (await call('GET', `/api/config-studio/document?scope=${scope}&path=${path(from)}`)).json().effective;
    return { ...source, report: id, label: `reports:list.${id}` };
  };
  const create = async (scope: string, id: string, document: unknown, name = 'Koszt paliwa na pojazd') =>
    call('POST', '/api/config-studio/document', {
      scope, path: path(id), document,
      texts: [{ key: `reports:list.${id}`, text: name, translations: { en: 'Fuel cost per vehicle', uk: 'Вартість пального на транспортний засіб' } }],
    });
  const listed = async (who: string, host?: string) =>
    (await t.call('GET', '/api/reports', { token: who, headers: host ? { host } : {} })).json() as { id: string; label: string; measures: { id: string }[] }[];

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.signIn('admin');
    manager = await t.signIn('manager');
    const seed = await t.app.db.selectFrom('app_setting').select('value').where('key', '=', 'seed').executeTakeFirstOrThrow();
    today = (typeof seed.value === 'string' ? JSON.parse(seed.value) : seed.value).today;
  }, 120_000);
  afterAll(async () => t?.close());

  it('creates a report from an existing one, checks it, publishes it, and a manager lists and runs it with totals equal to the rows', async () => {
    const document = { ...(await copyOf('vehicle-cost', 'fuel-cost')), measures: ['costNet', 'costGross', 'km'], chart: { type: 'bar', measure: 'costNet' } };
    delete document.pivot;
    const created = await create('base', 'fuel-cost', document);
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().draft.paths).toEqual(expect.arrayContaining(['schemas/reports/fuel-cost.json', 'locales/pl/reports.json', 'locales/en/reports.json', 'locales/uk/reports.json']));

    const overview = (await call('GET', '/api/config-studio')).json();
    expect(overview.documents.find((d: { path: string }) => d.path === path('fuel-cost'))).toMatchObject({ kind: 'report', id: 'fuel-cost', createdIn: ['base'] });
    expect(overview.documents.find((d: { path: string }) => d.path === path('vehicle-cost'))).toMatchObject({ kind: 'report' });
    const doc = (await call('GET', `/api/config-studio/document?scope=base&path=${path('fuel-cost')}`)).json();
    expect(doc).toMatchObject({ files: null, changed: true, effective: { report: 'fuel-cost', label: 'reports:list.fuel-cost' } });

    // an edit of the new document is checked as every other: a chart of a measure it does not show is refused, named by file and pointer
    const bad = await call('PUT', '/api/config-studio/documents', { changes: [{ scope: 'base', path: path('fuel-cost'), document: { ...document, chart: { type: 'bar', measure: 'litres' } } }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.map((e: { field: string }) => e.field)).toContain('schemas/reports/fuel-cost.json#/chart/measure');

    // not served before it is published
    expect((await listed(manager)).map((r) => r.id)).not.toContain('fuel-cost');
    expect((await listed(token)).map((r) => r.id)).not.toContain('fuel-cost');
    // but the studio's preview of the draft lists it and runs it, as the role it previews (the rows the administrator's)
    const asPreview = (query: string) => `?${new URLSearchParams({ studioPreview: query })}`;
    const previewed = (await t.call('GET', `/api/reports${asPreview('draft:default:MANAGER')}`, { token })).json() as { id: string; label: string }[];
    expect(previewed.find((r) => r.id === 'fuel-cost')).toMatchObject({ label: 'Koszt paliwa na pojazd' });
    const previewRun = await t.call('POST', `/api/reports/fuel-cost/run${asPreview('draft:default:MANAGER')}`, { token, body: { from: day(-300), to: day(0) } });
    expect(previewRun.statusCode, previewRun.body).toBe(200);
    expect((previewRun.json() as Result).columns.map((c) => c.id)).toEqual(expect.arrayContaining(['costNet', 'costGross', 'km']));
    const previewFile = await t.call('POST', `/api/reports/fuel-cost/export${asPreview('draft:default:MANAGER')}`, { token, body: { from: day(-300), to: day(0), format: 'xlsx' } });
    expect(previewFile.statusCode, previewFile.body).toBe(200);
    // the published layer's preview does not have it yet; a manager's preview is no preview (the studio is the administrator's)
    expect(((await t.call('GET', `/api/reports${asPreview('published:default:MANAGER')}`, { token })).json() as { id: string }[]).map((r) => r.id)).not.toContain('fuel-cost');
    expect(((await t.call('GET', `/api/reports${asPreview('draft:default:MANAGER')}`, { token: manager })).json() as { id: string }[]).map((r) => r.id)).not.toContain('fuel-cost');
    expect((await t.call('POST', `/api/reports/fuel-cost/run${asPreview('draft:default:MANAGER')}`, { token: manager, body: { from: day(-300), to: day(0) } })).statusCode).toBe(404);
    // a malformed preview is a 400 naming it
    const malformed = await t.call('GET', `/api/reports?studioPreview=${encodeURIComponent('draft:../x:MANAGER')}`, { token });
    expect(malformed.statusCode).toBe(400);
    const published = await call('POST', '/api/config-studio/publish', { comment: 'Nowy raport' });
    expect(published.statusCode, published.body).toBe(200);

    const report = (await listed(manager)).find((r) => r.id === 'fuel-cost');
    expect(report).toMatchObject({ label: 'Koszt paliwa na pojazd' });
    expect(report!.measures.map((m) => m.id)).toEqual(['costNet', 'costGross', 'km']);
    const res = await t.call('POST', '/api/reports/fuel-cost/run', { token: manager, body: { from: day(-300), to: day(0) } });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as Result;
    expect(result.rows.length).toBeGreaterThan(0);
    for (const measure of ['costNet', 'costGross', 'km']) {
      const sum = result.rows.reduce((s, row) => s + Number(row.values[measure] ?? 0), 0);
      expect(result.totals[measure], measure).toBeCloseTo(sum, 2);
    }
    // its name in each language, as published
    for (const [language, name] of [['en', 'Fuel cost per vehicle'], ['uk', 'Вартість пального на транспортний засіб']]) {
      const texts = (await call('GET', `/api/config-studio/document?scope=base&path=locales/${language}/reports.json`)).json().effective;
      expect(texts.list['fuel-cost'], language).toBe(name);
    }
  });

  it('refuses an id that is taken, by a file or by a report made before', async () => {
    for (const id of ['vehicle-cost', 'fuel-cost']) {
      const res = await create('base', id, await copyOf('cost-centre', id));
      expect(res.statusCode, id).toBe(409);
      expect(res.json()).toMatchObject({ code: 'DOCUMENT_EXISTS', errors: [{ field: 'path' }] });
    }
    // a variant sees the base portal's reports: taken there too
    expect((await create('t', 'fuel-cost', await copyOf('cost-centre', 'fuel-cost'))).statusCode).toBe(409);
    // outside the folders where the studio creates documents: none
    const screen = await call('POST', '/api/config-studio/document', { scope: 'base', path: 'schemas/reports/../../screens/x.json', document: {} });
    expect(screen.statusCode).toBe(400);
  });

  it('serves a report made in a variant to that variant only, and runs it for a role it declares', async () => {
    const document = { ...(await copyOf('cost-centre', 'mpk-t', 't')), roles: ['MANAGER'] };
    const created = await create('t', 'mpk-t', document, 'Koszty MPK klienta T');
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().draft.paths).toContain('client-variants/t/schemas/reports/mpk-t.json');
    const exported = (await call('GET', '/api/config-studio/export?source=draft')).json().files;
    // the export writes the new report whole, in the variant's folder
    expect(exported['client-variants/t/schemas/reports/mpk-t.json']).toMatchObject({ report: 'mpk-t', source: 'costs', roles: ['MANAGER'], dimensions: document.dimensions });
    expect((await call('POST', '/api/config-studio/publish', { comment: 'Raport klienta T' })).statusCode).toBe(200);

    expect((await listed(manager, 't.localhost')).find((r) => r.id === 'mpk-t')).toMatchObject({ label: 'Koszty MPK klienta T' });
    expect((await listed(manager)).map((r) => r.id)).not.toContain('mpk-t');
    expect((await listed(manager, 'p.localhost')).map((r) => r.id)).not.toContain('mpk-t');
    // the base portal's new report reaches the variant too
    expect((await listed(manager, 't.localhost')).map((r) => r.id)).toContain('fuel-cost');
    // it runs for the variant's manager (a role it declares)
    const body = { from: day(-300), to: day(0) };
    // a variant's request is signed with the variant's name
    const nonce = makeNonce();
    const headers = { host: 't.localhost', 'x-nonce': nonce, 'x-signature': signBody(t.app.config.forVariant('t').bundle.app.name, nonce, JSON.stringify(body)) };
    const run = await t.call('POST', '/api/reports/mpk-t/run', { token: manager, headers, body, sign: false });
    expect(run.statusCode, run.body).toBe(200);
  });

  it('forgets a new report out of the draft: it is gone from the studio', async () => {
    const created = await create('base', 'draft-only', { ...(await copyOf('vehicle-cost', 'draft-only')) }, 'Tylko szkic');
    expect(created.statusCode, created.body).toBe(200);
    const exported = (await call('GET', '/api/config-studio/export?source=draft')).json().files;
    expect(exported['schemas/reports/draft-only.json']).toMatchObject({ report: 'draft-only', pivot: { dimension: 'category' } });
    const forgot = await call('DELETE', `/api/config-studio/document?scope=base&path=${path('draft-only')}`);
    expect(forgot.statusCode, forgot.body).toBe(200);
    expect(forgot.json().draft.paths).not.toContain('schemas/reports/draft-only.json');
    const overview = (await call('GET', '/api/config-studio')).json();
    expect(overview.documents.map((d: { path: string }) => d.path)).not.toContain(path('draft-only'));
    expect((await call('GET', `/api/config-studio/document?scope=base&path=${path('draft-only')}`)).statusCode).toBe(404);
    const preview = (await call('GET', '/api/config-studio/preview?variant=default&source=draft')).json();
    expect(Object.keys(preview.reports ?? {})).not.toContain('draft-only');
  });
});
