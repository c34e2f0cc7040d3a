/**
 * A typed client of the portal's API for an integrator: openapi-fetch over the types that
 * openapi-typescript generated from the portal's OpenAPI document (portal-api.d.ts, written by
 * `npm run gen`), with two middlewares:
 *
 * - the bearer token of the session (`Authorization: Bearer <id_token>` once signed in);
 * - the request signature every POST and PUT must carry (security schemes `nonce` and `signature`
 *   of the document): X-Nonce = the time in ms, a dot and random hex; X-Signature =
 *   base64(HMAC-SHA256(key = the pre-configuration's name + nonce, message = the raw body bytes)).
 *
 * Only node:crypto and openapi-fetch: nothing of the portal's own code is needed to call it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from './portal-api.d.ts';

export type PortalClient = ReturnType<typeof createClient<paths>>;

/** X-Nonce: milliseconds since 1970, a dot, 16 random hex digits (two calls in one ms differ). */
export function nonce(now = Date.now()): string {
  return `${now}.${randomBytes(8).toString('hex')}`;
}

/** X-Signature of a body (its exact bytes) for the pre-configuration name and the nonce. */
export function signature(preConfigName: string, nonceValue: string, body: Uint8Array): string {
  return createHmac('sha256', preConfigName + nonceValue).update(body).digest('base64');
}

/** Signs every POST and PUT over the bytes the request will send. */
export function signingMiddleware(preConfigName: string): Middleware {
  return {
    async onRequest({ request }) {
      if (request.method !== 'POST' && request.method !== 'PUT') return undefined;
      const body = new Uint8Array(await request.clone().arrayBuffer());
      const value = nonce();
      request.headers.set('X-Nonce', value);
      request.headers.set('X-Signature', signature(preConfigName, value, body));
      return request;
    },
  };
}

/** Sends the session's bearer token, once there is one. */
export function bearerMiddleware(token: () => string | undefined): Middleware {
  return {
    onRequest({ request }) {
      const value = token();
      if (value) request.headers.set('Authorization', `Bearer ${value}`);
      return request;
    },
  };
}

/**
 * A client for the portal at `baseUrl` (e.g. https://portal.example.pl): reads the
 * pre-configuration's name (the signing key's first half), then signs every write.
 */
export async function connect(baseUrl: string): Promise<{ client: PortalClient; setToken(token: string | undefined): void }> {
  let token: string | undefined;
  const client = createClient<paths>({ baseUrl });
  const { data, error } = await client.GET('/api/init/pre-config');
  if (error || !data) throw new Error(`pre-configuration not readable: ${JSON.stringify(error)}`);
  client.use(bearerMiddleware(() => token), signingMiddleware(data.name));
  return { client, setToken: (value) => (token = value) };
}
