/**
 * A real OpenID provider for the single sign-on tests (issue 36): `oidc-provider` (a certified
 * OpenID Connect server) on a local port, with the portal's test clients, PKCE required, and no
 * pages to click through: the person the test chose (`signInAs`) is signed in and consents at once.
 * A test may also make it misbehave the way an attacker or a broken provider would: its ID tokens
 * re-signed with its own key but a wrong issuer, audience or nonce (`tamper`), or its authorization
 * codes expired when they are redeemed (`expireCodes`).
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export interface TestPerson { sub: string; email?: string; email_verified?: boolean; given_name?: string; family_name?: string }
export interface TestClient { client_id: string; client_secret: string; redirect_uris: string[] }

export interface TestProvider {
  issuer: string;
  port: number;
  /** Who the next sign-ins are (until changed). */
  signInAs(person: TestPerson): void;
  /** ID tokens from now on carry a wrong claim (re-signed with the provider's own key); undefined: honest again. */
  tamper(claim: 'iss' | 'aud' | 'nonce' | undefined): void;
  /** Authorization codes are found expired when redeemed. */
  expireCodes(on: boolean): void;
  close(): Promise<void>;
}

const b64 = (value: object | Buffer) => Buffer.from(value instanceof Buffer ? value : JSON.stringify(value)).toString('base64url');

/** An ID token with one claim changed, signed as the provider signs (RS256, its key id). */
function resign(idToken: string, key: KeyObject, kid: string, claim: 'iss' | 'aud' | 'nonce'): string {
  const payload = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString('utf8'));
  payload[claim] = claim === 'iss' ? 'http://127.0.0.1:1/not-the-issuer' : claim === 'aud' ? 'another-client' : 'not-the-nonce';
  const input = `${b64({ alg: 'RS256', typ: 'JWT', kid })}.${b64(payload)}`;
  return `${input}.${b64(sign('RSA-SHA256', Buffer.from(input), key))}`;
}

export async function startTestProvider(port: number, clients: TestClient[]): Promise<TestProvider> {
  const issuer = `http://127.0.0.1:${port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'test-key';
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  let person: TestPerson = { sub: 'nobody' };
  let tampered: 'iss' | 'aud' | 'nonce' | undefined;
  let expired = false;

  // the provider's storage: a map, whose authorization codes can be made to look expired
  const store = new Map<string, any>();
  class Adapter {
    constructor(readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: any) {
      store.set(this.key(id), payload);
      if (payload.uid) store.set(`uid:${payload.uid}`, id);
    }
    async find(id: string) {
      const found = store.get(this.key(id));
      if (found && expired && this.model === 'AuthorizationCode') return { ...found, exp: Math.floor(Date.now() / 1000) - 60 };
      return found;
    }
    async findByUid(uid: string) {
      const id = store.get(`uid:${uid}`);
      return id ? this.find(id) : undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const found = store.get(this.key(id));
      if (found) found.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if (v?.grantId === grantId) store.delete(k);
    }
  }

  const provider = new Provider(issuer, {
    adapter: Adapter as any,
    clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' })),
    jwks: { keys: [jwk as any] },
    cookies: { keys: ['a test key, not a secret'] },
    pkce: { required: () => true },
    // lifetimes in seconds, set so the provider does not warn about its defaults
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600 },
    // the person's e-mail and names in the ID token, as Entra ID, Google and Keycloak put them there
    conformIdTokenClaims: false,
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'] },
    features: { devInteractions: { enabled: false } },
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => (sub === person.sub ? { ...person } : { sub }),
    }),
    // consent is given already: every client gets the scopes it asks for
    loadExistingGrant: async (ctx: any) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });

  provider.use(async (ctx: any, next: () => Promise<void>) => {
    await next();
    if (tampered && ctx.path === '/token' && ctx.status === 200 && ctx.body?.id_token) {
      ctx.body = { ...ctx.body, id_token: resign(ctx.body.id_token, privateKey, kid, tampered) };
    }
  });

  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    // the login "page": the chosen person is signed in at once
    if (req.url?.startsWith('/interaction/')) {
      provider.interactionFinished(req, res, { login: { accountId: person.sub } }, { mergeWithLastSubmission: false })
        .catch((e: Error) => { res.statusCode = 500; res.end(e.message); });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    port,
    signInAs: (p) => { person = p; },
    tamper: (claim) => { tampered = claim; },
    expireCodes: (on) => { expired = on; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
