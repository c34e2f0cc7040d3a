/**
 * The request log (issue 33, docs/deployment.md "Logs"): ONE JSON line per request, written when
 * the answer has gone out, with what an operator needs to find a request and no more:
 *
 *   {"level":30,"time":"…","pid":…,"hostname":"…","requestId":"…","method":"GET",
 *    "route":"/api/order/:id","status":200,"durationMs":4.2,"userId":7,"role":"MANAGER",
 *    "variant":"default","msg":"request"}
 *
 * - `requestId`: the load balancer's `X-Request-Id` when it sends a well-formed one (bounded length,
 *   a safe charset: it is echoed in a header and shown to users), otherwise a new UUID; answered in
 *   the `X-Request-Id` header and in the body of every error answer (`requestId`), so a user's
 *   screenshot of an error leads to its line.
 * - `route` is the matched route's pattern, never the URL: a URL may carry a one-time download
 *   token in its query, and patterns are what an operator groups by.
 * - `userId` and `role` of the session, or `keyId` when the request was made with an integration
 *   key (its authentication puts the key's id in the request context: `requestContext.set('keyId', …)`).
 * - Never a body, a header, a query or an address: nothing here can hold a password, a token, a
 *   key, a signature or personal data. The pino `redact` paths below are the second guard, for a
 *   line some code writes with such an object.
 *
 * Fastify's own per-request lines ("incoming request", "request completed") are replaced by this
 * one through its LogController; its other lines (stream errors, a failed serializer) stay.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestContext, type RequestContextData } from '@fastify/request-context';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The id of the request being served, or of the request that queued the job being run. */
    requestId: string;
    /** The integration key a request is made with (set by the key's authentication; logged as `keyId`). */
    keyId: string | number;
  }
}

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What a load balancer's id may look like: haproxy's unique-id formats, UUIDs, AWS trace ids
 * (`Root=1-…`). Anything else (too long, a newline, a quote) is replaced, never echoed.
 */
const WELL_FORMED_ID = /^[A-Za-z0-9._:@=+/-]{1,128}$/;

/** The request's id: the header's when it is well formed, else a new one. */
export function requestIdFrom(header: string | string[] | undefined): string {
  return typeof header === 'string' && WELL_FORMED_ID.test(header) ? header : randomUUID();
}

/**
 * Paths censored in any log line (pino `redact`): the headers and fields that carry a secret, at the
 * top of a logged object or one level down (`{ body: { password } }`), and bodies as a whole.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-signature"]', 'req.headers["x-nonce"]',
  'res.headers["set-cookie"]', 'headers.authorization', 'headers.cookie', 'headers["x-signature"]',
  // a webhook's signature headers (issue 35), were an attempt's headers ever logged
  'headers["webhook-signature"]', '*.headers["webhook-signature"]',
  ...['password', 'newPassword', 'currentPassword', 'smtpPassword', 'token', 'id_token', 'authorization', 'signature', 'apiKey', 'secret',
    'previousSecret', 'secretKey', 'key',
    // single sign-on's flow (issue 36): were a flow or a provider's answer ever logged
    'codeVerifier', 'nonce', 'state', 'clientSecret', 'code_verifier', 'access_token', 'refresh_token',
    // two-factor sign-in (issue 36): codes, the TOTP secret and its URL, recovery codes, the sign-in ticket, a passkey's answer
    'code', 'recoveryCode', 'recoveryCodes', 'otpauthUrl', 'qrDataUrl', 'ticket', 'response']
    .flatMap((field) => [field, `*.${field}`]),
  'body', '*.body', 'payload', '*.payload',
];

/** Where the request's facts live while it is served: the request context's store, kept on the request. */
const STORE = Symbol('request-log store');
type Store = Partial<RequestContextData>;

function storeOf(request: FastifyRequest): Store | undefined {
  return (request as unknown as Record<symbol, Store | undefined>)[STORE];
}

/** The one line of a request (see the module comment). */
export function requestLine(request: FastifyRequest, reply: FastifyReply) {
  const store = storeOf(request);
  const session = request.session;
  return {
    method: request.method,
    // unmatched requests (404) have no pattern
    route: request.routeOptions.url ?? null,
    status: reply.statusCode,
    durationMs: Math.round(reply.elapsedTime * 10) / 10,
    // a key's session has no person behind it: its line names the key (keyId below), not a user
    ...(session && !session.integration ? { userId: session.userId, role: session.role } : {}),
    ...(store?.keyId !== undefined ? { keyId: store.keyId } : {}),
    variant: store?.variant ?? null,
  };
}

/** Fastify's per-request log lines, replaced by the one line. */
class RequestLogController extends LogController {
  constructor(private readonly enabled: boolean) {
    super({ requestIdLogLabel: 'requestId' });
  }

  override isLogDisabled(): boolean {
    return !this.enabled;
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (!this.enabled) return;
    const line = requestLine(request, reply);
    // an answer that failed on its way out (the socket broke) says why; a 5xx was logged with its stack by the error handler
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else if (reply.statusCode >= 500) reply.log.error(line, 'request');
    else reply.log.info(line, 'request');
  }
}

export interface RequestLogSettings {
  /** Write the log at all (`LOG=off` in main.ts: no). Request ids are made and answered either way. */
  enabled: boolean;
  /** Where the lines go (tests capture them); default standard output. */
  stream?: NodeJS.WritableStream;
}

/** The Fastify options of the log: pino with its redaction, the request ids, the one line. */
export function requestLogOptions(settings: RequestLogSettings): Pick<FastifyServerOptions, 'logger' | 'genReqId' | 'requestIdHeader' | 'logController'> {
  return {
    logger: settings.enabled
      ? {
          level: 'info',
          timestamp: () => `,"time":"${new Date().toISOString()}"`,
          redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
          // what Fastify would log of a request if some code logged one: never the URL (tokens ride in queries); a reply is its status
          serializers: {
            req: (request: FastifyRequest) => ({ method: request.method, route: request.routeOptions?.url ?? null }),
          },
          ...(settings.stream ? { stream: settings.stream } : {}),
        }
      : false,
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers[REQUEST_ID_HEADER]),
    logController: new RequestLogController(settings.enabled),
  };
}

/** The fields every error answer's body may carry besides its own. */
interface ErrorBodyLike {
  statusCode?: unknown;
  detail?: unknown;
  requestId?: unknown;
}

export default fp(
  async (app) => {
    app.addHook('onRequest', async (request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      requestContext.set('requestId', request.id);
      // the store lives as long as the request; the line is written after its async context is gone
      (request as unknown as Record<symbol, Store | undefined>)[STORE] = requestContext.getStore();
    });
    // every error answer names its request (plugins/errors.ts, the shedding of limits.ts, a refused download …)
    app.addHook('preSerialization', async (request, reply, payload: unknown) => {
      if (reply.statusCode < 400 || !payload || typeof payload !== 'object' || Array.isArray(payload)) return payload;
      const body = payload as ErrorBodyLike;
      if (body.detail === undefined || body.requestId !== undefined) return payload;
      return { ...body, requestId: request.id };
    });
  },
  // the request context is registered by the config plugin
  { name: 'request-log', dependencies: ['config'] },
);
