/**
 * The installed portal (issue 47): every variant host gets its own web app manifest — its name,
 * short name, colours and home-screen icons from its configuration (app.install, branding), its
 * description in the caller's language — and the icons it names are served from its assets folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('web app manifest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('describes the default portal with the runtime’s icons, in Polish by default and in the language asked for', async () => {
    const res = await t.call('GET', '/api/ui/manifest');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = res.json();
    expect(manifest).toMatchObject({
      name: 'Partner CFM', short_name: 'Partner CFM', start_url: '/app/dane-pojazdu', scope: '/', display: 'standalone',
      theme_color: '#0d6efd', background_color: '#ffffff', lang: 'pl',
    });
    expect(manifest.description).toMatch(/bez zasięgu/);
    expect(manifest.icons).toEqual([
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ]);
    const english = (await t.call('GET', '/api/ui/manifest', { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).json();
    expect(english).toMatchObject({ lang: 'en', name: 'Partner CFM' });
    expect(english.description).toMatch(/without a signal/);
    const ukrainian = (await t.call('GET', '/api/ui/manifest', { headers: { 'accept-language': 'uk' } })).json();
    expect(ukrainian.description).toMatch(/без зв’язку/);
  });

  it('gives the customer brand’s host its own name, colour and icons, and serves those icons there only', async () => {
    const manifest = (await t.call('GET', '/api/ui/manifest', { headers: { host: 'marka.localhost' } })).json();
    expect(manifest).toMatchObject({ name: 'Zielona Flota – portal kierowcy', short_name: 'Zielona Flota', theme_color: '#1e6b3a' });
    expect(manifest.icons.map((i: { src: string; purpose: string }) => `${i.purpose} ${i.src}`)).toEqual([
      'any /api/ui/assets/icon-192.png', 'any /api/ui/assets/icon-512.png', 'maskable /api/ui/assets/icon-maskable-512.png',
    ]);
    for (const icon of manifest.icons) {
      const res = await t.call('GET', icon.src, { headers: { host: 'marka.localhost' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
    }
    expect((await t.call('GET', '/api/ui/assets/icon-192.png')).statusCode).toBe(404);
  });
});
