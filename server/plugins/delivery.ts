/**
 * How responses travel: JSON (and any other compressible reply over ~1 KB) compressed on the fly
 * (brotli or gzip, @fastify/compress); the built runtime served from files compressed at build
 * time (dist/runtime/**.br and .gz, @fastify/static preCompressed), its content-hashed /assets/*
 * cached by browsers for a year (immutable: a new build has new names) and index.html revalidated
 * on every load (no-cache) so a new build is picked up at once; the page carries the
 * pre-configuration of its variant (runtimePage).
 */
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Bundle } from '../config/bundle.ts';
import fp from 'fastify-plugin';
import { brandingImagePath, type Branding } from '../../runtime/core/branding-style.ts';
import { cookieValue } from '../config/languages.ts';
import { COOKIES_ACCEPTED_COOKIE, firstPaintHtml, noticeOnlyHtml, NOTICE_ONLY_CLASS, rootAttributes } from '../init/first-paint.ts';
import { installConfig, installHead } from '../init/manifest.ts';
import { preConfigJson } from '../init/pre-config.ts';
import { declareScopeAccess } from './auth.ts';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Replies up to this size are compressed synchronously (see `compression`). */
export const SYNC_COMPRESSION_LIMIT = 64 * 1024;

/** Registered before the routes so that every reply passes through it. */
export const compression = fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      threshold: 1024,
      encodings: ['br', 'gzip', 'deflate', 'identity'],
      // A table block (30 rows, up to ~35 KB of JSON for the orders list) compresses in one synchronous call in ~0.3–1 ms;
      // the plugin's default on 2 cores (8 KB) sent it through a brotli stream instead, whose
      // per-reply setup cost ~1.5 ms (measured: docs/benchmarks.md, "API vs SQL"). Larger replies
      // still stream, so the event loop is never held for long.
      syncThreshold: SYNC_COMPRESSION_LIMIT,
    });
  },
  { name: 'compression' },
);

/**
 * Registered after the API routes: the runtime's files and the fallback to index.html. An
 * encapsulated scope that declares its routes public (plugins/auth.ts): the runtime's files are
 * public, what they show comes from the API, which checks every call.
 */
export async function runtimeFiles(app: FastifyInstance, { staticDir }: { staticDir?: string }) {
  if (!staticDir || !existsSync(join(staticDir, 'index.html'))) return;
  await app.register(async (site) => {
    declareScopeAccess(site, 'public');
    // Never shed under load (plugins/limits.ts): a file read costs little, and a person opening a
    // page must get the portal, whose API calls then say "try again" in Polish, not a bare JSON 503.
    site.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), pressureHandler: servedUnderPressure } as typeof route.config;
    });
    // The files of the site's root (sw.js, the icons, the manifest): their names never change, so
    // a route each, listed once at start-up; a build rewrites them in place.
    await site.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      globIgnore: ['assets/**'],
      serve: true,
      // the page itself (/, /login, /app/…) is the fallback's below, with the pre-configuration in it
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => {
        reply.header('cache-control', 'no-cache');
        // (Vary: accept-encoding for the .br/.gz copies is @fastify/static 10's own)
      },
    });
    // The content-hashed /assets/*, looked up on disk at each request: a build made while the portal
    // runs has new names, which the page (re-read when it changes, runtimePage) asks for at once. A
    // name not there is a 404, never the page: a script answered with HTML breaks the page for good.
    await site.register(fastifyStatic, {
      root: join(staticDir, 'assets'),
      prefix: '/assets/',
      wildcard: true,
      decorateReply: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply) => {
        reply.header('cache-control', IMMUTABLE);
      },
    });
    // Client-side routes (/app/…, /login, /sign-out) get the runtime's page; anything that is an
    // /api path once decoded and normalised (%61pi, //api, /API/, /x/../api) stays a 404 JSON.
    const page = runtimePage(app, join(staticDir, 'index.html'));
    site.get<{ Params: { '*': string } }>('/*', { config: { access: 'public' }, schema: { hide: true } }, async (request, reply) => {
      if (isApiPath(request.params['*'] ?? '')) return reply.callNotFound();
      // the page is the host's variant's, in the caller's language (his cookie, else his browser's)
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'Host, Cookie, Accept-Language')
        .send(await page(request.url, request.headers.cookie));
    });
  });
}

/**
 * The runtime's page (index.html) with the pre-configuration of the request's variant written into
 * it, as a JSON data block (`<script type="application/json" id="pre-config">`: never run, so the
 * CSP is not involved): a visitor's start-up draws the sign-in form from it at once, without first
 * asking for it (issue 33: that call was a round trip after the JavaScript, before the form). The
 * file is read again when a new build replaced it.
 *
 * Issue 49: the page is in the caller's language (`<html lang>`) with the variant's colours and
 * favicon, and a path whose page the server can draw (the sign-in form: init/first-paint.ts) has
 * that page in place of the loading modal, so the first paint shows it before the JavaScript runs.
 */
function runtimePage(app: FastifyInstance, file: string): (url: string, cookies: string | undefined) => Promise<string> {
  let cached: { mtimeMs: number; head: string; tail: string } | null = null;
  return async (url, cookies) => {
    const { mtimeMs } = await stat(file);
    if (cached?.mtimeMs !== mtimeMs) {
      const html = await readFile(file, 'utf8');
      const at = html.indexOf('</head>');
      cached = { mtimeMs, head: at < 0 ? '' : html.slice(0, at), tail: at < 0 ? html : html.slice(at) };
    }
    const { bundle, conditions, t, language } = app.config;
    // "<" written as \u003c: nothing in the data can end the script element
    const json = (await preConfigJson(app, { guest: true })).replace(/</g, '\\u003c');
    const favicon = ((bundle.app as { branding?: Branding }).branding ?? {}).favicon;
    const head = cached.head
      .replace(/<html\b[^>]*>/, `<html ${rootAttributes(bundle, language)}>`)
      // the variant's name, as start-up sets it (a visitor's runtime starts only when he uses the page: runtime/src/start-gate.ts)
      .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml((bundle.app as { loginAppName: string }).loginAppName)}</title>`)
      .replace(/<link rel="icon"[^>]*>/, (link) => (favicon ? `<link rel="icon" href="${brandingImagePath(favicon)}">` : link))
      .replace(/<meta name="theme-color"[^>]*>|<link rel="apple-touch-icon"[^>]*>|<link rel="manifest"[^>]*>/g, (tag) => installTag(bundle, tag));
    const [pathname, query = ''] = url.split('?');
    // a studio preview's frame starts from its draft, not from the published configuration
    // acknowledged in the runtime (shell/CookieNotice.tsx): not part of the page
    const cookieNotice = cookieValue(cookies, COOKIES_ACCEPTED_COOKIE) !== '1';
    const painted = /(^|&)studioPreview=/.test(query) ? undefined : firstPaintHtml(decodePath(pathname), { bundle, conditions, t, language, cookieNotice });
    // a page the server does not draw shows a first visitor the cookie notice beside the loading modal (issue 47)
    const notice = !painted && cookieNotice && !/(^|&)studioPreview=/.test(query) ? noticeOnlyHtml({ bundle, t, language }) : undefined;
    const tail = !cached.tail.includes('<!--first-paint-->') ? cached.tail
      : painted ? cached.tail.replace(/<!--loading-modal-->[\s\S]*?<!--\/loading-modal-->/, '').replace('<!--first-paint-->', `<div id="first-paint">${painted}</div>`)
        : notice ? cached.tail.replace('<!--first-paint-->', `<div id="first-paint" class="${NOTICE_ONLY_CLASS}">${notice}</div>`)
          : cached.tail;
    return `${head}<script type="application/json" id="pre-config">${json}</script>${tail}`;
  };
}

/** The page's installation tags as the variant declares them (init/manifest.ts); without `app.install`, none. */
function installTag(bundle: Bundle, tag: string): string {
  if (!installConfig(bundle)) return '';
  const head = installHead(bundle);
  if (tag.startsWith('<meta name="theme-color"')) return `<meta name="theme-color" content="${head.themeColor}">`;
  if (tag.startsWith('<link rel="apple-touch-icon"')) return `<link rel="apple-touch-icon" href="${head.touchIcon}">`;
  return tag;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

const decodePath = (path: string) => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

/** under-pressure's per-route handler: answering nothing lets the request through. */
const servedUnderPressure = () => undefined;

/** Whether a path (the SPA fallback's, already decoded by the router) is an API path however it is spelt. */
export function isApiPath(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return true; // undecodable: certainly not a page of the runtime
  }
  const normal = posix.normalize(`/${decoded.replace(/\\/g, '/').split(';')[0]}`).toLowerCase();
  return normal === '/api' || normal.startsWith('/api/');
}
