/**
 * How responses travel: JSON (and any other compressible reply over ~1 KB) compressed on the fly
 * (brotli or gzip, @fastify/compress); the built runtime served from files compressed at build
 * time (dist/runtime/**.br and .gz, @fastify/static preCompressed), its content-hashed /assets/*
 * cached by browsers for a year (immutable: a new build has new names) and index.html revalidated
 * on every load (no-cache) so a new build is picked up at once.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';

export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Registered before the routes so that every reply passes through it. */
export const compression = fp(
  async (app) => {
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate', 'identity'] });
  },
  { name: 'compression' },
);

/** Registered after the API routes: the runtime's files and the fallback to index.html. */
export const runtimeFiles = fp<{ staticDir?: string }>(
  async (app, { staticDir }) => {
    if (!staticDir || !existsSync(join(staticDir, 'index.html'))) return;
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      serve: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? IMMUTABLE : 'no-cache');
      },
    });
    // Client-side routes (/app/…, /login, /sign-out) get the runtime's page; unknown /api paths stay 404 JSON.
    app.get('/*', { config: { public: true }, schema: { hide: true } }, (request, reply) => {
      if (request.url.startsWith('/api/')) return reply.callNotFound();
      return reply.sendFile('index.html');
    });
  },
  { name: 'runtime-files' },
);
