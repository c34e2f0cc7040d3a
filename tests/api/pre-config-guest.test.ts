/**
 * The pre-configuration of a visitor carries what the sign-in page shows (issue 33): the runtime
 * draws the form from it, without waiting for the whole configuration bundle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('the pre-configuration of a visitor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('carries the public routes’ screens, the dialogs they open, their schemas and texts, each as the bundle has it', async () => {
    const pre = (await t.call('GET', '/api/init/pre-config')).json();
    const bundle = (await t.call('GET', '/api/ui/config')).json();
    const guest = pre.guest;
    const publicScreens = bundle.screens.routes.routes.filter((r: { public?: boolean; screen?: string }) => r.public && r.screen).map((r: { screen: string }) => r.screen);
    expect(publicScreens.length).toBeGreaterThan(0);
    for (const id of publicScreens) expect(guest.screens[id]).toEqual(bundle.screens[id]);
    // what the sign-in screen opens and sends, and the words it shows
    const signIn = bundle.screens[publicScreens[0]];
    for (const link of signIn.links ?? []) expect(guest.screens[link.dialog]).toEqual(bundle.screens[link.dialog]);
    for (const dialog of Object.values<string>(signIn.queryDialogs ?? {})) expect(guest.screens[dialog]).toEqual(bundle.screens[dialog]);
    expect(guest.schemas[signIn.schema]).toEqual(bundle.schemas[signIn.schema]);
    const namespace = signIn.title.split(':')[0];
    expect(guest.locales.pl[namespace]).toEqual(bundle.locales.pl[namespace]);
    for (const part of ['version', 'variant', 'app', 'config', 'conditions'] as const) expect(guest[part]).toEqual(bundle[part]);
    for (const shell of ['routes', 'app', 'menu']) expect(guest.screens[shell]).toEqual(bundle.screens[shell]);
    // the texts of the compatibility messages it carries
    for (const item of pre.compatibility) expect(guest.locales.pl).toHaveProperty(item.initError.split(':')[0]);
  });

  it('leaves out what only a signed-in user sees, so it is a fraction of the bundle', async () => {
    const pre = (await t.call('GET', '/api/init/pre-config')).json();
    const bundle = (await t.call('GET', '/api/ui/config')).json();
    const signedInOnly = bundle.screens.routes.routes.filter((r: { public?: boolean; screen?: string }) => !r.public && r.screen).map((r: { screen: string }) => r.screen);
    expect(signedInOnly.length).toBeGreaterThan(3);
    for (const id of signedInOnly) expect(pre.guest.screens).not.toHaveProperty(id);
    const size = (value: unknown) => gzipSync(JSON.stringify(value)).length;
    expect(size(pre.guest)).toBeLessThan(size(bundle) / 4);
  });

  it('is not sent to a start-up with a session, which waits for the bundle of its client’s variant', async () => {
    const token = await t.signIn('manager');
    const pre = (await t.call('GET', '/api/init/pre-config', { token })).json();
    expect(pre.name).toBeTruthy();
    expect(pre).not.toHaveProperty('guest');
  });
});
