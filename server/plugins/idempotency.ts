/**
 * Submissions made once whatever the network does (issue 47): a route that declares
 * `config.idempotent` takes an `Idempotency-Key` header; the first request with a key runs, every
 * later one of the same principal with the same key gets the first answer again (status and body,
 * with `Idempotent-Replayed: true`) for at least 24 hours, and nothing is written twice.
 *
 * Each attempt is still signed anew (a fresh nonce, spec §7, checked before this): the key, not the
 * nonce, says that two attempts are one submission. Without the header a route works as before.
 *
 * - The key is taken (a row with no answer yet) before the handler; a second attempt while the
 *   first runs is answered 409 IDEMPOTENCY_IN_PROGRESS with Retry-After.
 * - The answer is kept when it is sent, unless it is a 5xx (the server failed: the submission may
 *   be tried again, so the row is let go) — a 4xx (a reading lower than the last one) is the
 *   submission's answer and is kept like a 200.
 * - The business write marks the row `committed` in its own transaction (services/write.ts reads
 *   the claim from the request context), so a process that died between its commit and keeping its
 *   answer leaves a row known as done: a later attempt is answered 409 IDEMPOTENCY_DONE instead of
 *   writing again. A row left without an answer and uncommitted for STALE_MS was a request that
 *   died before it wrote anything: the next attempt takes it over.
 * - The same key with another call or another body is refused (409 IDEMPOTENCY_KEY_REUSED).
 */
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContext } from '@fastify/request-context';
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** How long an answer is kept at least (the issue: 24 h per user); rows are pruned a little after. */
export const KEEP_MS = 24 * 60 * 60 * 1000;
/** A row without an answer and uncommitted for this long was a request that died before writing. */
export const STALE_MS = 2 * 60 * 1000;
/** A key is what a browser's crypto.randomUUID() or a similar token gives: 8 to 100 safe characters. */
const KEY_PATTERN = /^[A-Za-z0-9_.:-]{8,100}$/;

/** The submission a request holds, for the business write to mark as committed in its transaction. */
export interface IdempotencyClaim {
  principal: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes an Idempotency-Key: a repeated key gets the first answer (plugins/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    idempotency?: IdempotencyClaim;
  }
}

declare module '@fastify/request-context' {
  interface RequestContextData {
    idempotency: IdempotencyClaim;
  }
}

/** Marks the request's submission, if it has one, as written: in the business write's transaction. */
export async function markCommitted(trx: Transaction<DB>): Promise<void> {
  const claim = requestContext.get('idempotency');
  if (!claim) return;
  await trx.updateTable('idempotency_key').set({ committed: true }).where('principal', '=', claim.principal).where('key', '=', claim.key).execute();
}

/** Who the key belongs to: a person's account, or an integration key. */
function principalOf(request: FastifyRequest): string | null {
  const session = request.session;
  if (!session) return null;
  return request.integration ? `key:${request.integration.keyId}` : `user:${session.userId}`;
}

/** What makes two requests the same submission: the call and its body's bytes. */
function fingerprintOf(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.routeOptions.url}\n`);
  // a streamed body (an upload) is not read yet: its length stands for it
  if (request.rawBody) hash.update(request.rawBody);
  else hash.update(`length:${request.headers['content-length'] ?? ''}`);
  return hash.digest('base64url');
}

export default fp(
  async (app: FastifyInstance) => {
    const t = app.config.t;

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.routeOptions.config?.idempotent) return;
      const header = request.headers[IDEMPOTENCY_HEADER];
      if (header === undefined) return;
      const key = Array.isArray(header) ? header[0] : header;
      if (!KEY_PATTERN.test(key)) throw new HttpError(400, t('errors:idempotency.badKey'), { code: 'IDEMPOTENCY_KEY_INVALID' });
      const principal = principalOf(request);
      if (!principal) return;
      const fingerprint = fingerprintOf(request);
      const taken = await app.db
        .insertInto('idempotency_key')
        .values({ principal, key, fingerprint })
        .onConflict((c) => c.columns(['principal', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!taken) {
        const row = await app.db.selectFrom('idempotency_key').selectAll().where('principal', '=', principal).where('key', '=', key).executeTakeFirst();
        if (row && row.fingerprint !== fingerprint) throw new HttpError(409, t('errors:idempotency.reused'), { code: 'IDEMPOTENCY_KEY_REUSED' });
        if (row && row.status !== null) {
          // the first answer again; an upload's body is not read, so the connection closes after it
          if (!request.rawBody) reply.header('connection', 'close');
          reply.header('idempotent-replayed', 'true');
          reply.header('content-type', row.contentType ?? 'application/json; charset=utf-8');
          request.idempotencyReplayed = true;
          return reply.code(row.status).send(row.body ?? '');
        }
        if (row?.committed) throw new HttpError(409, t('errors:idempotency.done'), { code: 'IDEMPOTENCY_DONE' });
        const stale = row && Date.now() - new Date(row.createdAt).getTime() > STALE_MS;
        if (row && !stale) {
          reply.header('retry-after', '2');
          throw new HttpError(409, t('errors:idempotency.inProgress'), { code: 'IDEMPOTENCY_IN_PROGRESS' });
        }
        // gone meanwhile (pruned), or left by a request that died before writing: taken over
        await app.db
          .insertInto('idempotency_key')
          .values({ principal, key, fingerprint })
          .onConflict((c) => c.columns(['principal', 'key']).doUpdateSet({ createdAt: new Date(), fingerprint }).where('idempotency_key.committed', '=', false).where('idempotency_key.status', 'is', null))
          .execute();
      }
      request.idempotency = { principal, key };
      requestContext.set('idempotency', request.idempotency);
    });

    // the answer is kept as it leaves; a server failure lets the key go so the submission may be tried again
    app.addHook('onSend', async (request, reply, payload) => {
      const claim = request.idempotency;
      if (!claim || request.idempotencyReplayed) return payload;
      request.idempotency = undefined;
      const where = app.db.updateTable('idempotency_key').where('principal', '=', claim.principal).where('key', '=', claim.key);
      try {
        const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
        // an upload's signature is checked as its body streams (in the handler): a refused signature
        // is the attempt's fault, not the submission's answer, so the next attempt may still run
        const badSignature = reply.statusCode === 400 && body !== null && body.includes('"code":"SIGNATURE_');
        if (reply.statusCode >= 500 || badSignature) {
          await app.db.deleteFrom('idempotency_key').where('principal', '=', claim.principal).where('key', '=', claim.key).where('committed', '=', false).execute();
        } else {
          const contentType = reply.getHeader('content-type');
          await where.set({ status: reply.statusCode, body, contentType: contentType == null ? null : String(contentType) }).execute();
        }
      } catch (error) {
        // the answer still goes out; a later attempt finds the row committed (IDEMPOTENCY_DONE) or takes it over
        request.log.warn({ err: error }, 'keeping the idempotent answer failed');
      }
      return payload;
    });

    const prune = () =>
      app.db
        .deleteFrom('idempotency_key')
        .where('createdAt', '<', new Date(Date.now() - KEEP_MS - 60 * 60 * 1000))
        .execute()
        .catch((e) => app.log.warn(e, 'idempotency key pruning failed'));
    const timer = setInterval(prune, 10 * 60_000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'idempotency', dependencies: ['config', 'db', 'auth'] },
);

declare module 'fastify' {
  interface FastifyRequest {
    /** The answer was the kept one of an earlier attempt: nothing to keep again. */
    idempotencyReplayed?: boolean;
  }
}
