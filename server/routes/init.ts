/** Start-up calls of the runtime: pre-configuration, the configuration bundle, health. */
import type { FastifyInstance } from 'fastify';
import { brotliCompress, constants } from 'node:zlib';
import { sql } from 'kysely';
import type { Bundle } from '../config/bundle.ts';
import type { Language } from '../config/languages.ts';
import { languageEtag, languageView } from '../config/language-view.ts';
import { roleEtag, roleView } from '../config/role-view.ts';
import type { Role } from '../../runtime/core/conditions.ts';
import { refreshMigrationCheck } from '../init/compatibility.ts';
import { preConfigJson } from '../init/pre-config.ts';

/**
 * The shape of GET /api/ui/config (docs/architecture.md "The merged bundle"). Its parts are
 * validated by the configuration compiler against schemas/meta; here they only need to pass
 * through whole, so each part is an open object.
 */
const open = { type: 'object', additionalProperties: true };
export const uiConfigResponse = {
  type: 'object',
  required: ['version', 'variant', 'app', 'config', 'screens', 'schemas', 'conditions', 'locales', 'language', 'languages'],
  properties: {
    version: { type: 'string' },
    language: { type: 'string', description: 'The language of the texts sent (the caller\'s: his account\'s, the sign-in page\'s choice, or Accept-Language)' },
    languages: {
      type: 'array',
      description: 'The languages offered, the default first',
      items: { type: 'object', required: ['id', 'name', 'locale'], properties: { id: { type: 'string' }, name: { type: 'string' }, locale: { type: 'string' } } },
    },
    variant: { type: 'string' },
    role: { type: 'string', description: 'After sign-in: the role whose part of the configuration this is (only the screens, schemas and texts it can reach)' },
    app: open,
    config: open,
    screens: { type: 'object', additionalProperties: open },
    schemas: { type: 'object', additionalProperties: open },
    conditions: open,
    locales: { type: 'object', description: 'The texts of `language` alone, by namespace', additionalProperties: { type: 'object', additionalProperties: open } },
  },
};
const health = { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['UP', 'DOWN'] } } };
const healthResponse = { ...health, description: 'The server and its database answer (status UP)' };
const healthDown = { ...health, description: 'The database does not answer (status DOWN)' };

/** The key of a body in the caches below: its language and, after sign-in, the caller's role (config/role-view.ts). */
const bodyKey = (language: Language, role: Role | null) => `${language.id}:${role ?? ''}`;

/**
 * GET /api/ui/config's body per bundle, language and role: everything but the server's own parts
 * (resources, etag), in one language; after sign-in, only what the caller's role can reach (issue 47).
 */
const uiConfigBodies = new WeakMap<Bundle, Map<string, string>>();
function uiConfigJson(bundle: Bundle, language: Language, role: Role | null): string {
  let byKey = uiConfigBodies.get(bundle);
  if (!byKey) uiConfigBodies.set(bundle, (byKey = new Map()));
  const key = bodyKey(language, role);
  let json = byKey.get(key);
  if (json === undefined) {
    const { etag: _etag, resources: _server_only, languages, ...whole } = bundle;
    const body = role ? roleView(bundle, role) : whole;
    byKey.set(key, (json = JSON.stringify(languageView(body, language, languages))));
  }
  return json;
}

/**
 * GET /api/ui/config's body compressed once per bundle, language and role at brotli's highest level (issue
 * 47): a fifth smaller than the level replies are compressed at on the fly (93 KB instead of 114 KB
 * for the demo bundle, 0.1 s less of a phone's slow 4G before its first page), and no compression
 * per call (~16 ms of the event loop each). Compressed in the thread pool after the first call
 * (~0.7 s); until then, and for a client without brotli, the reply is compressed as any other.
 * Undefined: not asked yet; null: under way.
 */
const uiConfigBrotli = new WeakMap<Bundle, Map<string, Buffer | null>>();
function precompressed(bundle: Bundle, key: string, json: string): Buffer | undefined {
  let byKey = uiConfigBrotli.get(bundle);
  if (!byKey) uiConfigBrotli.set(bundle, (byKey = new Map()));
  const known = byKey.get(key);
  if (known !== undefined) return known ?? undefined;
  byKey.set(key, null);
  const params = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(json) };
  brotliCompress(json, { params }, (error, result) => (error ? byKey.delete(key) : byKey.set(key, result)));
  return undefined;
}

/** Whether an Accept-Encoding header accepts brotli (named, and not with q=0). */
export const acceptsBrotli = (header: string | undefined): boolean =>
  (header ?? '').split(',').some((part) => {
    const [name, ...params] = part.split(';').map((p) => p.trim());
    return name.toLowerCase() === 'br' && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });

export default async function initRoutes(app: FastifyInstance) {
  // the migration status is read once, when the application is ready (and on restart-application)
  app.addHook('onReady', async () => refreshMigrationCheck(app));

  app.get('/api/init/pre-config', {
    config: { access: 'public', operation: { resource: 'init', action: 'preConfig', summary: 'The pre-configuration: name, title, compatibility, policy, a visitor’s part' } },
    schema: { response: { 200: { $ref: 'pre-config#' } } },
    handler: async (request, reply) => {
      // a visitor's start-up draws the sign-in form from its `guest` part (server/init/pre-config.ts)
      const json = await preConfigJson(app, { guest: !request.headers.authorization });
      return reply.type('application/json; charset=utf-8').send(json);
    },
  });

  app.get('/api/ui/config', {
    config: { access: 'public', operation: { resource: 'init', action: 'uiConfig', summary: 'The configuration bundle the runtime renders from' } },
    schema: {
      description: 'The merged, validated configuration bundle the runtime renders from. Called with a session (after sign-in), only the screens, schemas and texts the caller\'s role can reach; without one, the whole bundle.',
      response: { 200: uiConfigResponse, 304: { type: 'null', description: 'Not modified (If-None-Match)' } },
    },
    handler: async (request, reply) => {
      const bundle = app.config.bundle;
      const language = app.config.language;
      // after sign-in, the caller's role's part (issue 47): its own ETag, so that a copy kept for
      // one role is never taken for another's (a role changed ends the session: auth/sessions.ts)
      const role = request.callerRole;
      const etag = roleEtag(languageEtag(bundle, language), role);
      // the caller's language comes from his session, the sign-in page's cookie or Accept-Language
      reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'Authorization, Cookie, Accept-Language, Accept-Encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      // written out once per bundle (a reload or another variant is another bundle): ~230 KB of
      // open objects took the serializer 10–20 ms a call; compressed once too, when the client takes brotli
      const json = uiConfigJson(bundle, language, role);
      reply.type('application/json; charset=utf-8');
      const brotli = acceptsBrotli(request.headers['accept-encoding']) ? precompressed(bundle, bodyKey(language, role), json) : undefined;
      return brotli ? reply.header('content-encoding', 'br').send(brotli) : reply.send(json);
    },
  });

  app.get('/api/health', {
    config: { access: 'public', operation: { resource: 'init', action: 'health', summary: 'Whether the server and its database answer' } },
    // 503 is also the answer of an overloaded process (plugins/limits.ts), which sheds this call
    // too: a load balancer then sends new users elsewhere
    schema: { response: { 200: healthResponse, 503: { description: healthDown.description, anyOf: [healthDown, { $ref: 'error-response#' }] } } },
    handler: async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'UP' };
      } catch {
        return reply.status(503).send({ status: 'DOWN' });
      }
    },
  });
}
