import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadBundle } from '../../server/config/load-bundle.ts';
import { ROOT, startTestApp } from '../support/test-app.ts';

/** A private copy of the configuration tree, so a test can add a variant or break a file. */
function copyConfig(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
  for (const sub of ['screens', 'schemas', 'locales', 'client-variants', 'package.json']) {
    if (existsSync(join(ROOT, sub))) cpSync(join(ROOT, sub), join(dir, sub), { recursive: true });
  }
  return dir;
}
const write = (file: string, value: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(value, null, 2));
};

describe('configuration', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('every file of the default configuration validates and cross-checks', () => {
    expect(() => loadBundle({ root: ROOT })).not.toThrow();
  });

  it('every shipped client variant validates', async () => {
    const { readdirSync } = await import('node:fs');
    const dir = join(ROOT, 'client-variants');
    const variants = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [];
    expect(variants).toContain('example');
    for (const variant of variants) expect(() => loadBundle({ root: ROOT, variant }), variant).not.toThrow();
  });

  it('every page the menu leads to has its help (Pomoc), in every language', () => {
    const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
    const routes: any[] = read('screens/routes.json').routes;
    const items: any[] = read('screens/menu.json').groups.flatMap((g: any) => g.items);
    const help = Object.fromEntries(['pl', 'en', 'uk'].map((l) => [l, read(`locales/${l}/help.json`)]));
    const without: string[] = [];
    for (const item of items) {
      const route = routes.find((r) => r.path === item.route);
      // a dialog over the page (Aktualizacja licznika), an action run at once (Odśwież aplikację, Wyloguj) is no page to explain
      if (!route || route.modal || route.action || (route.screen && read(`screens/${route.screen}.json`).type === 'action')) continue;
      const keys = [route.help, ...(route.screens ?? []).map((s: any) => s.help)].filter(Boolean);
      if (!keys.length) without.push(`${item.id}: no help`);
      for (const key of keys) {
        for (const l of ['pl', 'en', 'uk']) if (!help[l][key.replace(/^help:/, '')]) without.push(`${item.id}: ${key} missing in ${l}`);
      }
    }
    expect(without).toEqual([]);
  });

  it('every table a page of the menu shows declares the lines a phone shows of each row (narrow)', () => {
    // at 390 px a grid shows its first two columns and nothing a person looks for (issue 49: the
    // assignments' driver and dates, the tyres' state, the invoices' amount and download)
    const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
    const routes: any[] = read('screens/routes.json').routes;
    const items: any[] = read('screens/menu.json').groups.flatMap((g: any) => g.items);
    const without: string[] = [];
    for (const item of items) {
      const route = routes.find((r) => r.path === item.route);
      const names: string[] = [route?.screen, ...(route?.screens ?? []).map((s: any) => s.screen)].filter(Boolean);
      for (const name of names) {
        const screen = read(`screens/${name}.json`);
        if (screen.type === 'table' && !screen.narrow) without.push(`${item.id}: ${name}`);
      }
    }
    expect(without).toEqual([]);
  });

  it('a throwaway variant that hides a menu entry and relabels a column is served with no code change', async () => {
    const root = copyConfig();
    made.push(root);
    const v = join(root, 'client-variants', 'throwaway');
    write(join(v, 'variant.json'), { schemaVersion: 1, name: 'Throwaway', app: { config: { showTiresTable: false } } });
    write(join(v, 'screens', 'menu.json'), { groups: [{ id: 'records', items: [{ id: 'invoices', $remove: true }] }] });
    write(join(v, 'locales', 'pl', 'car.json'), { fields: { rejestr: 'Numer tablicy' } });
    const t = await startTestApp({ root, variant: 'throwaway' });
    try {
      const res = await t.call('GET', '/api/ui/config');
      expect(res.statusCode).toBe(200);
      const bundle = res.json();
      const records = bundle.screens.menu.groups.find((g: any) => g.id === 'records');
      expect(records.items.map((i: any) => i.id)).not.toContain('invoices');
      expect(records.items.map((i: any) => i.id)).toContain('vehicles');
      expect(bundle.locales.pl.car.fields.rejestr).toBe('Numer tablicy');
      expect(bundle.locales.pl.car.fields.marka).toBe('Marka'); // the rest of the namespace is kept
      expect(bundle.config.showTiresTable).toBe(false);
      expect(bundle.variant).toBe('throwaway');
      // the default configuration is untouched
      expect((loadBundle({ root }).locales.pl.car as any).fields.rejestr).toBe('Nr rejestracyjny');
    } finally {
      await t.close();
    }
  }, 60_000);

  it('answers the bundle with an ETag and 304 when unchanged', async () => {
    const t = await startTestApp();
    try {
      const first = await t.call('GET', '/api/ui/config');
      const etag = first.headers.etag as string;
      expect(etag).toBeTruthy();
      const again = await t.call('GET', '/api/ui/config', { headers: { 'if-none-match': etag } });
      expect(again.statusCode).toBe(304);
    } finally {
      await t.close();
    }
  }, 60_000);

  it('names the file, the JSON pointer and the reason when a file breaks its meta-schema', () => {
    const root = copyConfig();
    made.push(root);
    const file = join(root, 'screens', 'vehicles-table.json');
    const screen = JSON.parse(readFileSync(file, 'utf8'));
    screen.columns[2].widht = 100;
    write(file, screen);
    try {
      loadBundle({ root });
      expect.unreachable('loadBundle should have thrown');
    } catch (e: any) {
      expect(e).toBeInstanceOf(ConfigError);
      expect((e as ConfigError).problems).toContainEqual({ file: 'screens/vehicles-table.json', pointer: '/columns/2/widht', reason: 'unknown property "widht"' });
    }
  });

  it('refuses a column its entity lacks, a missing text key and a broken overlay', () => {
    const root = copyConfig();
    made.push(root);
    const file = join(root, 'screens', 'vehicles-table.json');
    const screen = JSON.parse(readFileSync(file, 'utf8'));
    screen.columns.push({ id: 'kolorNadwozia' });
    write(file, screen);
    const v = join(root, 'client-variants', 'broken');
    write(join(v, 'variant.json'), { schemaVersion: 1, name: 'Broken' });
    write(join(v, 'screens', 'menu.json'), { groups: [{ id: 'records', items: [{ id: 'new-entry', route: '/app/nowhere', $after: 'no-such-item' }] }] });
    const reasons = (fn: () => unknown) => {
      try {
        fn();
        return [];
      } catch (e) {
        return (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
      }
    };
    expect(reasons(() => loadBundle({ root }))).toContain('screens/vehicles-table.json /columns/20/id field "kolorNadwozia" is not in the entity schema "car"');
    expect(reasons(() => loadBundle({ root, variant: 'broken' })).join('\n')).toMatch(/client-variants\/broken\/screens\/menu.json.*anchor id "no-such-item" not found/);
  });

  it('refuses a broken parent scope, preset filter, duplicate column id and a group the resource cannot filter', () => {
    const root = copyConfig();
    made.push(root);
    const edit = (rel: string, change: (json: any) => void) => {
      const file = join(root, rel);
      const json = JSON.parse(readFileSync(file, 'utf8'));
      change(json);
      write(file, json);
    };
    edit('schemas/resources/note.json', (r) => (r.parentScope.parents.ZLECENIA = 'no-such-resource'));
    edit('schemas/resources/attachment.json', (r) => (r.parentScope.parents.SA_NOTE = 'note'));
    edit('screens/contracts-table.json', (s) => (s.presetFilter.default = 'future'));
    edit('screens/orders-table.json', (s) => s.columns.push({ id: 'autNr' }));
    edit('screens/contracts-table.json', (s) => (s.group = 'X'));
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems).toEqual(expect.arrayContaining([
      'schemas/resources/note.json /parentScope/parents/ZLECENIA resource "no-such-resource" does not exist in schemas/resources',
      'schemas/resources/attachment.json /parentScope/parents/SA_NOTE parent resource "note" must declare access itself (no parent of a parent)',
      'screens/contracts-table.json /presetFilter/default "future" is not one of the options',
      'screens/orders-table.json /columns column ids must be unique (use "field" to show one field twice)',
      'screens/contracts-table.json /group resource "contract" declares no groupColumn',
    ]));
  });

  it('refuses a route or a menu entry that lets a role open a screen whose resource that role cannot read', () => {
    const root = copyConfig();
    made.push(root);
    const edit = (rel: string, change: (json: any) => void) => {
      const file = join(root, rel);
      const json = JSON.parse(readFileSync(file, 'utf8'));
      change(json);
      write(file, json);
    };
    // the assignments route open to every role (the resource: ADMIN and MANAGER only)
    edit('screens/routes.json', (r) => delete r.routes.find((x: any) => x.id === 'assignments').allowedWhen);
    // the invoices menu entry shown to every role, its route still for ADMIN and MANAGER
    edit('screens/menu.json', (m) => delete m.groups[0].items.find((x: any) => x.id === 'invoices').visibleWhen);
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    const route = JSON.parse(readFileSync(join(root, 'screens/routes.json'), 'utf8')).routes.findIndex((x: any) => x.id === 'assignments');
    const item = JSON.parse(readFileSync(join(root, 'screens/menu.json'), 'utf8')).groups[0].items.findIndex((x: any) => x.id === 'invoices');
    expect(problems).toEqual(expect.arrayContaining([
      `screens/routes.json /routes/${route}/screen route "/app/przydzialy" lets USER open screen "assignments-table", but resource "assignment" does not let USER read it (schemas/resources/assignment.json access): narrow allowedWhen or widen the resource`,
      `screens/routes.json /routes/${route}/screen route "/app/przydzialy" lets ADVISOR open screen "assignments-table", but resource "assignment" does not let ADVISOR read it (schemas/resources/assignment.json access): narrow allowedWhen or widen the resource`,
      `screens/menu.json /groups/0/items/${item} menu entry "invoices" is shown to USER, but route "/app/invoice" does not let USER in (allowedWhen)`,
    ]));
  });

  it('refuses an Excel export on a table whose resource offers none, and an exporting resource without a title', () => {
    const root = copyConfig();
    made.push(root);
    const edit = (rel: string, change: (json: any) => void) => {
      const file = join(root, rel);
      const json = JSON.parse(readFileSync(file, 'utf8'));
      change(json);
      write(file, json);
    };
    edit('screens/acceptance-history-table.json', (s) => (s.export = 'xlsx'));
    edit('locales/pl/unit.json', (l) => delete l.title);
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems).toEqual(expect.arrayContaining([
      'screens/acceptance-history-table.json /export resource "acceptance-history" offers no Excel export (set "excelExport": true in schemas/resources/acceptance-history.json, or use "csv")',
      'schemas/resources/unit.json /excelExport text key "unit:title" is missing from locales/pl',
    ]));
  });

  it('refuses a record name of fields its entity lacks or texts that do not exist, and Dziennik zmian\'s records of an unknown resource or route (issue 49)', () => {
    const root = copyConfig();
    made.push(root);
    const edit = (rel: string, change: (json: any) => void) => {
      const file = join(root, rel);
      const json = JSON.parse(readFileSync(file, 'utf8'));
      change(json);
      write(file, json);
    };
    edit('schemas/entities/car.schema.json', (e) => (e['x-recordName'] = [{ fields: ['nrRejestracyjny'] }, { fields: ['rejestr'], text: 'car:noSuchName' }]));
    edit('screens/app.json', (a) => {
      a.audit.records.order.open = '/app/zlecenia';
      a.audit.records['no-such-trail'] = { resource: 'car' };
      a.audit.records.email = { resource: 'no-such-resource' };
      a.audit.records.import = { resource: 'contract' };
    });
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems).toEqual(expect.arrayContaining([
      'schemas/entities/car.schema.json /x-recordName/0/fields/0 field "nrRejestracyjny" is not in the entity schema "car"',
      'schemas/entities/car.schema.json /x-recordName/1/text text key "car:noSuchName" is missing from locales/pl',
      'screens/app.json /audit/records/order/open "/app/zlecenia" is not the path of a route',
      'screens/app.json /audit/records/no-such-trail "no-such-trail" is not an audited resource (the enum of audit-entry\'s resource)',
      'screens/app.json /audit/records/email/resource resource "no-such-resource" does not exist in schemas/resources',
      'screens/app.json /audit/records/import/resource entity "contract" declares no x-recordName (how its records are named)',
    ]));
  });

  it('refuses to start a variant that does not exist', () => {
    expect(() => loadBundle({ root: ROOT, variant: 'no-such-variant' })).toThrow(/variant folder does not exist/);
  });

  // issue 10 (runtime): the names the runtime reads from configuration instead of code
  it('refuses a sign-in path that is no public route, a second sign-out route, an unknown locale or time zone, a session flag or reset link that leads nowhere, and a field widget, userInput or sign-in choice it does not know', () => {
    const root = copyConfig();
    made.push(root);
    const edit = (rel: string, change: (json: any) => void) => {
      const file = join(root, rel);
      const json = JSON.parse(readFileSync(file, 'utf8'));
      change(json);
      write(file, json);
    };
    edit('screens/routes.json', (r) => {
      r.signIn = '/app';
      r.routes.push({ id: 'sign-out-too', path: '/wyloguj', action: 'signOut', public: true });
    });
    edit('screens/app.json', (a) => {
      a.config.locale = 'xx-XX';
      a.config.timeZone = 'Europe/Atlantis';
      a.sessionConfig = ['hideRangeForDriver'];
      a.security.resetLink = '/?resetuj';
    });
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems).toEqual(expect.arrayContaining([
      'screens/routes.json /signIn route "app" must be public to be the sign-in page',
      'screens/routes.json /routes exactly one route must have "action": "signOut" (found 2)',
      'screens/app.json /config/locale "xx-XX" is not a locale this platform knows',
      'screens/app.json /config/timeZone "Europe/Atlantis" is not an IANA time zone',
      'screens/app.json /sessionConfig/0 "hideRangeForDriver" is not a flag of config',
      'screens/app.json /security/resetLink "?resetuj" opens no dialog (not in the queryDialogs of a login screen)',
    ]));

    const second = copyConfig();
    made.push(second);
    const editSecond = (rel: string, change: (json: any) => void) => {
      const file = join(second, rel);
      const json = JSON.parse(readFileSync(file, 'utf8'));
      change(json);
      write(file, json);
    };
    editSecond('screens/routes.json', (r) => delete r.signIn);
    editSecond('screens/app.json', (a) => (a.security.signInChoices = { ADMIN: ['ADMIN'] }));
    editSecond('screens/password-reset-set.json', (s) => {
      s.fields[0].widget = 'iban';
      s.fields[1].userInput = 'yes';
    });
    problems = [];
    try {
      loadBundle({ root: second });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems.some((p) => p.startsWith('screens/routes.json') && p.includes('signIn'))).toBe(true);
    expect(problems.some((p) => p.startsWith('screens/password-reset-set.json /fields/0/widget'))).toBe(true);
    expect(problems.some((p) => p.startsWith('screens/password-reset-set.json /fields/1/userInput'))).toBe(true);
    expect(problems.some((p) => p.startsWith('screens/app.json /security/signInChoices'))).toBe(true);
  });

  it('refuses a wizard follow-up over a list no step has, and an upload of a list without a file field', () => {
    const root = copyConfig();
    made.push(root);
    const file = join(root, 'screens', 'order-wizard.json');
    const screen = JSON.parse(readFileSync(file, 'utf8'));
    const upload = screen.submit.then.findIndex((c: any) => c.encoding === 'multipart');
    const note = screen.submit.then.findIndex((c: any) => c.each === 'notes');
    screen.submit.then[upload].each = 'files';
    screen.submit.then[note].encoding = 'multipart';
    write(file, screen);
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems).toEqual(expect.arrayContaining([
      `screens/order-wizard.json /submit/then/${upload}/each "files" is not the path of a list step`,
      `screens/order-wizard.json /submit/then/${note}/encoding the list "notes" has no file field to upload`,
    ]));
  });

  it('refuses a condition or a login request schema with a keyword the browser’s evaluator does not judge (core/json-schema.ts)', () => {
    const root = copyConfig();
    made.push(root);
    const login = JSON.parse(readFileSync(join(root, 'screens', 'login.json'), 'utf8'));
    login.fields[3].visibleWhen = { properties: { record: { properties: { roles: { contains: { const: 'USER' } } } } } };
    write(join(root, 'screens', 'login.json'), login);
    const request = JSON.parse(readFileSync(join(root, 'schemas', 'api', 'auth-request.schema.json'), 'utf8'));
    request.dependentRequired = { vin: ['rejestr'] };
    write(join(root, 'schemas', 'api', 'auth-request.schema.json'), request);
    let problems: string[] = [];
    try {
      loadBundle({ root });
    } catch (e) {
      problems = (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
    expect(problems).toEqual(expect.arrayContaining([
      'screens/login.json /fields/3/visibleWhen condition does not compile: /properties/record/properties/roles/contains: the keyword "contains" is not supported (runtime/core/json-schema.ts)',
      'screens/login.json /schema the login form cannot check the request schema "auth-request" in the browser: /dependentRequired: the keyword "dependentRequired" is not supported (runtime/core/json-schema.ts)',
    ]));
  });
});
