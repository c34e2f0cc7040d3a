/**
 * Each person reads the portal in his language (issue 48): the bundle and the pre-configuration in
 * the caller's language alone, error answers in it with the same codes, and the account's choice
 * (GET/PUT /api/account/language) winning over the browser's; an import run's row errors, checked
 * on a job after its request has answered, in the language of the caller who sent it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { importRuns } from '../support/imports.ts';
import { postMultipart } from '../support/multipart.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('the portal in the caller’s language', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('sends the bundle in the browser’s language alone, with its locale, and in Polish by default', async () => {
    const english = await t.call('GET', '/api/ui/config', { headers: { 'accept-language': 'en-US,en;q=0.9,pl;q=0.5' } });
    const body = english.json();
    expect(body.language).toBe('en');
    expect(Object.keys(body.locales)).toEqual(['en']);
    expect(body.locales.en.menu.items.vehicles).toBe('Vehicles');
    expect(body.config.locale).toBe('en-GB');
    expect(body.languages.map((l: { id: string }) => l.id)).toContain('pl');
    const polish = await t.call('GET', '/api/ui/config');
    expect(polish.json().language).toBe('pl');
    expect(polish.json().locales.pl.menu.items.vehicles).toBe('Dane pojazdu');
    expect(polish.headers.etag).not.toBe(english.headers.etag);
    // a language the portal does not offer: the default
    expect((await t.call('GET', '/api/ui/config', { headers: { 'accept-language': 'de-DE' } })).json().language).toBe('pl');
  });

  it('follows the sign-in page’s choice (cookie) over the browser, also in the visitor’s part of the pre-configuration', async () => {
    const pre = (await t.call('GET', '/api/init/pre-config', { headers: { cookie: 'portal.lang=en', 'accept-language': 'pl' } })).json();
    expect(pre.guest.language).toBe('en');
    expect(Object.keys(pre.guest.locales)).toEqual(['en']);
    expect(pre.guest.locales.en.login.submit).toBe('Sign in');
  });

  it('words an error answer in the caller’s language with the same code', async () => {
    const polish = await t.call('GET', '/api/notifications');
    const english = await t.call('GET', '/api/notifications', { headers: { 'accept-language': 'en' } });
    expect(polish.statusCode).toBe(401);
    expect(english.statusCode).toBe(401);
    expect(english.json().code).toBe(polish.json().code);
    expect(english.json().detail).toBe('Your session has expired or is invalid. Please sign in again.');
    expect(polish.json().detail).not.toBe(english.json().detail);
  });

  it('keeps the language on the account: it wins over the browser in every later answer', async () => {
    const token = await t.signIn('manager');
    const before = (await t.call('GET', '/api/account/language', { token })).json();
    expect(before).toMatchObject({ language: 'pl', chosen: null });
    expect(before.languages).toContainEqual({ id: 'en', name: 'English' });

    const refused = await t.call('PUT', '/api/account/language', { token, body: { language: 'xx' }, sign: true });
    expect(refused.statusCode).toBe(400);

    const saved = await t.call('PUT', '/api/account/language', { token, body: { language: 'en' }, sign: true });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ language: 'en', chosen: 'en', message: 'Language saved.' });

    const bundle = (await t.call('GET', '/api/ui/config', { token, headers: { 'accept-language': 'pl' } })).json();
    expect(bundle.language).toBe('en');
    expect((await t.call('GET', '/api/account/language', { token, headers: { 'accept-language': 'pl' } })).json().chosen).toBe('en');
  });

  it('words an import run\'s row errors and message in its caller\'s language: Accept-Language, then his account\'s', async () => {
    const admin = await t.signIn('admin');
    const client = (await t.app.db.selectFrom('client').select('klient').orderBy('klient').executeTakeFirstOrThrow()).klient;
    const csv = 'VIN;Klient;Nr rejestracyjny;Rok produkcji;Data rejestracji\n'
      + `LANGVIN0000000001;${client};WL1001A;dwa tysiące;31.02.2020\n` // the row thread: not a number, no such day
      + 'LANGVIN0000000002;NIEMA;WL1002A;2020;\n'; // the database's check: no such client
    const runIn = async (headers: Record<string, string>) => {
      const sent = await postMultipart(t, '/api/import/runs', admin, [
        { name: 'declaration', value: 'car' }, { name: 'mode', value: 'dryRun' },
        { name: 'file', filename: 'jezyk.csv', content: csv },
      ], { headers });
      expect(sent.statusCode, sent.body).toBe(202);
      const run = await importRuns(t, admin).finished(sent.json().id);
      return { message: run.message, errors: run.errors.map((e: { row: number; column: string; message: string }) => [e.row, e.column, e.message]) };
    };

    expect(await runIn({ 'accept-language': 'en-GB,en;q=0.9' })).toEqual({
      message: 'Dry run finished: new 0, changed 0, unchanged 0, to deactivate 0, errors 2',
      errors: [
        [2, 'Rok produkcji', 'Invalid whole number'],
        [2, 'Data rejestracji', 'No such day exists in the calendar'],
        [3, 'Klient', 'There is no client with this code'],
      ],
    });
    // the Polish office sends the same file: Polish, as before
    expect((await runIn({ 'accept-language': 'pl' })).errors[0]).toEqual([2, 'Rok produkcji', 'Niepoprawna liczba całkowita']);

    // his account's language wins over what his browser sends
    const saved = await t.call('PUT', '/api/account/language', { token: admin, body: { language: 'uk' }, sign: true });
    expect(saved.statusCode).toBe(200);
    expect(await runIn({ 'accept-language': 'en' })).toEqual({
      message: 'Пробний прогін завершено: нові 0, змінені 0, без змін 0, до деактивації 0, помилки 2',
      errors: [
        [2, 'Rok produkcji', 'Некоректне ціле число'],
        [2, 'Data rejestracji', 'Такого дня немає в календарі'],
        [3, 'Klient', 'Клієнта з таким символом не існує'],
      ],
    });
  });

  it('names a trail entry\'s fields and values in the reader\'s language: Dziennik zmian\'s list (Zmienione pola) and details', async () => {
    const token = await t.signIn('admin');
    const entry = await t.app.db.selectFrom('audit_entry').select(['id', 'recordKey']).where('resource', '=', 'login')
      .where('actorLabel', '=', 'admin').orderBy('id', 'desc').executeTakeFirstOrThrow();
    // the reader's language as the portal knows it: his account's (which wins over the browser's)
    const read = async (language: string) => {
      expect((await t.call('PUT', '/api/account/language', { token, body: { language }, sign: true })).statusCode).toBe(200);
      const answer = await t.call('GET', `/api/audit/${entry.id}/changes`, { token });
      expect(answer.statusCode).toBe(200);
      const list = await t.call('POST', '/api/audit/table2', { token, body: {
        startRow: 0, endRow: 50, sortModel: [],
        filterModel: { resource: { filterType: 'text', type: 'equals', filter: 'login' }, recordKey: { filterType: 'text', type: 'equals', filter: String(entry.recordKey) } },
      } });
      expect(list.statusCode, list.body).toBe(200);
      return {
        listed: list.json().rows.find((r: { id: number }) => Number(r.id) === Number(entry.id))?.fields,
        ...answer.json().changes.find((c: { field: string }) => c.field === 'method'),
      };
    };
    expect(await read('uk')).toMatchObject({ listed: 'Спосіб входу', label: 'Спосіб входу', after: 'пароль' });
    expect(await read('en')).toMatchObject({ listed: 'Sign-in method', label: 'Sign-in method', after: 'password' });
    expect(await read('pl')).toMatchObject({ listed: 'Sposób logowania', label: 'Sposób logowania', after: 'hasło' });
  });
  it('filters "Zmienione pola" by the words of the reader\'s language: a Ukrainian reader finds an entry by its Ukrainian label', async () => {
    const token = await t.signIn('admin');
    const entry = await t.app.db.selectFrom('audit_entry').select(['id', 'recordKey']).where('resource', '=', 'login')
      .where('actorLabel', '=', 'admin').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const found = async (language: string, words: string) => {
      expect((await t.call('PUT', '/api/account/language', { token, body: { language }, sign: true })).statusCode).toBe(200);
      const list = await t.call('POST', '/api/audit/table2', { token, body: {
        startRow: 0, endRow: 50, sortModel: [],
        filterModel: {
          resource: { filterType: 'text', type: 'equals', filter: 'login' }, recordKey: { filterType: 'text', type: 'equals', filter: String(entry.recordKey) },
          fields: { filterType: 'text', type: 'contains', filter: words },
        },
      } });
      expect(list.statusCode, list.body).toBe(200);
      return list.json().rows.some((r: { id: number }) => Number(r.id) === Number(entry.id));
    };
    expect(await found('uk', 'спосіб вх')).toBe(true);
    expect(await found('uk', 'Sposób logowania')).toBe(false);
    expect(await found('en', 'sign-in METHOD')).toBe(true);
    expect(await found('en', 'Спосіб')).toBe(false);
    expect(await found('pl', 'Sposób logowania')).toBe(true);
    expect(await found('pl', 'Спосіб')).toBe(false);
    // every offered language's labels are kept (migration 054), the source language's as before
    const languages = await t.app.db.selectFrom('audit_field_label').select('language').distinct().execute();
    expect(languages.map((l) => l.language).sort()).toEqual(['en', 'pl', 'uk']);
  });
  it('sorts "Zmienione pola" by the words of the reader\'s language, a block at a time as well as at once', async () => {
    const token = await t.signIn('admin');
    // two changes of one vehicle whose fields sort one way in Polish and Ukrainian ("Marka" before
    // "Stan paliwa", "Марка" before "Рівень пального") and the other in English ("Fuel level" before "Make")
    const recordKey = 'sort-by-language';
    const ids: Record<string, number> = {};
    for (const field of ['marka', 'stanPal']) {
      await t.app.db.transaction().execute((trx) => recordChange(trx, { actor: systemActor('test'), resource: 'car', recordKey, action: 'update', changes: { [field]: ['a', 'b'] } }));
      ids[field] = Number((await t.app.db.selectFrom('audit_entry').select('id').where('recordKey', '=', recordKey).orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
    }
    const body = (startRow: number, endRow: number, cursor?: string) => ({
      startRow, endRow, ...(cursor ? { cursor } : {}),
      sortModel: [{ colId: 'fields', sort: 'asc' }],
      filterModel: { resource: { filterType: 'text', type: 'equals', filter: 'car' }, recordKey: { filterType: 'text', type: 'equals', filter: recordKey } },
    });
    const sorted = async (language: string) => {
      expect((await t.call('PUT', '/api/account/language', { token, body: { language }, sign: true })).statusCode).toBe(200);
      const all = await t.call('POST', '/api/audit/table2', { token, body: body(0, 50) });
      expect(all.statusCode, all.body).toBe(200);
      // one row a block: the second block continues the first by its cursor (keyset over the shown words)
      const first = await t.call('POST', '/api/audit/table2', { token, body: body(0, 1) });
      const second = await t.call('POST', '/api/audit/table2', { token, body: body(1, 2, first.json().cursor) });
      expect(first.json().cursor).toBeTruthy();
      const rows = (answer: { json(): { rows: { id: number; fields: string }[] } }) => answer.json().rows.map((r) => [Number(r.id), r.fields]);
      expect([...rows(first), ...rows(second)]).toEqual(rows(all));
      return rows(all);
    };
    expect(await sorted('pl')).toEqual([[ids.marka, 'Marka'], [ids.stanPal, 'Stan paliwa']]);
    expect(await sorted('uk')).toEqual([[ids.marka, 'Марка'], [ids.stanPal, 'Рівень пального']]);
    expect(await sorted('en')).toEqual([[ids.stanPal, 'Fuel level'], [ids.marka, 'Make']]);
  });

  it('writes dates by the reader\'s language: DD/MM/YYYY for an English reader, DD.MM.YYYY for Polish and Ukrainian ones', async () => {
    // the runtime is told the pattern with the locale (screens/app.json config.languages[].datePattern)
    const config = async (language: string) => (await t.call('GET', '/api/ui/config', { headers: { 'accept-language': language } })).json().config;
    expect(await config('en')).toMatchObject({ locale: 'en-GB', datePattern: 'DD/MM/YYYY' });
    expect(await config('uk')).toMatchObject({ locale: 'uk-UA', datePattern: 'DD.MM.YYYY' });
    expect(await config('pl')).toMatchObject({ locale: 'pl-PL', datePattern: 'DD.MM.YYYY' });

    // the server's own words: a record's history (a date and an instant of the trail) in the reader's pattern
    const token = await t.signIn('admin');
    const user = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'users', recordKey: user.id, action: 'update',
      changes: { dataDo: ['2026-01-05', '2027-11-27'], lockedUntil: [null, '2027-12-03T06:56:49.461Z'] },
    }));
    const history = async (language: string) => {
      expect((await t.call('PUT', '/api/account/language', { token, body: { language }, sign: true })).statusCode).toBe(200);
      const changes = (await t.call('GET', `/api/audit/history/users/${user.id}`, { token })).json().changes as { field: string; before: string; after: string }[];
      return [changes.find((c) => c.field === 'dataDo'), changes.find((c) => c.field === 'lockedUntil')].map((c) => c && `${c.before} → ${c.after}`);
    };
    expect(await history('en')).toEqual(['05/01/2026 → 27/11/2027', ' → 03/12/2027 07:56']);
    expect(await history('uk')).toEqual(['05.01.2026 → 27.11.2027', ' → 03.12.2027 07:56']);
    expect(await history('pl')).toEqual(['05.01.2026 → 27.11.2027', ' → 03.12.2027 07:56']);
  });
});
