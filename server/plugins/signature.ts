/**
 * Signed writes (spec §7): every route whose declaration says `signed` (POST and PUT unless a
 * route says otherwise, server/plugins/auth.ts) must carry X-Nonce and X-Signature over its raw
 * body, the bytes received whatever their Content-Type. Nonces are recorded in the database (not in memory), so a replay is refused by any server
 * process behind the same database.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { checkSignature, NONCE_HEADER, NONCE_WINDOW_MS, SIGNATURE_HEADER } from '../../runtime/core/signing.ts';
import { NonceLedger } from '../auth/nonce-ledger.ts';
import { HttpError } from '../http-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body's bytes exactly as received, whatever their content type: what the signature covers. */
    rawBody?: Buffer;
    /** A read-only route's nonce being recorded while its handler runs: rejects on a replay. */
    nonceRecorded?: Promise<void>;
  }
}

const JSON_TYPE = 'application/json';

/** The media type of a request (`text/plain; charset=utf-8` → `text/plain`), lower case. */
const mediaType = (header: string | undefined) => (header ?? '').split(';')[0].trim().toLowerCase();

export default fp(
  async (app) => {
    const ledger = new NonceLedger(app.db);
    // Every body is kept as the bytes received, so the signature is checked over exactly those
    // (Fastify's own text/plain parser would hand over a string nobody signed). JSON is parsed
    // from the same bytes; any other type stays a Buffer that only a route declaring it accepts.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(JSON_TYPE, { parseAs: 'buffer' }, (request, body, done) => {
      const bytes = body as Buffer;
      request.rawBody = bytes;
      if (bytes.length === 0) return done(null, undefined);
      try {
        done(null, JSON.parse(bytes.toString('utf8')));
      } catch {
        done(new HttpError(400, app.config.t('errors:badRequest'), { code: 'BAD_JSON' }), undefined);
      }
    });
    app.addContentTypeParser('*', { parseAs: 'buffer' }, (request, body, done) => {
      request.rawBody = body as Buffer;
      done(null, body);
    });

    app.addHook('preValidation', async (request) => {
      const config = request.routeOptions.config ?? {};
      if (!config.signed) return;
      // An integration key's call carries no signature (docs/decisions.md "Integration accounts and
      // keys"): the signature's key is the public pre-configuration name, so it proves only that the
      // caller is the portal's own runtime, which a key's caller is not; the key itself is the credential.
      // The body's media type is still the route's.
      if (request.integration) {
        const type = mediaType(request.headers['content-type']);
        if (request.rawBody?.length && type !== JSON_TYPE && !(config.bodyTypes ?? []).includes(type)) {
          throw new HttpError(415, app.config.t('errors:unsupportedMediaType'), { code: 'UNSUPPORTED_MEDIA_TYPE' });
        }
        return;
      }
      // a body some other parser consumed (a plugin's multipart, say) has no bytes to check: refused
      const length = request.headers['content-length'];
      const hasBody = (length !== undefined && length !== '0') || request.headers['transfer-encoding'] !== undefined;
      if (hasBody && request.rawBody === undefined) {
        throw new HttpError(400, app.config.t('errors:signature.unverifiable'), { code: 'SIGNATURE_UNVERIFIABLE' });
      }
      const nonce = request.headers[NONCE_HEADER] as string | undefined;
      const problem = checkSignature({
        preConfigName: app.config.bundle.app.name,
        nonce,
        signature: request.headers[SIGNATURE_HEADER] as string | undefined,
        body: request.rawBody ?? '',
      });
      if (problem) throw new HttpError(400, app.config.t(`errors:signature.${problem}`), { code: `SIGNATURE_${problem.toUpperCase()}` });
      // a body of a type the route does not take is refused, signed or not
      const type = mediaType(request.headers['content-type']);
      if (request.rawBody?.length && type !== JSON_TYPE && !(config.bodyTypes ?? []).includes(type)) {
        throw new HttpError(415, app.config.t('errors:unsupportedMediaType'), { code: 'UNSUPPORTED_MEDIA_TYPE' });
      }
      // A route that only reads records its nonce while its handler runs, one round trip less on
      // every table block; the answer waits for both, so a replay is still refused and never
      // answered. Its handler may have read rows by then: nothing was written, nothing is sent.
      const recorded = recordNonce(nonce!);
      if (config.readOnly) {
        request.nonceRecorded = recorded;
        recorded.catch(() => undefined); // awaited beside the handler (onRoute below)
      } else {
        await recorded;
      }
    });

    /** Refuses a nonce used before, by this process or any other on the same database. */
    async function recordNonce(nonce: string): Promise<void> {
      if (!(await ledger.record(nonce))) throw new HttpError(400, app.config.t('errors:signature.replayed'), { code: 'SIGNATURE_REPLAYED' });
    }

    // A read-only route answers when its handler and its nonce are both done: a replay (or a
    // database error recording it) fails the request, whatever the handler found.
    app.addHook('onRoute', (route) => {
      if (!route.config?.readOnly) return;
      const handler = route.handler;
      route.handler = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
        const [, answer] = await Promise.all([request.nonceRecorded, handler.call(this, request, reply)]);
        return answer;
      };
    });

    // Nonces older than the window can never be accepted again, so they need not be kept.
    const prune = () =>
      app.db
        .deleteFrom('used_nonce')
        .where('usedAt', '<', new Date(Date.now() - 2 * NONCE_WINDOW_MS))
        .execute()
        .catch((e) => app.log.warn(e, 'nonce pruning failed'));
    const timer = setInterval(prune, 60_000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'signature', dependencies: ['config', 'db'] },
);
