/**
 * Integration accounts and their keys (issue 34, ACCESS.md "An integration key is judged as a
 * MANAGER of the clients it names …"): the administrator's calls, and what a key may then do —
 * read its clients' rows of the resources of its scopes and nothing else, under every spelling of
 * a path; expire; be revoked at once, in this process and (on PostgreSQL) in another one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { databaseUrlFor } from '../../server/seed/testing.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const databaseUrl = process.env.DATABASE_URL;
const block = { startRow: 0, endRow: 100 };

class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
}

/** An unsigned call with a key, as an integration makes it (no X-Nonce, no X-Signature). */
function keyCall(app: FastifyInstance, key: string | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, remoteAddress?: string) {
  const headers: Record<string, string> = {};
  if (key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return app.inject({ method, url, headers, payload: body === undefined ? undefined : JSON.stringify(body), remoteAddress });
}

describe('integration accounts and keys', () => {
  let t: TestApp;
  let admin: string;
  const log = new Captured();
  /** Two clients with vehicles, and a third. */
  let A: string;
  let B: string;
  let C: string;
  let carsOf: Record<string, { pojazdId: number; rejestr: string }[]>;

  const createAccount = async (body: Record<string, unknown>) => t.call('POST', '/api/integration-accounts', { token: admin, body });
  const createKey = async (accountId: number, body: Record<string, unknown> = {}) => t.call('POST', `/api/integration-accounts/${accountId}/keys`, { token: admin, body });
  async function accountWithKey(name: string, clients: string[] | 'all', scopes: string[]) {
    const res = await createAccount({ name, allClients: clients === 'all', clients: clients === 'all' ? [] : clients, scopes });
    expect(res.statusCode, res.body).toBe(201);
    const account = res.json();
    const made = await createKey(account.id);
    expect(made.statusCode, made.body).toBe(201);
    return { account, key: made.json().key as string, keyId: made.json().id as number };
  }
  const plates = (rows: { rejestr?: string }[]) => rows.map((r) => r.rejestr);
  /** A client as the screens name it: "Transbud Sp. z o.o. (KL001)". */
  const clientText = async (klient: string) =>
    `${(await t.app.db.selectFrom('client').select('klientNazwa').where('klient', '=', klient).executeTakeFirstOrThrow()).klientNazwa} (${klient})`;

  beforeAll(async () => {
    t = await startTestApp({ logStream: log });
    admin = await t.signIn('admin');
    const cars = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'klientSymbol']).execute();
    carsOf = {};
    for (const car of cars) (carsOf[car.klientSymbol ?? ''] ??= []).push({ pojazdId: car.pojazdId, rejestr: car.rejestr ?? '' });
    [A, B, C] = Object.keys(carsOf).filter(Boolean).sort((x, y) => carsOf[y].length - carsOf[x].length);
    expect(C).toBeDefined();
  }, 120_000);
  afterAll(async () => t?.close());

  it('offers the scopes of the resources a fleet manager reads, named as the menu names them, and never users or the login history', async () => {
    const res = await t.call('GET', '/api/integration-accounts/scopes', { token: admin });
    expect(res.statusCode).toBe(200);
    const scopes = res.json() as { scope: string; label: string }[];
    const byScope = Object.fromEntries(scopes.map((s) => [s.scope, s.label]));
    expect(byScope['read:car']).toBe('Odczyt: Dane pojazdu');
    expect(byScope['read:order']).toBe('Odczyt: Zlecenia');
    expect(byScope['read:contract']).toBe('Odczyt: Kontrakty');
    expect(byScope.webhooks).toMatch(/Webhooki/);
    for (const closed of ['read:users', 'read:login-history', 'read:acceptance-history', 'read:integration-accounts', 'read:notification']) expect(byScope[closed]).toBeUndefined();
  });

  it('refuses a bad account with the fields named in Polish, and writes nothing', async () => {
    const before = await t.app.db.selectFrom('integration_account').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const res = await createAccount({ name: 'Błędne', allClients: false, clients: ['NIE-MA'], scopes: ['read:users'] });
    expect(res.statusCode).toBe(400);
    const fields = (res.json().errors as { field: string; message: string }[]);
    expect(fields.map((e) => e.field).sort()).toEqual(['clients', 'scopes']);
    expect(fields.find((e) => e.field === 'clients')!.message).toBe('Nieznany klient: NIE-MA');
    expect(fields.find((e) => e.field === 'scopes')!.message).toBe('Nieznane uprawnienie: read:users');
    const empty = await createAccount({ name: 'Puste', allClients: false, clients: [], scopes: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors.map((e: { message: string }) => e.message)).toEqual([
      'Wybierz co najmniej jednego klienta albo zaznacz „Wszyscy klienci”', 'Zaznacz co najmniej jedno uprawnienie',
    ]);
    const blank = await createAccount({ name: '  ', allClients: true, scopes: ['read:car'] });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual([{ field: 'name', message: 'Podaj nazwę konta' }]);
    const after = await t.app.db.selectFrom('integration_account').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
    // a name is unique, whatever its case
    await accountWithKey('System ERP', [A], ['read:car']);
    const twice = await createAccount({ name: 'system erp', allClients: true, scopes: ['read:car'] });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().errors).toEqual([{ field: 'name', message: 'Konto integracyjne o tej nazwie już istnieje' }]);
  });

  it('shows a key once: the list has its prefix, dates and state, never the key, and the database only its hash', async () => {
    const res = await createAccount({ name: 'Raz pokazany', allClients: false, clients: [A], scopes: ['read:car'] });
    const account = res.json();
    expect(account).toMatchObject({ name: 'Raz pokazany', allClients: false, clients: [A], klienci: await clientText(A), scopes: ['read:car'], activeKeys: 0 });
    const made = await createKey(account.id, {});
    expect(made.statusCode).toBe(201);
    const { key, displayPrefix, message } = made.json();
    expect(key).toMatch(/^flp_[0-9A-Za-z]{36}$/);
    expect(displayPrefix).toBe(key.slice(0, 12));
    // the warning that it is shown once is the key's window's; the message, read after it is closed, promises nothing
    expect(message).toBe('Klucz utworzony.');
    const list = await t.call('GET', `/api/integration-accounts/${account.id}/keys`, { token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(key);
    expect(list.json()).toEqual([expect.objectContaining({ displayPrefix, state: 'active', revokedAt: null, lastUsedAt: null })]);
    // the keys panel's answer: the account and its keys, never a key
    const details = await t.call('GET', `/api/integration-accounts/${account.id}`, { token: admin });
    expect(details.statusCode).toBe(200);
    expect(details.json()).toMatchObject({ account: { id: account.id, name: 'Raz pokazany', activeKeys: 1 }, keys: [{ displayPrefix, accountId: account.id, state: 'active' }] });
    expect(details.body).not.toContain(key);
    expect((await t.call('GET', '/api/integration-accounts/999999', { token: admin })).statusCode).toBe(404);
    const stored = await t.app.db.selectFrom('integration_key').selectAll().where('accountId', '=', account.id).execute();
    expect(JSON.stringify(stored)).not.toContain(key.slice(12));
    // in the table of accounts, the active key is counted
    const table = await t.call('POST', '/api/integration-accounts/table', { token: admin, body: block });
    expect(table.json().find((r: { id: number }) => r.id === account.id)).toMatchObject({ activeKeys: 1 });
  });

  it('reads only its client\'s vehicles, under every spelling of the path, without a request signature', async () => {
    const { key } = await accountWithKey('Klient A – pojazdy', [A], ['read:car']);
    const bPlates = carsOf[B].map((c) => c.rejestr);
    const res = await keyCall(t.app, key, 'POST', '/api/car/table2', block);
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as { rejestr: string; klientSymbol: string }[];
    expect(new Set(rows.map((r) => r.klientSymbol))).toEqual(new Set([A]));
    expect(res.json().total ?? res.json().count ?? rows.length).toBeGreaterThan(0);
    for (const path of ['/api/car/table2', '/%61pi/car/table2', '/api/%63ar/table2', '/api/car/table2/', '/API/car/table2', '/api/CAR/table2', '//api/car/table2', '/api/./car/table2', '/api/car/x/../table2', '/api/car/table2;', '/api%2Fcar%2Ftable2']) {
      const r = await keyCall(t.app, key, 'POST', path, block);
      if (r.statusCode === 200) {
        const seen = (r.json().rows as { klientSymbol: string }[]).map((x) => x.klientSymbol);
        expect(seen.every((s) => s === A), path).toBe(true);
      } else {
        expect([401, 403, 404], `${path}: ${r.statusCode}`).toContain(r.statusCode);
      }
      for (const plate of bPlates) expect(r.body, path).not.toContain(plate);
    }
    // a vehicle of client B by its id, however spelled: as if it did not exist
    const other = carsOf[B][0].pojazdId;
    for (const path of [`/api/car/${other}`, `/%61pi/car/${other}`, `/api/%63ar/${other}`, `/api/car/${other}/`]) {
      const r = await keyCall(t.app, key, 'GET', path);
      expect([403, 404], `${path}: ${r.statusCode}`).toContain(r.statusCode);
    }
    const own = await keyCall(t.app, key, 'GET', `/api/car/${carsOf[A][0].pojazdId}`);
    expect(own.statusCode).toBe(200);
    // the count and the other list of the resource are within the client too
    const count = await keyCall(t.app, key, 'POST', '/api/car/table-count', block);
    expect(count.statusCode).toBe(200);
    expect(count.json().count).toBe(carsOf[A].length);
  });

  it('reads the rows of each client it names and of no other; a key of every client reads them all', async () => {
    const two = await accountWithKey('Dwóch klientów', [A, B], ['read:car']);
    const rows = (await keyCall(t.app, two.key, 'POST', '/api/car/table', block)).json() as { klientSymbol: string }[];
    expect(new Set(rows.map((r) => r.klientSymbol))).toEqual(new Set([A, B]));
    const count = (await keyCall(t.app, two.key, 'POST', '/api/car/table-count', block)).json().count;
    expect(count).toBe(carsOf[A].length + carsOf[B].length);
    const all = await accountWithKey('Wszyscy klienci', 'all', ['read:car']);
    const allCount = (await keyCall(t.app, all.key, 'POST', '/api/car/table-count', block)).json().count;
    expect(allCount).toBe(Object.values(carsOf).reduce((n, list) => n + list.length, 0));
    expect(allCount).toBeGreaterThan(count);
  });

  it('reads only the resources of its scopes: no read:contract, 403 on contracts', async () => {
    const { key } = await accountWithKey('Tylko pojazdy', [A], ['read:car']);
    const res = await keyCall(t.app, key, 'POST', '/api/contract/table', block);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('Klucz API nie ma uprawnienia do tego zasobu.');
    const withContracts = await accountWithKey('Pojazdy i kontrakty', [A], ['read:car', 'read:contract']);
    expect((await keyCall(t.app, withContracts.key, 'POST', '/api/contract/table', block)).statusCode).toBe(200);
  });

  it('never calls a browser route: terms, passwords, session, settings, users, the studio, the Excel export, the accounts themselves', async () => {
    const { key } = await accountWithKey('Wszystko do odczytu', 'all', ['read:car', 'read:order', 'read:contract', 'webhooks']);
    const closed: [('GET' | 'POST' | 'PUT'), string, unknown?][] = [
      ['GET', '/api/terms/status'], ['GET', '/api/terms/next'], ['POST', '/api/terms/accept-current', {}],
      ['POST', '/api/password/change-password', {}], ['PUT', '/api/users/change-password', {}], ['POST', '/api/account', {}],
      ['POST', '/api/user/logout', {}], ['POST', '/api/user/re-logging', {}],
      ['GET', '/api/settings/email'], ['GET', '/api/settings/restart-application'],
      ['POST', '/api/users/table', block], ['POST', '/api/users/users', block], ['POST', '/api/login-history/table', block],
      ['POST', '/api/car/excel/prepare', {}], ['GET', '/api/car/single-car'],
      ['GET', '/api/integration-accounts/scopes'], ['POST', '/api/integration-accounts', {}], ['POST', '/api/integration-accounts/table', block],
      ['GET', '/api/notifications'],
    ];
    for (const [method, url, body] of closed) {
      const res = await keyCall(t.app, key, method, url, body);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().code, `${method} ${url}`).toBe('KEY_NOT_ALLOWED');
      expect(res.json().detail).toBe('To wywołanie nie jest dostępne dla kluczy API.');
    }
  });

  it('never appears in the users lists', async () => {
    await accountWithKey('Niewidoczne konto', 'all', ['read:car']);
    for (const url of ['/api/users/table', '/api/users/users', '/api/users/table2']) {
      const res = await t.call('POST', url, { token: admin, body: block });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('Niewidoczne konto');
    }
  });

  it('stops working when it expires or is revoked (401 in Polish), and notes its last use', async () => {
    const { account, key, keyId } = await accountWithKey('Wygasa', [A], ['read:car']);
    expect((await keyCall(t.app, key, 'POST', '/api/car/table', block, '10.1.2.3')).statusCode).toBe(200);
    const listed = (await t.call('GET', `/api/integration-accounts/${account.id}/keys`, { token: admin })).json();
    expect(listed[0]).toMatchObject({ id: keyId, lastUsedIp: '10.1.2.3', state: 'active' });
    expect(listed[0].lastUsedAt).not.toBeNull();
    await t.app.db.updateTable('integration_key').set({ expiresAt: new Date(Date.now() - 1000) }).where('id', '=', keyId).execute();
    const expired = await keyCall(t.app, key, 'POST', '/api/car/table', block);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().detail).toBe('Klucz API jest nieprawidłowy, wygasł lub został unieważniony.');
    expect((await t.call('GET', `/api/integration-accounts/${account.id}/keys`, { token: admin })).json()[0].state).toBe('expired');

    const second = await accountWithKey('Unieważniany', [A], ['read:car']);
    expect((await keyCall(t.app, second.key, 'POST', '/api/car/table', block)).statusCode).toBe(200);
    expect((await keyCall(t.app, second.key, 'POST', '/api/car/table', block)).statusCode).toBe(200); // from the cache
    const revoked = await t.call('POST', `/api/integration-accounts/${second.account.id}/keys/${second.keyId}/revoke`, { token: admin, body: {} });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: second.keyId, state: 'revoked' });
    expect((await keyCall(t.app, second.key, 'POST', '/api/car/table', block)).statusCode).toBe(401);
    // a key of another account is not found through this one
    const wrong = await t.call('POST', `/api/integration-accounts/${account.id}/keys/${second.keyId}/revoke`, { token: admin, body: {} });
    expect(wrong.statusCode).toBe(404);
  });

  it('follows a change of its account at once: fewer clients, fewer rows', async () => {
    const { account, key } = await accountWithKey('Zmieniane', [A, B], ['read:car']);
    expect((await keyCall(t.app, key, 'POST', '/api/car/table-count', block)).json().count).toBe(carsOf[A].length + carsOf[B].length);
    const res = await t.call('PUT', `/api/integration-accounts/${account.id}`, { token: admin, body: { name: 'Zmieniane', allClients: false, clients: [B], scopes: ['read:car'] } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await keyCall(t.app, key, 'POST', '/api/car/table-count', block)).json().count).toBe(carsOf[B].length);
    const gone = await t.call('PUT', '/api/integration-accounts/999999', { token: admin, body: { name: 'X', allClients: true, scopes: ['read:car'] } });
    expect(gone.statusCode).toBe(404);
  });

  it('keeps two keys active at once for rotation, and asks to revoke one before a third', async () => {
    const { account, keyId } = await accountWithKey('Rotacja', [A], ['read:car']);
    const second = await createKey(account.id, {});
    expect(second.statusCode).toBe(201);
    const third = await createKey(account.id, {});
    expect(third.statusCode).toBe(400);
    expect(third.json().detail).toBe('Konto ma już dwa aktywne klucze. Unieważnij jeden z nich, zanim utworzysz nowy.');
    await t.call('POST', `/api/integration-accounts/${account.id}/keys/${keyId}/revoke`, { token: admin, body: {} });
    const replacement = await createKey(account.id, {});
    expect(replacement.statusCode).toBe(201);
    // both new keys work
    for (const key of [second.json().key, replacement.json().key]) expect((await keyCall(t.app, key, 'POST', '/api/car/table', block)).statusCode).toBe(200);
  });

  it('takes a validity date between tomorrow and two years ahead', async () => {
    const { account } = await accountWithKey('Ważność', [A], ['read:car']);
    await t.app.db.updateTable('integration_key').set({ revokedAt: new Date() }).where('accountId', '=', account.id).execute();
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const validTo of [day(0), day(-3), day(800), 'jutro']) {
      const res = await createKey(account.id, { validTo });
      expect(res.statusCode, validTo).toBe(400);
      expect(res.json().errors[0].field ?? res.json().errors[0].instancePath, validTo).toMatch(/validTo/);
    }
    const ok = await createKey(account.id, { validTo: day(30) });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().expiresAt.slice(0, 10)).toBe(day(31));
  });

  it('names a key and its validity when it is made; the account\'s clients by name and code, sorted by name (issue 49)', async () => {
    const res = await createAccount({ name: 'Nazwane klucze', allClients: false, clients: [C, A, B], scopes: ['read:car'] });
    const account = res.json();
    const names = await Promise.all([A, B, C].map(clientText));
    expect(account.klienci).toBe([...names].sort((x, y) => x.localeCompare(y, 'pl')).join(', '));
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const made = await createKey(account.id, { name: '  System ERP — produkcja ', validTo: day(90) });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ name: 'System ERP — produkcja' });
    expect(made.json().expiresAt.slice(0, 10)).toBe(day(91));
    const listed = (await t.call('GET', `/api/integration-accounts/${account.id}`, { token: admin })).json();
    expect(listed.keys).toEqual([expect.objectContaining({ name: 'System ERP — produkcja', state: 'active' })]);
    const tooLong = await createKey(account.id, { name: 'x'.repeat(101) });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().detail).toContain('Nazwa klucza może mieć najwyżej 100 znaków');
    // every client: no list of names (the screens say "wszyscy")
    const all = (await createAccount({ name: 'Wszyscy klienci (nazwy)', allClients: true, scopes: ['read:car'] })).json();
    expect(all).toMatchObject({ allClients: true, klienci: null });
  });

  it('deletes an account: its keys stop at once, it is gone from the table, the trail keeps its history (issue 49)', async () => {
    const { account, key } = await accountWithKey('Do usunięcia', [A], ['read:car']);
    expect((await keyCall(t.app, key, 'POST', '/api/car/table', block)).statusCode).toBe(200);
    const removed = await t.call('DELETE', `/api/integration-accounts/${account.id}`, { token: admin });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().message).toBe('Konto integracyjne usunięte.');
    expect((await keyCall(t.app, key, 'POST', '/api/car/table', block)).statusCode).toBe(401);
    expect((await t.call('GET', `/api/integration-accounts/${account.id}`, { token: admin })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/integration-accounts/${account.id}`, { token: admin })).statusCode).toBe(404);
    const table = await t.call('POST', '/api/integration-accounts/table', { token: admin, body: block });
    expect(table.json().rows ?? table.json()).not.toContainEqual(expect.objectContaining({ id: account.id }));
    const trail = await t.app.db.selectFrom('audit_entry').select(['action', 'changes']).where('resource', '=', 'integration-accounts')
      .where('recordKey', '=', String(account.id)).orderBy('seq').execute();
    expect(trail.map((e) => e.action)).toEqual(['create', 'create-key', 'delete']);
    expect(trail[2].changes).toMatchObject({ name: ['Do usunięcia', null] });
    // not an administrator's: refused, and nothing removed
    const other = await accountWithKey('Nie do usunięcia', [A], ['read:car']);
    const manager = await t.signIn('manager');
    expect((await t.call('DELETE', `/api/integration-accounts/${other.account.id}`, { token: manager })).statusCode).toBe(403);
    expect((await keyCall(t.app, other.key, 'POST', '/api/car/table', block)).statusCode).toBe(200);
  });

  it('refuses a wrong key with 401, and past the sign-in limit an address with 429, a good key included', async () => {
    const { key } = await accountWithKey('Limit', [A], ['read:car']);
    const limits = (t.app.config.bundle.app.security as { rateLimit: { signIn: { max: number } } }).rateLimit;
    const saved = limits.signIn.max;
    limits.signIn.max = 3;
    // the test app lifts the configured limits; this test applies its own
    t.app.rateLimitsLifted = false;
    try {
      const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
      const unknown = 'flp_' + '0'.repeat(30) + (await import('../../server/integration/keys.ts')).checksumOf('0'.repeat(30));
      for (const wrong of [typo, unknown, typo]) expect((await keyCall(t.app, wrong, 'POST', '/api/car/table', block, '10.9.9.9')).statusCode).toBe(401);
      const blocked = await keyCall(t.app, key, 'POST', '/api/car/table', block, '10.9.9.9');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().detail).toMatch(/^Zbyt wiele prób z tego adresu/);
      // another address is not affected
      expect((await keyCall(t.app, key, 'POST', '/api/car/table', block, '10.9.9.10')).statusCode).toBe(200);
    } finally {
      limits.signIn.max = saved;
      t.app.rateLimitsLifted = true;
    }
  });

  it('logs the key\'s id on the request\'s line, never the key', async () => {
    const { key, keyId } = await accountWithKey('Dziennik', [A], ['read:car']);
    const res = await keyCall(t.app, key, 'POST', '/api/car/table', block);
    const id = res.headers['x-request-id'];
    const lines = log.text.split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const line = lines.find((l) => l.requestId === id);
    expect(line).toMatchObject({ route: '/api/car/table', status: 200, keyId });
    expect(line.userId).toBeUndefined();
    expect(log.text).not.toContain(key);
    expect(log.text).not.toContain(key.slice(12));
  });
});

describe.runIf(databaseUrl)('a revoked key across two processes on one PostgreSQL schema', () => {
  let t: TestApp;
  let second: { app: FastifyInstance; database: DatabaseHandle };

  beforeAll(async () => {
    t = await startTestApp();
    const { rows } = await sql<{ schema: string; database: string }>`select current_schema() as schema, current_database() as database`.execute(t.app.db);
    const database = await openDatabase({ databaseUrl: databaseUrlFor(databaseUrl!, rows[0].database), schema: rows[0].schema, maxConnections: 4, applicationName: `keys_b_${process.pid}` });
    const app = await buildApp({ secondFactor: { enforce: false }, db: database.db, root: ROOT, version: VERSION });
    await app.ready();
    second = { app, database };
  }, 60_000);
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
    await t?.close();
  });

  it('refuses in the other process, from its cache, a key revoked in one', async () => {
    const admin = await t.signIn('admin');
    const client = (await t.app.db.selectFrom('car').select('klientSymbol').where('klientSymbol', 'is not', null).executeTakeFirstOrThrow()).klientSymbol!;
    const account = (await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'Dwa procesy', allClients: false, clients: [client], scopes: ['read:car'] } })).json();
    const made = (await t.call('POST', `/api/integration-accounts/${account.id}/keys`, { token: admin, body: {} })).json();
    const inSecond = () => keyCall(second.app, made.key, 'POST', '/api/car/table', block);
    expect((await inSecond()).statusCode).toBe(200);
    const hits = second.app.sessionCache.stats.hits;
    expect((await inSecond()).statusCode).toBe(200);
    expect(second.app.sessionCache.stats.hits).toBe(hits + 1); // served from the second process's cache
    const revoked = await t.call('POST', `/api/integration-accounts/${account.id}/keys/${made.id}/revoke`, { token: admin, body: {} });
    expect(revoked.statusCode).toBe(200);
    await second.app.sessionCache.sync();
    expect((await inSecond()).statusCode).toBe(401);
  });

  it('follows in the other process a change of the account made in one', async () => {
    const admin = await t.signIn('admin');
    const account = (await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'Dwa procesy, zakres', allClients: true, scopes: ['read:car', 'read:contract'] } })).json();
    const made = (await t.call('POST', `/api/integration-accounts/${account.id}/keys`, { token: admin, body: {} })).json();
    const contracts = () => keyCall(second.app, made.key, 'POST', '/api/contract/table', block);
    expect((await contracts()).statusCode).toBe(200);
    expect((await contracts()).statusCode).toBe(200);
    await t.call('PUT', `/api/integration-accounts/${account.id}`, { token: admin, body: { name: 'Dwa procesy, zakres', allClients: true, scopes: ['read:car'] } });
    await second.app.sessionCache.sync();
    expect((await contracts()).statusCode).toBe(403);
  });
});
