/**
 * The request signature of spec §7 for a body that is streamed, not buffered (an attachment
 * upload). The signature plugin checks a signed route over the whole raw body it kept; an upload
 * may be many megabytes and is parsed as it arrives, so its route is declared `signed: false` for
 * the plugin and checks the same signature itself: the headers before reading, the HMAC over every
 * byte as it passes, the result before anything is written, the nonce recorded like every other.
 */
import { createHmac, type Hmac } from 'node:crypto';
import { once } from 'node:events';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { NONCE_HEADER, NONCE_WINDOW_MS, SIGNATURE_HEADER, nonceTime, signaturesEqual, type SignatureProblem } from '../../runtime/core/signing.ts';
import { HttpError } from '../http-error.ts';

export interface StreamedSignature {
  /** Call once the body has been read whole: throws the plugin's 400 when the signature does not fit or the nonce was used. */
  verify(): Promise<void>;
}

export function streamedSignature(app: FastifyInstance, request: FastifyRequest): StreamedSignature {
  const refuse = (problem: SignatureProblem | 'replayed') =>
    new HttpError(400, app.config.t(`errors:signature.${problem}`), { code: `SIGNATURE_${problem.toUpperCase()}` });
  const nonce = request.headers[NONCE_HEADER];
  const signature = request.headers[SIGNATURE_HEADER];
  if (typeof nonce !== 'string' || typeof signature !== 'string' || !nonce || !signature) throw refuse('missing');
  const time = nonceTime(nonce);
  if (time === null) throw refuse('malformedNonce');
  if (Math.abs(Date.now() - time) > NONCE_WINDOW_MS) throw refuse('stale');

  const mac: Hmac = createHmac('sha256', Buffer.from(app.config.bundle.app.name + nonce, 'utf8'));
  // a listener beside the parser's pipe: it sees the same chunks, in order, and holds none of them
  request.raw.on('data', (chunk: Buffer) => mac.update(chunk));

  return {
    async verify() {
      // the parser is done once the closing boundary is read; the HMAC covers every byte, to the last
      // (an epilogue after it still counts; the parser has let go of the stream, so read it here)
      if (!request.raw.readableEnded) {
        const ended = once(request.raw, 'end');
        request.raw.resume();
        await ended;
      }
      if (!signaturesEqual(mac.digest('base64'), signature)) throw refuse('mismatch');
      const { rows } = await sql<{ nonce: string }>`
        insert into used_nonce ("nonce", "usedAt") values (${nonce}, now())
        on conflict ("nonce") do nothing returning "nonce"`.execute(app.db);
      if (!rows[0]) throw refuse('replayed');
    },
  };
}
