/**
 * After sign-in the configuration bundle is the caller's role's (issue 47, server/config/role-view.ts):
 * a driver's phone is not sent the office's screens, and what each role is sent still passes the
 * configuration's own checks. Without a session the bundle is whole, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { crossCheck } from '../../server/config/cross-check.ts';
import type { Role } from '../../runtime/core/conditions.ts';
import { SCREEN_TYPES } from '../../runtime/core/screen-checks/screen-types.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** The screen types the runtime draws (the others are declarations the server reads). */
const DRAWN = new Set<string>(SCREEN_TYPES.map((s) => s.type));

/** The office's screens (ACCESS.md: the import runs, users, the studio, the trail are ADMIN's alone). */
const OFFICE_ONLY = ['data-import', 'users-table', 'user-form', 'config-studio', 'audit-table', 'integration-accounts-table', 'webhooks-table'];

describe('the configuration bundle after sign-in', () => {
  let t: TestApp;
  const tokens: Partial<Record<'admin' | 'manager' | 'kierowca' | 'doradca', string>> = {};
  const bundleOf = async (who: keyof typeof tokens) => {
    const answer = await t.call('GET', '/api/ui/config', { token: (tokens[who] ??= await t.signIn(who)) });
    expect(answer.statusCode).toBe(200);
    return { body: answer.json(), etag: String(answer.headers.etag) };
  };
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('holds none of the office’s screens for the driver, and his own', async () => {
    const { body } = await bundleOf('kierowca');
    for (const id of OFFICE_ONLY) expect(body.screens, id).not.toHaveProperty(id);
    for (const id of ['vehicle-panels', 'todo', 'counter', 'damage-wizard', 'inspection-wizard', 'routes', 'menu', 'app']) expect(body.screens, id).toHaveProperty(id);
    // nor the studio's texts, the import declarations or the reports
    expect(body.locales.pl).not.toHaveProperty('studio');
    expect(body.imports).toEqual({});
    expect(body.reports).toEqual({});
  });

  it('holds the manager’s screens for the manager but not the administrator’s', async () => {
    const { body } = await bundleOf('manager');
    for (const id of ['vehicles-table', 'orders-table', 'damages-table', 'dashboard', 'reports']) expect(body.screens, id).toHaveProperty(id);
    for (const id of OFFICE_ONLY) expect(body.screens, id).not.toHaveProperty(id);
    expect(Object.keys(body.reports).length).toBeGreaterThan(0);
  });

  it('holds everything for the administrator, whose studio edits every file, as a visitor’s whole bundle does', async () => {
    const whole = (await t.call('GET', '/api/ui/config')).json();
    const { body } = await bundleOf('admin');
    expect(Object.keys(body.screens).sort()).toEqual(Object.keys(whole.screens).sort());
    for (const id of OFFICE_ONLY) expect(whole.screens, id).toHaveProperty(id);
  });

  it('keeps every route, so that a deep link to a screen the role cannot open still finds its route (and answers "no access")', async () => {
    const whole = (await t.call('GET', '/api/ui/config')).json();
    const { body } = await bundleOf('kierowca');
    expect(body.screens.routes).toEqual(whole.screens.routes);
    expect(body.screens.routes.routes.find((r: { path: string }) => r.path === '/app/data-import')).toBeTruthy();
  });

  it('has an ETag of its own per role, and a copy of one role is not taken for another’s', async () => {
    const driver = await bundleOf('kierowca');
    const manager = await bundleOf('manager');
    const visitor = String((await t.call('GET', '/api/ui/config')).headers.etag);
    expect(new Set([driver.etag, manager.etag, visitor]).size).toBe(3);
    expect((await t.call('GET', '/api/ui/config', { token: tokens.kierowca, headers: { 'if-none-match': driver.etag } })).statusCode).toBe(304);
    // the driver's copy shown by a manager's start-up (another user on the same browser) is answered anew
    const other = await t.call('GET', '/api/ui/config', { token: tokens.manager, headers: { 'if-none-match': driver.etag } });
    expect(other.statusCode).toBe(200);
    expect(other.json().screens).toHaveProperty('orders-table');
  });

  it('is compressed once per role: the brotli answer is the role’s, not the first caller’s', async () => {
    const headers = { 'accept-encoding': 'br' };
    const asDriver = async () => t.call('GET', '/api/ui/config', { token: tokens.kierowca ?? (await t.signIn('kierowca')), headers });
    const asManager = async () => t.call('GET', '/api/ui/config', { token: tokens.manager ?? (await t.signIn('manager')), headers });
    // the first answers start the compression in the thread pool; later ones are the compressed copy
    for (let i = 0; i < 50; i++) {
      const [d, m] = [await asDriver(), await asManager()];
      if (d.headers['content-encoding'] === 'br' && m.headers['content-encoding'] === 'br') {
        const driver = JSON.parse(brotliDecompressSync(d.rawPayload).toString());
        const manager = JSON.parse(brotliDecompressSync(m.rawPayload).toString());
        expect(driver.screens).not.toHaveProperty('orders-table');
        expect(manager.screens).toHaveProperty('orders-table');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the bundle was never answered compressed');
  });

  it.each([['kierowca', 'USER'], ['doradca', 'ADVISOR'], ['manager', 'MANAGER'], ['admin', 'ADMIN']] as const)(
    'as %s (%s) passes the configuration’s own checks: every screen and text its screens name is in it',
    async (who, role) => {
      const { body } = await bundleOf(who);
      const { bundle } = t.app.config;
      // what only the server reads stays the server's context: the resources, the declarations it
      // answers by (notifications, reminders), the API's schemas the checks name; the screens and
      // texts are the role's alone
      const declarations = Object.fromEntries(Object.entries(bundle.screens).filter(([id, s]) => !body.screens[id] && !DRAWN.has(s.type)));
      const problems = crossCheck({
        screens: { ...declarations, ...body.screens }, schemas: bundle.schemas, resources: bundle.resources, conditions: body.conditions,
        locales: body.locales.pl, variant: body.variant, config: body.config, role: role as Role,
      });
      // the resource files are the server's alone (no bundle carries them, a visitor's whole one neither): their texts are its own
      expect(problems.filter((p) => !p.file.startsWith('schemas/resources/'))).toEqual([]);
      // and the runtime reads a schema only as a screen names it: each is sent, with what it refers to
      const named = JSON.stringify(body.screens).match(/"[^"]+"/g)!.map((s) => s.slice(1, -1).split('#')[0]).filter((id) => bundle.schemas[id]);
      expect(named.length).toBeGreaterThan(5);
      for (const id of named) expect(body.schemas, id).toHaveProperty(id);
    },
  );

  it('for the advisor holds his change of vehicle and the service order, and not the data import', async () => {
    const { body } = await bundleOf('doradca');
    for (const id of ['change-vehicle', 'service-order', 'orders-table', 'vehicle-panels']) expect(body.screens, id).toHaveProperty(id);
    expect(body.screens).not.toHaveProperty('data-import');
  });
});
