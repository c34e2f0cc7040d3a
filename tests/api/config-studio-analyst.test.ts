/**
 * The configuration studio for an analyst who is not a developer (issue 38), through the API:
 * each text found with where it is shown in the screens' words, the studio's own texts apart, the
 * namespaces and the variants by their names, versions numbered per scope without gaps, "as in
 * the files" (version 0) restorable per scope, and one change taken back out of the draft; a text
 * in Polish, English and Ukrainian side by side, a missing translation shown and filled, published
 * live (issue 48).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('the configuration studio, for an analyst', () => {
  let t: TestApp;
  let token = '';
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => t.call(method, url, { token, body });
  const saveText = async (scope: string, key: string, text: string) => {
    const res = await call('PUT', '/api/config-studio/texts', { scope, key, text });
    expect(res.statusCode, res.body).toBe(200);
  };
  const publish = async (comment: string) => {
    const res = await call('POST', '/api/config-studio/publish', { comment });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const served = async (host?: string) =>
    (await t.call('GET', '/api/ui/config', { token: await t.signIn('manager'), headers: host ? { host } : {} })).json().locales.pl.car.fields.rejestr as string;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.signIn('admin');
  }, 120_000);
  afterAll(async () => t?.close());

  it('says where each text found is shown, in the words of the screens, and leaves the studio\'s own texts out', async () => {
    const found = (await call('GET', `/api/config-studio/texts?scope=base&q=${encodeURIComponent('Nr rejestracyjny')}`)).json().items;
    const plate = found.find((h: any) => h.key === 'car:fields.rejestr');
    expect(plate.places).toContain('Dane pojazdu → kolumna');
    expect(found.find((h: any) => h.key === 'order:fields.rejestr').places).toContain('Zlecenia → kolumna');
    // every place is words of the screens, never a key
    for (const hit of found) for (const place of hit.places) expect(place).not.toMatch(/^[a-z-]+:/);
    // the studio's help text names "Nr rejestracyjny" too: it is not among the portal's texts
    expect(found.some((h: any) => h.key.startsWith('config-studio:'))).toBe(false);
    const own = (await call('GET', `/api/config-studio/texts?scope=base&ns=config-studio&q=${encodeURIComponent('Nr rejestracyjny')}`)).json().items;
    expect(own.map((h: any) => h.key)).toContain('config-studio:texts.intro');
    const forms = (await call('GET', `/api/config-studio/texts?scope=base&ns=order&q=${encodeURIComponent('Opis zlecenia')}`)).json().items;
    expect(forms.every((h: any) => h.key.startsWith('order:'))).toBe(true);
  });

  it('names the namespaces as the menu names the screens, once each, and the variants by their configuration', async () => {
    const overview = (await call('GET', '/api/config-studio')).json();
    const names = new Map(overview.namespaces.map((n: any) => [n.id, n.name]));
    expect(names.get('car')).toBe('Dane pojazdu');
    expect(names.get('order')).toBe('Zlecenia');
    expect(names.get('acceptance-history')).toBe('Historia akceptacji');
    const all = overview.namespaces.map((n: any) => n.name);
    expect(new Set(all).size).toBe(all.length);
    // no English id as a name (every name has a capital or a Polish word, not `config-preview`)
    for (const n of overview.namespaces) expect(n.name).not.toBe(n.id);
    expect(overview.namespaces.filter((n: any) => n.own).map((n: any) => n.id).sort()).toEqual(['config-preview', 'config-studio', 'studio']);
    expect(overview.scopeNames).toMatchObject({ base: 'Portal bazowy', t: 'Klient T', p: 'Klient P' });
  });

  it('numbers versions per scope without gaps, restores a scope to the files (version 0) and leaves the others', async () => {
    await saveText('base', 'car:fields.rejestr', 'Rejestracja');
    let version = (await publish('baza 1')).version;
    expect(version.numbers).toEqual({ base: 1 });
    // a discarded draft takes an id of the table: numbers do not care
    await saveText('base', 'car:fields.marka', 'Marka (szkic)');
    expect((await call('POST', '/api/config-studio/draft/discard')).statusCode).toBe(200);
    await saveText('t', 'car:fields.rejestr', 'Numer auta (T)');
    version = (await publish('T 1')).version;
    expect(version).toMatchObject({ numbers: { base: 1, t: 1 }, scopes: ['t'] });
    await saveText('base', 'car:fields.rejestr', 'Rejestracja pojazdu');
    version = (await publish('baza 2')).version;
    expect(version).toMatchObject({ numbers: { base: 2, t: 1 }, scopes: ['base'] });

    const base = (await call('GET', '/api/config-studio/versions?scope=base')).json().items;
    expect(base.map((v: any) => [v.numbers.base, v.comment, v.current])).toEqual([[2, 'baza 2', true], [1, 'baza 1', false]]);
    const ofT = (await call('GET', '/api/config-studio/versions?scope=t')).json().items;
    expect(ofT.map((v: any) => [v.numbers.t, v.comment, v.current])).toEqual([[1, 'T 1', true]]);
    const diff = (await call('GET', `/api/config-studio/versions/${ofT[0].id}/diff?scope=t`)).json().changes;
    expect(diff.map((c: any) => c.after)).toEqual(['Numer auta (T)']);
    expect(diff[0].text).toMatch(/^Klient T · /);

    // T as in the files: version 0 of T, published as T's version 2; the base portal's change stays
    const restored = await call('POST', '/api/config-studio/versions/0/restore', { scope: 't' });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json().version).toMatchObject({ numbers: { base: 2, t: 2 }, scopes: ['t'], restoredFrom: null, comment: 'Przywrócenie wersji 0 (Klient T)' });
    expect(await served('t.localhost')).toBe('Rejestracja pojazdu');
    expect(await served()).toBe('Rejestracja pojazdu');
    // nothing left to restore: T is as in the files already
    expect((await call('POST', '/api/config-studio/versions/0/restore', { scope: 't' })).statusCode).toBe(409);
    // the base portal back to its version 1, T untouched
    const back = await call('POST', `/api/config-studio/versions/${base[1].id}/restore`, { scope: 'base' });
    expect(back.json().version.numbers).toEqual({ base: 3, t: 2 });
    expect(await served()).toBe('Rejestracja');
  });

  it('takes one change back out of the draft and keeps the others', async () => {
    await saveText('base', 'car:fields.marka', 'Marka auta');
    await saveText('base', 'car:fields.rokProd', 'Rok');
    const doc = (await call('GET', '/api/config-studio/document?scope=base&path=screens/vehicles-table.json')).json();
    const columns = doc.effective.columns.filter((c: any) => c.id !== 'nrPodw');
    expect((await call('PUT', '/api/config-studio/documents', { changes: [{ scope: 'base', path: 'screens/vehicles-table.json', document: { ...doc.effective, columns } }] })).statusCode).toBe(200);
    const changes = (await call('GET', '/api/config-studio/draft/diff')).json().changes;
    expect(changes).toHaveLength(3);
    const marka = changes.find((c: any) => c.after === 'Marka auta');
    const reverted = await call('POST', '/api/config-studio/draft/revert', { scope: marka.scope, path: marka.path, at: marka.at });
    expect(reverted.statusCode, reverted.body).toBe(200);
    const left = (await call('GET', '/api/config-studio/draft/diff')).json().changes;
    expect(left.map((c: any) => c.path).sort()).toEqual(['locales/pl/car.json', 'screens/vehicles-table.json']);
    // the removed column comes back where it was
    const vin = left.find((c: any) => c.path === 'screens/vehicles-table.json');
    expect(vin.at).toEqual(['columns', { id: 'nrPodw' }]);
    expect((await call('POST', '/api/config-studio/draft/revert', { scope: 'base', path: vin.path, at: vin.at })).statusCode).toBe(200);
    const again = (await call('GET', '/api/config-studio/document?scope=base&path=screens/vehicles-table.json')).json();
    expect(again.effective.columns.map((c: any) => c.id)).toEqual(doc.effective.columns.map((c: any) => c.id));
    // a change no longer in the draft: 404, nothing saved
    expect((await call('POST', '/api/config-studio/draft/revert', { scope: 'base', path: vin.path, at: vin.at })).statusCode).toBe(404);
    expect((await call('POST', '/api/config-studio/draft/revert', { scope: 'base', path: 'screens/../x.json', at: [] })).statusCode).toBe(404);
    expect((await call('POST', '/api/config-studio/draft/revert', { scope: 'base', path: 'locales/pl/car.json', at: 'fields' })).statusCode).toBe(400);
  });

  it('edits a text in every language side by side, shows the translations missing, and publishes them live', async () => {
    // the last test's draft is left behind: this one starts from the published version
    expect([200, 404]).toContain((await call('POST', '/api/config-studio/draft/discard')).statusCode);
    const overview = (await call('GET', '/api/config-studio')).json();
    expect(overview.languages).toEqual([{ id: 'pl', name: 'Polski' }, { id: 'en', name: 'English' }, { id: 'uk', name: 'Українська' }]);
    // a text every language has: its English and Ukrainian beside the Polish
    const plate = (await call('GET', `/api/config-studio/texts?scope=base&q=${encodeURIComponent('car:fields.rejestr')}`)).json().items
      .find((h: any) => h.key === 'car:fields.rejestr');
    expect(plate.translations.map((tr: any) => [tr.id, tr.missing])).toEqual([['en', false], ['uk', false]]);
    expect(plate.translations[0].text).toBe((await t.call('GET', '/api/ui/config', { headers: { 'accept-language': 'en' } })).json().locales.en.car.fields.rejestr);
    // found by its English words too
    const byEnglish = (await call('GET', `/api/config-studio/texts?scope=base&q=${encodeURIComponent(plate.translations[0].text)}`)).json().items;
    expect(byEnglish.map((h: any) => h.key)).toContain('car:fields.rejestr');

    // a new Polish text (as the menu's new entry adds one) has no English or Ukrainian yet: shown missing
    const custom = (await call('PUT', '/api/config-studio/documents', { changes: [{ scope: 'base', path: 'locales/pl/custom.json', document: { greeting: 'Dzień dobry' } }] }));
    expect(custom.statusCode, custom.body).toBe(200);
    const before = (await call('GET', '/api/config-studio/texts?scope=base&ns=custom&q=greeting')).json().items;
    expect(before).toEqual([expect.objectContaining({ key: 'custom:greeting', text: 'Dzień dobry', translations: [
      { id: 'en', text: '', filesText: '', changed: false, missing: true },
      { id: 'uk', text: '', filesText: '', changed: false, missing: true },
    ] })]);

    // a language the portal does not offer is refused, nothing saved
    const refused = await call('PUT', '/api/config-studio/texts', { scope: 'base', key: 'custom:greeting', text: 'Dzień dobry', translations: { de: 'Guten Tag' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].field).toBe('translations.de');

    // the three side by side in one save
    const saved = await call('PUT', '/api/config-studio/texts', { scope: 'base', key: 'custom:greeting', text: 'Dzień dobry!', translations: { en: 'Good morning!', uk: 'Добрий день!' } });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = (await call('GET', '/api/config-studio/texts?scope=base&ns=custom&q=greeting')).json().items[0];
    expect(after.text).toBe('Dzień dobry!');
    expect(after.translations.map((tr: any) => [tr.id, tr.text, tr.missing, tr.changed])).toEqual([['en', 'Good morning!', false, true], ['uk', 'Добрий день!', false, true]]);
    // the draft's changes name the language of a translation
    const diff = (await call('GET', '/api/config-studio/draft/diff')).json().changes.map((c: any) => c.text);
    expect(diff.some((text: string) => text.includes('custom:greeting, English') && text.includes('Good morning!'))).toBe(true);

    // published: each language's readers get their own text at once
    await publish('Powitanie w trzech językach');
    const servedIn = async (language: string) => (await t.call('GET', '/api/ui/config', { headers: { 'accept-language': language } })).json().locales[language].custom.greeting;
    expect(await servedIn('pl')).toBe('Dzień dobry!');
    expect(await servedIn('en')).toBe('Good morning!');
    expect(await servedIn('uk')).toBe('Добрий день!');
  });
});
