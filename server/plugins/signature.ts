/**
 * Signed writes (spec §7): every POST and PUT must carry X-Nonce and X-Signature over its raw
 * body. Nonces are recorded in the database (not in memory), so a replay is refused by any server
 * process behind the same database.
 */
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { checkSignature, NONCE_HEADER, NONCE_WINDOW_MS, SIGNATURE_HEADER } from '../../runtime/core/signing.ts';
import { HttpError } from '../http-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string;
  }
}

const SIGNED_METHODS = new Set(['POST', 'PUT']);

export default fp(
  async (app) => {
    // Keep the exact bytes the client signed; parse JSON ourselves afterwards.
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      request.rawBody = body as string;
      if (body === '') return done(null, undefined);
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(new HttpError(400, app.config.t('errors:badRequest'), { code: 'BAD_JSON' }), undefined);
      }
    });

    app.addHook('preValidation', async (request) => {
      if (!SIGNED_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
      const nonce = request.headers[NONCE_HEADER] as string | undefined;
      const problem = checkSignature({
        preConfigName: app.config.bundle.app.name,
        nonce,
        signature: request.headers[SIGNATURE_HEADER] as string | undefined,
        body: request.rawBody ?? '',
      });
      if (problem) throw new HttpError(400, app.config.t(`errors:signature.${problem}`), { code: `SIGNATURE_${problem.toUpperCase()}` });
      const inserted = await app.db
        .insertInto('used_nonce')
        .values({ nonce: nonce!, usedAt: sql`now()` })
        .onConflict((oc) => oc.column('nonce').doNothing())
        .returning('nonce')
        .executeTakeFirst();
      if (!inserted) throw new HttpError(400, app.config.t('errors:signature.replayed'), { code: 'SIGNATURE_REPLAYED' });
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
