/**
 * The login page's first paint in the HTML (issue 49): the served page carries the sign-in form
 * drawn from the configuration — in the caller's language, with the variant's brand — in place of
 * the loading modal, so the form shows before the JavaScript runs; a configuration reloaded (a
 * studio publish) is drawn afresh.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

// index.html as vite leaves it (runtime/index.html with vite.config.ts's loading modal between its marks)
const INDEX = [
  '<!doctype html><html lang="pl"><head><meta charset="UTF-8" /><link rel="icon" type="image/svg+xml" href="/favicon.svg" /><title>Portal</title>',
  '<script type="module" crossorigin src="/assets/index-AbC123.js"></script></head>',
  '<body><!--first-paint--><div id="root"><!--loading-modal--><div class="modal d-block" data-testid="loading-modal">Ładowanie...</div><!--/loading-modal--></div></body></html>',
].join('');

const texts = (language: string, file: string) => JSON.parse(readFileSync(join(ROOT, 'locales', language, `${file}.json`), 'utf8'));
const firstPaint = (html: string) => /<div id="first-paint">([\s\S]*?)<\/div><div id="root">/.exec(html)?.[1];

describe('the login page drawn into the served HTML', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp();
    dir = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    app = await buildApp({ db: t.app.db, root: ROOT, version: 'test', staticDir: dir });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the form with its labels in the language of the sign-in page’s choice, else the browser’s', async () => {
    for (const [headers, language] of [
      [{ cookie: 'portal.lang=en' }, 'en'],
      [{ 'accept-language': 'uk-UA,uk;q=0.9,en;q=0.5' }, 'uk'],
      [{ cookie: 'portal.lang=uk', 'accept-language': 'en' }, 'uk'],
      [{}, 'pl'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: '/login', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers.vary).toMatch(/cookie/i);
      expect(res.headers.vary).toMatch(/accept-language/i);
      const page = firstPaint(res.body);
      expect(page, language).toBeDefined();
      const login = texts(language, 'login');
      const app_ = texts(language, 'app');
      expect(res.body).toContain(`<html lang="${language}">`);
      expect(page).toContain(`<h2 class="h5 mb-3">${login.title}</h2>`);
      // the fields shown to a driver (the choice's default): the role, login, password, plate; the VIN
      // is drawn for the advisor's choice and hidden by its rule while the driver's is checked (below)
      expect(page).toContain(`<legend class="form-label fs-6">${login.fields.role}<span aria-hidden="true">*</span></legend>`);
      expect(page).toContain(`>${app_.roles.USER}</label>`);
      expect(page).toContain(`<label class="form-label" for="login_username">${login.fields.username}`);
      expect(page).toContain(`<label class="form-label" for="login_password">${login.fields.password}`);
      expect(page).toContain(`<label class="form-label" for="login_rejestr">${login.fields.rejestr}`);
      expect(page).toContain('<label class="form-label" for="login_vin">');
      expect(page).toContain(`<button type="submit" class="btn btn-primary w-100">${login.submit}</button>`);
      // the default variant's name above the card, its footer below, the language choice on the current language
      expect(page).toContain('<h1 class="login-app-name">Partner CFM</h1>');
      expect(page).toContain(app_.footer.version.replace('{{version}}', 'test'));
      expect(page).toMatch(new RegExp(`<option value="${language}" lang="${language}" selected="">`));
      // the cookie notice, the largest text of a phone's first screen, until it is acknowledged
      expect(page).toContain(`<section class="cookie-notice shadow" aria-label="${app_.cookies.title}" data-testid="cookie-notice">`);
      expect(page).toContain(`</span>${app_.cookies.text}</p>`);
      // in place of the loading modal, which a page without JavaScript would show for ever
      expect(res.body).not.toContain('data-testid="loading-modal"');
    }
  });

  it('is the variant’s: its name (the tab’s title too), its logo and its colours on the page at once', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: { host: 'marka.localhost:3000', cookie: 'portal.lang=en' } });
    // the runtime starts only at the visitor's first use (runtime/src/start-gate.ts): the title is the page's own
    expect(res.body).toContain('<title>Zielona Flota – portal kierowcy</title>');
    const page = firstPaint(res.body)!;
    expect(page).toContain('<img class="login-logo" src="/api/ui/assets/logo.svg" alt="Zielona Flota"/>');
    expect(page).toContain('<h1 class="login-app-name">Zielona Flota – portal kierowcy</h1>');
    expect(page).toContain(`>${texts('en', 'login').fields.password}`);
    expect(res.body).toMatch(/<html lang="en" data-branded="customer-brand" style="[^"]*--portal-primary: #1e6b3a;[^"]*--portal-login-background: #2f8f52/);
    expect(res.body).toContain('<link rel="icon" href="/api/ui/assets/favicon.svg">');
    // and the default variant's page has neither
    const plain = await app.inject({ method: 'GET', url: '/' });
    expect(plain.body).toContain('<title>Partner CFM</title>');
    expect(firstPaint(plain.body)).not.toContain('login-logo');
    expect(plain.body).not.toContain('data-branded');
  });

  it('leaves the cookie notice out once it is acknowledged (the runtime’s portal.cookies cookie)', async () => {
    const page = firstPaint((await app.inject({ method: 'GET', url: '/login', headers: { cookie: 'portal.lang=en; portal.cookies=1' } })).body)!;
    expect(page).toContain('login-app-name');
    expect(page).not.toContain('cookie-notice');
  });

  it('sends nothing typed if the form is sent before the runtime has run: the inputs have no name, the choice keeps its group', async () => {
    const page = firstPaint((await app.inject({ method: 'GET', url: '/login' })).body)!;
    expect(page).toMatch(/<input[^>]*id="login_password"[^>]*>/);
    expect(/<input[^>]*id="login_password"[^>]*>/.exec(page)![0]).not.toContain('name=');
    expect(/<input[^>]*id="login_username"[^>]*>/.exec(page)![0]).not.toContain('name=');
    expect(/<input[^>]*id="login_role-0"[^>]*>/.exec(page)![0]).toContain('name="login_role"');
  });

  it('hides and shows the fields by the role chosen, before any script, as the runtime will (no shift when it takes over)', async () => {
    const page = firstPaint((await app.inject({ method: 'GET', url: '/login' })).body)!;
    const rules = /<style>([^<]*:has[^<]*)<\/style>/.exec(page)?.[1];
    // choices: 0 the driver (plate, no VIN), 1 the fleet manager (neither), 2 the advisor (both)
    expect(rules).toBe([
      '#first-paint .light-form:has(#login_role-0:checked) [data-field="vin"]',
      '#first-paint .light-form:has(#login_role-1:checked) [data-field="rejestr"]',
      '#first-paint .light-form:has(#login_role-1:checked) [data-field="vin"]',
    ].join(',') + '{display:none}');
  });

  it('leaves the pages it does not draw to the loading modal: signed-in paths and the studio’s preview', async () => {
    for (const url of ['/app/dane-pojazdu', '/app/pulpit', '/?studioPreview=1', '/nowhere']) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie: 'portal.cookies=1' } });
      expect(firstPaint(res.body), url).toBeUndefined();
      expect(res.body, url).not.toContain('cookie-notice');
      expect(res.body, url).toContain('data-testid="loading-modal"');
    }
  });

  it('shows a first visitor of those pages the cookie notice beside the loading modal, in his language, until it is acknowledged (issue 47)', async () => {
    const noticeOnly = (html: string) => /<div id="first-paint" class="first-paint--notice">(<section class="cookie-notice[\s\S]*?<\/section>)<\/div><div id="root">/.exec(html)?.[1];
    for (const url of ['/app/dane-pojazdu', '/app/pulpit', '/nowhere']) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie: 'portal.lang=en' } });
      const notice = noticeOnly(res.body);
      expect(notice, url).toContain(`aria-label="${texts('en', 'app').cookies.title}"`);
      expect(notice, url).toContain(`</span>${texts('en', 'app').cookies.text}</p>`);
      expect(res.body, url).toContain('data-testid="loading-modal"');
    }
    expect(noticeOnly((await app.inject({ method: 'GET', url: '/app/dane-pojazdu' })).body)).toContain(texts('pl', 'app').cookies.accept);
    // acknowledged, or the studio's preview (its frame draws the draft's page): no notice in the page
    expect((await app.inject({ method: 'GET', url: '/app/dane-pojazdu', headers: { cookie: 'portal.cookies=1' } })).body).not.toContain('id="first-paint"');
    expect((await app.inject({ method: 'GET', url: '/app/dane-pojazdu?studioPreview=1' })).body).not.toContain('id="first-paint"');
  });

  it('keeps the drawn page invisible until all of it is parsed: no half-built card, no field its rule hides, is ever seen', async () => {
    const page = firstPaint((await app.inject({ method: 'GET', url: '/login' })).body)!;
    // hidden first, the choices' rules before the fields they hide, shown by the page's last element
    expect(page).toMatch(/^<style>#first-paint\{visibility:hidden\}<\/style><style>[^<]*:has\(#login_role-\d+:checked\)[^<]*<\/style><div class="public-layout/);
    expect(page).toContain('class="cookie-notice');
    expect(page).toMatch(/<\/section><style>#first-paint\{visibility:visible\}<\/style>$/);
  });

  it('draws the page again from a reloaded configuration (a studio publish), and escapes every text', async () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-config-'));
    for (const sub of ['screens', 'schemas', 'locales', 'client-variants', 'package.json']) cpSync(join(ROOT, sub), join(root, sub), { recursive: true });
    const file = join(root, 'locales/en/login.json');
    const login = JSON.parse(readFileSync(file, 'utf8'));
    const live = await buildApp({ db: t.app.db, root, version: 'test', staticDir: dir });
    try {
      const before = firstPaint((await live.inject({ method: 'GET', url: '/login', headers: { cookie: 'portal.lang=en' } })).body)!;
      expect(before).toContain(`>${login.fields.password}`);
      writeFileSync(file, JSON.stringify({ ...login, fields: { ...login.fields, password: 'Your <b>secret</b> password' } }));
      await live.config.reload();
      const after = firstPaint((await live.inject({ method: 'GET', url: '/login', headers: { cookie: 'portal.lang=en' } })).body)!;
      expect(after).toContain('>Your &lt;b&gt;secret&lt;/b&gt; password');
      expect(after).not.toContain('<b>secret');
      // the other languages are unchanged
      const pl = firstPaint((await live.inject({ method: 'GET', url: '/login' })).body)!;
      expect(pl).toContain(`>${texts('pl', 'login').fields.password}`);
    } finally {
      await live.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});
