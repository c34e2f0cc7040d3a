/**
 * Whether an error means "the database cannot be reached right now" rather than "this request is
 * wrong": such a failure is answered 503 with a Polish "try again" text (errors:databaseUnavailable)
 * and the process keeps running; the pool opens fresh connections once the database is back.
 *
 * - SQLSTATE 57P01/57P02/57P03 (admin shutdown, crash shutdown, cannot connect now — a restart),
 *   class 08 (connection exceptions), 53300 (too many connections), 57014 (statement time-out);
 * - socket errors on the way to PostgreSQL (ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE …);
 * - pg's own "Connection terminated…" and pool "timeout exceeded when trying to connect";
 * - our pool's full waiting line (PoolQueueFullError).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'POOL_QUEUE_FULL']);
const MESSAGES = [/^Connection terminated/, /timeout exceeded when trying to connect/, /Client has encountered a connection error/, /Connection is not open/];

/** What an error (pg's, a socket's, an AggregateError) may carry; read from any thrown value. */
interface ErrorLike { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown }

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as ErrorLike).cause, depth++) {
    const { code: raw, message, errors } = e as ErrorLike;
    const code = typeof raw === 'string' ? raw : '';
    if (SQLSTATES.has(code) || SOCKET_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (typeof message === 'string' && MESSAGES.some((m) => m.test(message))) return true;
    if (Array.isArray(errors) && errors.some((inner: unknown) => isDatabaseUnavailable(inner))) return true; // AggregateError (IPv4 + IPv6 refused)
  }
  return false;
}
