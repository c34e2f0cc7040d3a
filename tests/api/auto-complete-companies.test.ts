/**
 * POST /api/auto-complete/companies (spec §7 "also POST with additionalParams", issue 23): the
 * same companies as the GET, for any signed-in user (ACCESS.md), narrowed by
 * additionalParams.rodzaj; companies are suppliers, so no client's row is ever answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const tokens = {} as Record<DemoAccount, string>;
const search = (who: DemoAccount | null, body: unknown, options: { sign?: boolean; token?: string } = {}) =>
  t.call('POST', '/api/auto-complete/companies', { token: options.token ?? (who ? tokens[who] : undefined), body, sign: options.sign });
const names = (res: { json(): any }) => (res.json() as { firmaNazwa: string }[]).map((c) => c.firmaNazwa);

beforeAll(async () => {
  t = await startTestApp();
  for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as DemoAccount[]) tokens[who] = await t.signIn(who);
}, 120_000);
afterAll(async () => t?.close());

describe('POST /api/auto-complete/companies', () => {
  it('answers the companies whose name or code contains the text, as the GET does, for every role', async () => {
    for (const who of ['admin', 'manager', 'kierowca', 'doradca'] as DemoAccount[]) {
      const res = await search(who, { searchText: 'kow' });
      expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
      expect(names(res)).toContain('Auto-Serwis Kowalczyk Sp. j.');
    }
    const get = await t.call('GET', '/api/auto-complete/companies?searchText=sp.&additionalParam=SERWIS', { token: tokens.manager });
    const post = await search('manager', { searchText: 'sp.', additionalParams: { rodzaj: ['SERWIS'] } });
    expect(post.json()).toEqual(get.json());
    expect((await search('manager', { searchText: 'ko' })).json()).toEqual([]);
  });

  it('narrows to the kinds of additionalParams.rodzaj', async () => {
    const fuel = names(await search('kierowca', { searchText: 'polsk', additionalParams: { rodzaj: ['PALIWO'] } }));
    expect(fuel).toEqual(['Shell Polska Sp. z o.o.']);
    const two = names(await search('kierowca', { searchText: 'polsk', additionalParams: { rodzaj: ['PALIWO', 'UBEZPIECZYCIEL'] } }));
    expect(two).toEqual(['Shell Polska Sp. z o.o.', 'TUiR Allianz Polska S.A.']);
  });

  it('never answers a client: manager2 learns nothing of the manager\'s client Transbud', async () => {
    expect((await search('manager2', { searchText: 'transbud' })).json()).toEqual([]);
    const all = (await search('manager2', { searchText: 'sp. z o.o' })).json() as { nip: string | null; firma: string }[];
    expect(all.length).toBeGreaterThan(0);
    expect(all.map((c) => c.nip)).not.toContain('5213456789'); // Transbud's NIP (KL001)
    expect(all.map((c) => c.firma)).not.toContain('KL001');
  });

  it('refuses a caller without a session, with a forged token or without a signature', async () => {
    const anonymous = await search(null, { searchText: 'kow' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED', detail: 'Sesja wygasła lub jest nieprawidłowa. Zaloguj się ponownie.' });
    expect((await search(null, { searchText: 'kow' }, { token: 'A'.repeat(43) })).statusCode).toBe(401);
    const unsigned = await search('manager', { searchText: 'kow' }, { sign: false });
    expect(unsigned.statusCode).toBe(400);
    expect(unsigned.json()).toMatchObject({ code: 'SIGNATURE_MISSING' });
  });

  it('answers bad input with 400 naming the field in Polish', async () => {
    const kind = await search('manager', { searchText: 'kow', additionalParams: { rodzaj: ['KLIENT'] } });
    expect(kind.statusCode).toBe(400);
    expect(kind.json()).toMatchObject({ code: 'VALIDATION', errors: [{ field: 'additionalParams.rodzaj.0', message: 'Wybierz jedną z dostępnych wartości' }] });
    const missing = await search('manager', { additionalParams: {} });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'searchText', message: 'Pole nie może być puste' }]);
    const long = await search('manager', { searchText: 'x'.repeat(51) });
    expect(long.json().errors).toEqual([{ field: 'searchText', message: 'Pole może mieć najwyżej 50 znaków' }]);
  });
});
