import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';
import { migrationBookkeeping } from '../../server/db/configured-tables.ts';

/** A copy of the configuration folders that a test may break without touching the repository. */
function configCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
  for (const sub of ['screens', 'schemas', 'locales', 'client-variants']) cpSync(join(ROOT, sub), join(dir, sub), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  return dir;
}

describe('pre-configuration and initialization errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  it('answers the name, the app title and the password policy, and tells no visitor that mail is not configured', async () => {
    const res = await t.call('GET', '/api/init/pre-config');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'portal-cfm', loginAppName: 'Partner CFM',
      passwordMinLenght: 8, passwordMinDigits: 1, passwordMinSpecialCharacter: 1, passwordMinUpperCaseLetter: 1, passwordMinLowerCaseLetter: 1,
      // an administrator's concern, shown on the mail settings and the notification log (screens/mail-notice.json)
      compatibility: [],
    });
    expect((await t.app.db.selectFrom('email_config').select('smtpHost').executeTakeFirst())?.smtpHost ?? null).toBeNull();
    const signedIn = await t.call('GET', '/api/init/pre-config', { token: await t.signIn('kierowca') });
    expect(signedIn.json().compatibility).toEqual([]);
  });

  it('blocks start-up when the database lacks a migration this server needs, naming both versions (read at start-up and on restart-application)', async () => {
    const admin = await t.signIn('admin');
    await migrationBookkeeping(t.app.db).deleteFrom('kysely_migration').where('name', '=', '003_sign_in_security').execute();
    try {
      // the status is read once, not on every page load: the administrator's refresh reads it again
      expect((await t.call('GET', '/api/init/pre-config')).json().compatibility).toEqual([]);
      expect((await t.call('GET', '/api/settings/restart-application', { token: admin })).statusCode).toBe(200);
      const item = (await t.call('GET', '/api/init/pre-config')).json().compatibility[0];
      expect(item).toEqual({ initError: 'init:minDatabaseVersion', current: '002_views', required: expect.stringMatching(/^\d{3}_/), initializationBlocking: true });
    } finally {
      await migrationBookkeeping(t.app.db).insertInto('kysely_migration').values({ name: '003_sign_in_security', timestamp: new Date().toISOString() }).execute();
    }
    expect((await t.call('GET', '/api/settings/restart-application', { token: admin })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/init/pre-config')).json().compatibility).toEqual([]);
  });

  it('has a Polish text for every initialization error of spec §8', () => {
    const texts = JSON.parse(readFileSync(join(ROOT, 'locales/pl/init.json'), 'utf8'));
    expect(Object.keys(texts)).toHaveLength(14);
    expect(t.app.config.t('init:minDatabaseVersion')).toMatch(/CURRENT.*REQUIRED/);
  });
});

describe('refreshing the configuration without a restart', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = configCopy();
    t = await startTestApp({ root: dir });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const loginJson = () => join(dir, 'locales/pl/login.json');

  it('re-reads changed texts for the administrator; the bundle and its ETag change', async () => {
    const admin = await t.signIn('admin');
    const before = await t.call('GET', '/api/ui/config');
    const texts = JSON.parse(readFileSync(loginJson(), 'utf8'));
    texts.submit = 'Zaloguj się';
    writeFileSync(loginJson(), JSON.stringify(texts));
    const res = await t.call('GET', '/api/settings/restart-application', { token: admin });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Konfiguracja aplikacji została odczytana ponownie.');
    const after = await t.call('GET', '/api/ui/config');
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(after.json().locales.pl.login.submit).toBe('Zaloguj się');
  });

  it('validates request bodies against the reloaded schemas, without a restart of the process', async () => {
    const admin = await t.signIn('admin');
    const save = (name: string) => t.call('POST', '/api/user-table-filter', { token: admin, body: { name, tablename: 'HISTORY', filterModel: {} } });
    const schemaFile = join(dir, 'schemas/api/user-table-filter.schema.json');
    const original = readFileSync(schemaFile, 'utf8');
    expect((await save('Dłuższa nazwa 1')).statusCode).toBe(200);
    const schema = JSON.parse(original);
    schema.properties.name.maxLength = 5;
    writeFileSync(schemaFile, JSON.stringify(schema));
    try {
      expect((await t.call('GET', '/api/settings/restart-application', { token: admin })).statusCode).toBe(200);
      const refused = await save('Dłuższa nazwa 2');
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().errors[0].field).toBe('name');
      expect((await save('Krót')).statusCode).toBe(200);
    } finally {
      writeFileSync(schemaFile, original);
      await t.call('GET', '/api/settings/restart-application', { token: admin });
    }
    expect((await save('Dłuższa nazwa 3')).statusCode).toBe(200);
  });

  it('keeps the configuration in use when the files are invalid, reports why, and warns at start-up', async () => {
    const admin = await t.signIn('admin');
    const before = (await t.call('GET', '/api/ui/config')).headers.etag;
    writeFileSync(join(dir, 'screens/menu.json'), '{ "type": "menu", ');
    const res = await t.call('GET', '/api/settings/restart-application', { token: admin });
    expect(res.statusCode).toBe(500);
    expect(res.json().detail).toBe('Błąd podczas odświeżania aplikacji');
    expect(res.json().errors[0].field).toMatch(/screens\/menu\.json/);
    expect((await t.call('GET', '/api/ui/config')).headers.etag).toBe(before);
    // still serving: sign-in and data calls work on the old configuration
    expect((await t.call('POST', '/api/car/table2', { token: admin, body: { startRow: 0, endRow: 30 } })).statusCode).toBe(200);
    const warnings = (await t.call('GET', '/api/init/pre-config')).json().compatibility.map((c: any) => c.initError);
    expect(warnings).toContain('init:invalidClientConfig');
  });

  it('is for the administrator only', async () => {
    for (const account of ['manager', 'kierowca', 'doradca'] as const) {
      const token = await t.signIn(account);
      expect((await t.call('GET', '/api/settings/restart-application', { token })).statusCode, account).toBe(403);
    }
    expect((await t.call('GET', '/api/settings/restart-application')).statusCode).toBe(401);
  });
});
