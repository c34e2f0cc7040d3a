/**
 * How responses travel: JSON compressed above ~1 KB, the runtime's files served precompressed,
 * hashed assets cached for a year, index.html revalidated on every load.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

describe('compression and caching of responses', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let dir: string;
  const script = `console.log(${JSON.stringify('portal '.repeat(400))});`;
  beforeAll(async () => {
    t = await startTestApp();
    // a built runtime as vite + tools/compress-assets.ts leave it
    dir = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Portal</title><script type="module" src="/assets/index-AbC123.js"></script>');
    writeFileSync(join(dir, 'assets/index-AbC123.js'), script);
    writeFileSync(join(dir, 'assets/index-AbC123.js.br'), brotliCompressSync(script));
    writeFileSync(join(dir, 'assets/index-AbC123.js.gz'), gzipSync(script));
    app = await buildApp({ db: t.app.db, root: ROOT, version: 'test', staticDir: dir });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('compresses a JSON answer over 1 KB with brotli or gzip, as the client accepts', async () => {
    const br = await app.inject({ method: 'GET', url: '/api/ui/config', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString()).locales.pl).toBeDefined();
    const gz = await app.inject({ method: 'GET', url: '/api/ui/config', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).length).toBeGreaterThan(gz.rawPayload.length * 3);
  });

  it('sends the configuration bundle compressed once at brotli\'s highest level, once it is (issue 47)', async () => {
    const headers = { 'accept-encoding': 'gzip, deflate, br' };
    const first = await app.inject({ method: 'GET', url: '/api/ui/config', headers });
    expect(first.headers['content-encoding']).toBe('br');
    await vi.waitFor(async () => {
      const next = await app.inject({ method: 'GET', url: '/api/ui/config', headers });
      expect(next.rawPayload.length).toBeLessThan(first.rawPayload.length);
    }, { timeout: 15_000, interval: 100 });
    const kept = await app.inject({ method: 'GET', url: '/api/ui/config', headers });
    expect(kept.headers['content-encoding']).toBe('br');
    expect(kept.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(kept.headers.vary).toMatch(/accept-encoding/i);
    expect(kept.headers.etag).toBe(first.headers.etag);
    expect(brotliDecompressSync(kept.rawPayload).toString()).toBe(brotliDecompressSync(first.rawPayload).toString());
    // a client that refuses brotli gets what it takes
    const gz = await app.inject({ method: 'GET', url: '/api/ui/config', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(brotliDecompressSync(first.rawPayload).toString());
  });

  it('leaves small answers and clients without compression alone', async () => {
    const small = await app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    const plain = await app.inject({ method: 'GET', url: '/api/ui/config' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json().locales.pl).toBeDefined();
    // written out once per bundle, still JSON and still without the server's own parts
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(plain.json().resources).toBeUndefined();
    expect(plain.json().etag).toBeUndefined();
  });

  it('serves a hashed asset from its precompressed file, cached for a year as immutable', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('makes the browser revalidate index.html, on its own path and on client-side routes', async () => {
    for (const url of ['/', '/index.html', '/app/car', '/login']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toContain('<title>Portal</title>');
    }
  });

  it('writes the pre-configuration a visitor would ask for into the page, as data no script element can end', async () => {
    const asked = (await app.inject({ method: 'GET', url: '/api/init/pre-config' })).json();
    for (const url of ['/', '/login', '/app/car']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      const data = /<script type="application\/json" id="pre-config">([^<]*)<\/script>/.exec(res.body);
      expect(data, url).not.toBeNull();
      expect(JSON.parse(data![1]), url).toEqual(asked);
      // the page is still the runtime's, its script after the data
      expect(res.body.indexOf('id="pre-config"'), url).toBeLessThan(res.body.indexOf('/assets/index-AbC123.js'));
    }
    expect(asked.guest.screens.routes).toBeDefined();
  });

  it('writes a text that would end the data block escaped, and it reads back the same', async () => {
    const root = mkdtempSync(join(tmpdir(), 'portal-config-'));
    for (const sub of ['screens', 'schemas', 'locales', 'client-variants', 'package.json']) cpSync(join(ROOT, sub), join(root, sub), { recursive: true });
    const file = join(root, 'locales/pl/login.json');
    const texts = JSON.parse(readFileSync(file, 'utf8'));
    texts.title = '</script><script>alert(1)</script><!--';
    writeFileSync(file, JSON.stringify(texts));
    const hostile = await buildApp({ db: t.app.db, root, version: 'test', staticDir: dir });
    try {
      const body = (await hostile.inject({ method: 'GET', url: '/login' })).body;
      const data = /<script type="application\/json" id="pre-config">([^<]*)<\/script>/.exec(body);
      expect(data).not.toBeNull();
      expect(JSON.parse(data![1]).guest.locales.pl.login.title).toBe(texts.title);
      expect(body).not.toContain('<script>alert(1)');
    } finally {
      await hostile.close();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('serves a page rebuilt while it runs, not the one it read first', async () => {
    const before = (await app.inject({ method: 'GET', url: '/login' })).body;
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Portal</title><script type="module" src="/assets/index-New456.js"></script>');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'index.html'), later, later);
    const after = (await app.inject({ method: 'GET', url: '/login' })).body;
    expect(before).toContain('index-AbC123.js');
    expect(after).toContain('index-New456.js');
    expect(after).toContain('id="pre-config"');
  });

  it('serves the assets of a build made while it runs, and answers an asset that is not there with a 404, not the page', async () => {
    const built = `console.log(${JSON.stringify('rebuilt '.repeat(300))});`;
    writeFileSync(join(dir, 'assets/index-Built789.js'), built);
    writeFileSync(join(dir, 'assets/index-Built789.js.br'), brotliCompressSync(built));
    const res = await app.inject({ method: 'GET', url: '/assets/index-Built789.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(built);
    for (const url of ['/assets/index-Gone000.js', '/assets/style-Gone000.css']) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['content-type'], url).not.toMatch(/html/);
    }
  });

  it('keeps unknown API paths a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Nie znaleziono');
  });
});
