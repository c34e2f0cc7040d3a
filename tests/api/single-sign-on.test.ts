/**
 * Single sign-on per client (issue 36) against a real OpenID provider running in the test
 * (tests/support/oidc-provider.ts): variant T (client KL005, host t.localhost) signs its managers
 * in through it matched by e-mail, password still allowed; variant P (client KL006, p.localhost)
 * matched by a claim the administrator sets on the account, password sign-in off. The browser's
 * part (following the redirects, carrying cookies) is done by hand, the portal's through inject.
 */
import { sql } from 'kysely';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SsoSettings } from '../../server/sign-in/sso/settings.ts';
import { startTestProvider, type TestPerson, type TestProvider } from '../support/oidc-provider.ts';
import { freePort } from '../support/portal-process.ts';
import { ssoConfigRoot } from '../support/sso-config.ts';
import { atProvider, cookiePair } from '../support/sso-browser.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const T_HOST = 't.localhost';
const P_HOST = 'p.localhost';
const DEALER_HOST = 'dealer.localhost';
const VARIANT_OF: Record<string, string> = { [T_HOST]: 't', [P_HOST]: 'p', [DEALER_HOST]: 'regional-dealer' };
const JOANNA: TestPerson = { sub: 'idp-joanna', email: 'joanna.wrobel@baltyk-logistyka.pl', email_verified: true, given_name: 'Joanna', family_name: 'Wróbel' };
const T_NAME = 'Bałtyk ID';
const P_NAME = 'Pol-Pharma Entra ID';
const texts = {
  noAccount: (name: string) => `Twoje konto w ${name} nie jest powiązane z kontem portalu, które może logować się w ten sposób. Skontaktuj się z administratorem portalu.`,
  state: (name: string) => `Logowanie przez ${name} wygasło, zostało już zakończone albo rozpoczęto je w innej przeglądarce. Zacznij logowanie jeszcze raz.`,
  token: (name: string) => `Odpowiedź dostawcy tożsamości (${name}) nie przeszła weryfikacji portalu. Zaloguj się jeszcze raz; jeśli błąd się powtarza, zgłoś go administratorowi.`,
  code: (name: string) => `Kod logowania od ${name} wygasł albo został już użyty. Zaloguj się jeszcze raz.`,
};

let idp: TestProvider;
let t: TestApp;
let ssoRoot: string;

beforeAll(async () => {
  idp = await startTestProvider(await freePort(), [
    { client_id: 'portal-t', client_secret: 'secret-of-t', redirect_uris: [`http://${T_HOST}/api/user/sso/callback`] },
    { client_id: 'portal-p', client_secret: 'secret-of-p', redirect_uris: [`http://${P_HOST}/api/user/sso/callback`] },
    { client_id: 'portal-dealer', client_secret: 'secret-of-dealer', redirect_uris: [`http://${DEALER_HOST}/api/user/sso/callback`] },
  ]);
  process.env.SSO_TEST_DEALER_SECRET = 'secret-of-dealer';
  process.env.SSO_TEST_T_SECRET = 'secret-of-t';
  process.env.SSO_TEST_P_SECRET = 'secret-of-p';
  const common = { issuer: idp.issuer, roles: ['MANAGER'] } as const;
  const root = ssoConfigRoot({
    t: { ...common, name: T_NAME, clientId: 'portal-t', clientSecretEnv: 'SSO_TEST_T_SECRET', match: { by: 'email' }, passwordSignIn: true } satisfies SsoSettings,
    p: { ...common, name: P_NAME, clientId: 'portal-p', clientSecretEnv: 'SSO_TEST_P_SECRET', match: { by: 'claim', claim: 'sub' }, passwordSignIn: false } satisfies SsoSettings,
    'regional-dealer': { ...common, name: 'Auto-Lublin ID', clientId: 'portal-dealer', clientSecretEnv: 'SSO_TEST_DEALER_SECRET', match: { by: 'email' }, passwordSignIn: true, createUsers: { role: 'MANAGER', client: 'KL004' } } satisfies SsoSettings,
  });
  ssoRoot = root;
  t = await startTestApp({ root });
});

afterAll(async () => {
  await t?.close();
  await idp?.close();
});

interface Journey {
  /** Changes the provider's answer before the browser brings it to the portal. */
  alter?: (callback: URL) => void;
  /** The portal's cookie as the browser sends it back (default: the one the start set). */
  cookie?: (original: string) => string | undefined;
}

/** Start → provider → callback; answers the callback's redirect and what it needs for a replay. */
async function throughProvider(host: string, person: TestPerson, journey: Journey = {}) {
  idp.signInAs(person);
  const start = await t.call('GET', '/api/user/sso/start', { headers: { host } });
  expect(start.statusCode, start.body).toBe(302);
  const cookie = cookiePair(start.headers['set-cookie']);
  expect(cookie).toMatch(/^portal_sso=[A-Za-z0-9_-]{43}$/);
  expect(String(start.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Lax/);
  const authorization = new URL(String(start.headers.location));
  // authorization code with PKCE (S256), state and nonce
  expect(authorization.searchParams.get('response_type')).toBe('code');
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorization.searchParams.get('state')).toBeTruthy();
  expect(authorization.searchParams.get('nonce')).toBeTruthy();
  const callback = await atProvider(authorization.href, host);
  journey.alter?.(callback);
  const sent = journey.cookie ? journey.cookie(cookie) : cookie;
  const back = await t.call('GET', callback.pathname + callback.search, { headers: { host, ...(sent ? { cookie: sent } : {}) } });
  return { back, callback, cookie };
}

/** The sign-in page picking up the callback's outcome. */
async function pickUp(host: string, back: { statusCode: number; headers: Record<string, unknown> }) {
  expect(back.statusCode).toBe(302);
  const code = /^\/#sso=([A-Za-z0-9_-]{43})$/.exec(String(back.headers.location))?.[1];
  expect(code, String(back.headers.location)).toBeTruthy();
  // signed as the runtime of that host's variant signs (its pre-configuration name)
  const payload = JSON.stringify({ code });
  const nonce = makeNonce();
  const name = t.app.config.forVariant(VARIANT_OF[host]).bundle.app.name;
  return t.app.inject({ method: 'POST', url: '/api/user/sso/session', payload, headers: { host, 'content-type': 'application/json', 'x-nonce': nonce, 'x-signature': signBody(name, nonce, payload) } });
}

async function signInThroughProvider(host: string, person: TestPerson, journey: Journey = {}) {
  const { back } = await throughProvider(host, person, journey);
  return pickUp(host, back);
}

const failuresOf = async (login: string) => (await sql<{ failures: number }>`select "failures" from sign_in_failure where "login" = ${login}`.execute(t.app.db)).rows[0]?.failures ?? 0;
const lastHistory = async () => (await sql<{ login: string; rodzaj: string; uwagi: string; success: boolean }>`select "login", "rodzaj", "uwagi", "success" from login_history order by "id" desc limit 1`.execute(t.app.db)).rows[0];

describe('single sign-on through the client\'s OpenID provider', () => {
  it('signs a known manager in: the same session and answer as a password sign-in, served by the client\'s variant', async () => {
    const res = await signInThroughProvider(T_HOST, JOANNA);
    expect(res.statusCode, res.body).toBe(200);
    const { id_token: token, body } = res.json();
    expect(body.userDetails).toMatchObject({ login: 't.manager', rola: 'MANAGER', klientSymbol: 'KL005' });
    expect(body.postConfig.variant).toBe('t');
    // a real session: the manager's calls answer, within the manager's row scope
    const cockpit = await t.call('GET', '/api/cockpit/orders-per-status', { token });
    expect(cockpit.statusCode, cockpit.body).toBe(200);
    expect(await lastHistory()).toMatchObject({ login: 't.manager', rodzaj: 'SSO_SIGN_IN', uwagi: 'SUCCESS', success: true });
  });

  it('keeps the first-login rule: an account that must choose its password is held at that step', async () => {
    await sql`update app_user set "firstLogin" = true where "login" = 't.manager'`.execute(t.app.db);
    try {
      const res = await signInThroughProvider(T_HOST, JOANNA);
      expect(res.statusCode).toBe(200);
      const cockpit = await t.call('GET', '/api/cockpit/orders-per-status', { token: res.json().id_token });
      expect(cockpit.statusCode).toBe(403);
      expect(cockpit.json().code).toBe('FIRST_LOGIN_REQUIRED');
    } finally {
      await sql`update app_user set "firstLogin" = false where "login" = 't.manager'`.execute(t.app.db);
    }
  });

  it('refuses a person with no account, in Polish', async () => {
    const res = await signInThroughProvider(T_HOST, { sub: 'idp-stranger', email: 'ktos.obcy@baltyk-logistyka.pl', email_verified: true });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe(texts.noAccount(T_NAME));
    expect(await lastHistory()).toMatchObject({ login: 'ktos.obcy@baltyk-logistyka.pl', rodzaj: 'SSO_SIGN_IN', uwagi: 'SSO_NO_ACCOUNT', success: false });
    // and in the audit trail (issue 37): a failed sign-in by the provider, the person as it named them, no account
    const entry = await t.app.db.selectFrom('audit_entry').selectAll().where('resource', '=', 'login').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ action: 'sign-in-failed', actorKind: 'system', recordKey: null, actorLabel: 'ktos.obcy@baltyk-logistyka.pl' });
    expect(typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes).toMatchObject({ method: [null, 'sso'], outcome: [null, 'SSO_NO_ACCOUNT'] });
  });

  it('refuses a user of another client (another variant\'s IdP) with the same answer, counted against that account\'s lock-out', async () => {
    // anna.nowak@transbud.pl is "manager" of KL001, which variant T does not serve
    const before = await failuresOf('manager');
    const res = await signInThroughProvider(T_HOST, { sub: 'idp-anna', email: 'anna.nowak@transbud.pl', email_verified: true });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe(texts.noAccount(T_NAME));
    expect(await failuresOf('manager')).toBe(before + 1);
    await sql`delete from sign_in_failure where "login" = 'manager'`.execute(t.app.db);
  });

  it('refuses an e-mail the provider says is not verified', async () => {
    const res = await signInThroughProvider(T_HOST, { ...JOANNA, email_verified: false });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe(texts.noAccount(T_NAME));
  });

  it('refuses a tampered state', async () => {
    const res = await signInThroughProvider(T_HOST, JOANNA, { alter: (cb) => cb.searchParams.set('state', `${cb.searchParams.get('state')}x`) });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe(texts.state(T_NAME));
  });

  it('refuses a replayed state (the flow is taken once, on any process)', async () => {
    const first = await throughProvider(T_HOST, JOANNA);
    expect((await pickUp(T_HOST, first.back)).statusCode).toBe(200);
    const again = await t.call('GET', first.callback.pathname + first.callback.search, { headers: { host: T_HOST, cookie: first.cookie } });
    const res = await pickUp(T_HOST, again);
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe(texts.state(T_NAME));
  });

  it('refuses a callback in a browser that did not start the sign-in (no cookie, or another one)', async () => {
    for (const cookie of [() => undefined, () => 'portal_sso=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await signInThroughProvider(T_HOST, JOANNA, { cookie });
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toBe(texts.state(T_NAME));
    }
  });

  it('refuses a tampered nonce, a wrong issuer and a wrong audience in the ID token', async () => {
    for (const claim of ['nonce', 'iss', 'aud'] as const) {
      idp.tamper(claim);
      try {
        const res = await signInThroughProvider(T_HOST, JOANNA);
        expect(res.statusCode, claim).toBe(401);
        expect(res.json().detail, claim).toBe(texts.token(T_NAME));
        expect(await lastHistory()).toMatchObject({ rodzaj: 'SSO_SIGN_IN', uwagi: 'SSO_REFUSED', success: false });
      } finally {
        idp.tamper(undefined);
      }
    }
  });

  it('refuses an expired authorization code', async () => {
    idp.expireCodes(true);
    try {
      const res = await signInThroughProvider(T_HOST, JOANNA);
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toBe(texts.code(T_NAME));
    } finally {
      idp.expireCodes(false);
    }
  });

  it('gives a callback\'s outcome once: the one-time code cannot be used again', async () => {
    const { back } = await throughProvider(T_HOST, JOANNA);
    expect((await pickUp(T_HOST, back)).statusCode).toBe(200);
    const again = await pickUp(T_HOST, back);
    expect(again.statusCode).toBe(401);
    expect(again.json().detail).toBe(texts.state(T_NAME));
  });

  it('refuses a locked account as a password sign-in would', async () => {
    await sql`insert into sign_in_failure ("login", "address", "failures", "lastFailedAt", "lockedUntil") values ('t.manager', '127.0.0.1', 0, now(), now() + interval '5 minutes')`.execute(t.app.db);
    try {
      const res = await signInThroughProvider(T_HOST, JOANNA);
      expect(res.statusCode).toBe(429);
      expect(res.json().detail).toMatch(/^Zbyt wiele nieudanych prób logowania/);
    } finally {
      await sql`delete from sign_in_failure where "login" = 't.manager'`.execute(t.app.db);
    }
  });

  it('tells the person when the provider sent them back without signing them in (they cancelled)', async () => {
    const res = await signInThroughProvider(T_HOST, JOANNA, {
      alter: (cb) => {
        cb.searchParams.delete('code');
        cb.searchParams.set('error', 'access_denied');
      },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe(`Dostawca tożsamości (${T_NAME}) nie potwierdził logowania. Zaloguj się jeszcze raz.`);
  });

  it('says the provider is unavailable, without a word about the secret, when its variable is not set', async () => {
    const secret = process.env.SSO_TEST_T_SECRET;
    delete process.env.SSO_TEST_T_SECRET;
    try {
      const start = await t.call('GET', '/api/user/sso/start', { headers: { host: T_HOST } });
      expect(start.headers.location).toMatch(/^\/#sso=/);
      const res = await pickUp(T_HOST, start);
      expect(res.statusCode).toBe(401);
      expect(res.json().detail).toBe(`Logowanie przez ${T_NAME} jest chwilowo niedostępne. Spróbuj ponownie za kilka minut.`);
    } finally {
      process.env.SSO_TEST_T_SECRET = secret;
    }
  });

  it('answers 404 in Polish where the variant has no single sign-on', async () => {
    const res = await t.call('GET', '/api/user/sso/start', { headers: { host: 'localhost' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().detail).toBe('Logowanie przez zewnętrznego dostawcę tożsamości nie jest skonfigurowane dla tego portalu.');
  });
});

describe('a variant matching by a claim the administrator sets, with password sign-in off', () => {
  const P_PERSON: TestPerson = { sub: 'entra-object-7f3a', email: 'inny.adres@pol-pharma.example', email_verified: true };

  it('finds nobody until the administrator enters the claim value in the user dialog, then signs that account in', async () => {
    expect((await signInThroughProvider(P_HOST, P_PERSON)).json().detail).toBe(texts.noAccount(P_NAME));

    const admin = await t.signIn('admin');
    const user = (await sql<any>`select * from v_users where "login" = 'p.manager'`.execute(t.app.db)).rows[0];
    const form = { login: user.login, firstName: user.firstName, lastName: user.lastName, email: user.email, telefon: user.telefon, dataDo: '2099-12-31', klientSymbol: user.klientSymbol, ssoSubject: P_PERSON.sub };
    const saved = await t.call('PUT', `/api/users/${user.id}`, { token: admin, body: form });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().user.ssoSubject).toBe(P_PERSON.sub);

    const res = await signInThroughProvider(P_HOST, P_PERSON);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().body.userDetails.login).toBe('p.manager');
  });

  it('does not ask for the portal\'s second factor after a sign-in through the provider, where the variant asks a password sign-in for it', async () => {
    // variant P requires a second factor of its managers (screens/app.json security); enforced here as in production
    const withoutFactorRule = t;
    t = await startTestApp({ root: ssoRoot, secondFactor: 'configured' });
    try {
      await sql`update app_user set "ssoSubject" = ${P_PERSON.sub} where "login" = 'p.manager'`.execute(t.app.db);
      const res = await signInThroughProvider(P_HOST, P_PERSON);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().body.userDetails).toMatchObject({ login: 'p.manager', secondFactorPending: false });
      // the provider proved the second factor: the session is not held at the enrolment gate
      const status = await t.call('GET', '/api/terms/status', { token: res.json().id_token });
      expect(status.json().code).not.toBe('SECOND_FACTOR_REQUIRED');
      expect((await t.call('GET', '/api/cockpit/orders-per-status', { token: res.json().id_token })).statusCode).toBe(200);
    } finally {
      await t.close();
      t = withoutFactorRule;
    }
  });

  it('refuses the password sign-in of that client\'s managers, in Polish, once the password is right', async () => {
    const right = await t.call('POST', '/api/user/auth', { body: { username: 'p.manager', password: 'Haslo123!', role: 'MANAGER' } });
    expect(right.statusCode).toBe(401);
    expect(right.json().detail).toBe(`Twoja firma loguje się do portalu przez ${P_NAME}. Użyj przycisku „Zaloguj przez ${P_NAME}”.`);
    // a wrong password still gets the answer every wrong password gets: nothing learnt about the account
    const wrong = await t.call('POST', '/api/user/auth', { body: { username: 'p.manager', password: 'Zle-haslo-1', role: 'MANAGER' } });
    expect(wrong.json().detail).toBe('Błąd logowania: Błędny login lub hasło!');
    // variant T still allows passwords
    expect((await t.call('POST', '/api/user/auth', { body: { username: 't.manager', password: 'Haslo123!', role: 'MANAGER' } })).statusCode).toBe(200);
  });
});

describe('a variant that creates accounts at the first sign-in (app.sso.createUsers)', () => {
  const NEW_PERSON: TestPerson = { sub: 'lublin-42', email: 'ewa.nowa-osoba@auto-lublin.example', email_verified: true, given_name: 'Ewa', family_name: 'Nowa' };

  it('creates the account with the configured role and client only, once, and signs it in', async () => {
    const first = await signInThroughProvider(DEALER_HOST, NEW_PERSON);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().body.userDetails).toMatchObject({ login: 'ewa.nowa-osoba', rola: 'MANAGER', klientSymbol: 'KL004', firstName: 'Ewa', lastName: 'Nowa', email: NEW_PERSON.email, firstLogin: false });
    expect(first.json().body.postConfig.variant).toBe('regional-dealer');
    const again = await signInThroughProvider(DEALER_HOST, NEW_PERSON);
    expect(again.json().body.userDetails.id).toBe(first.json().body.userDetails.id);
    const accounts = await sql<{ n: number }>`select count(*)::int as n from app_user where lower("email") = ${NEW_PERSON.email}`.execute(t.app.db);
    expect(accounts.rows[0].n).toBe(1);
    // the new account is in its Historia zmian: made by the single sign-on, with every field it was made with (issue 45)
    const trail = await t.app.db.selectFrom('audit_entry').select(['action', 'actorKind', 'job', 'changes'])
      .where('resource', '=', 'users').where('recordKey', '=', String(first.json().body.userDetails.id)).execute();
    expect(trail).toEqual([expect.objectContaining({ action: 'create', actorKind: 'system', job: 'single-sign-on' })]);
    const changes = typeof trail[0].changes === 'string' ? JSON.parse(trail[0].changes) : trail[0].changes;
    expect(changes).toMatchObject({ login: [null, 'ewa.nowa-osoba'], rola: [null, 'MANAGER'], klientSymbol: [null, 'KL004'], email: [null, NEW_PERSON.email] });
  });

  it('creates nothing for a person whose e-mail is another client\'s account, nor where the configuration does not say so', async () => {
    // anna.nowak@transbud.pl is KL001's manager: refused, not duplicated into KL004
    expect((await signInThroughProvider(DEALER_HOST, { sub: 'x', email: 'anna.nowak@transbud.pl', email_verified: true })).statusCode).toBe(401);
    const annas = await sql<{ n: number }>`select count(*)::int as n from app_user where lower("email") = 'anna.nowak@transbud.pl'`.execute(t.app.db);
    expect(annas.rows[0].n).toBe(1);
    await sql`delete from sign_in_failure where "login" = 'manager'`.execute(t.app.db);
    // variant T has no createUsers: a stranger stays a stranger
    expect((await signInThroughProvider(T_HOST, { sub: 'y', email: 'obcy@baltyk-logistyka.pl', email_verified: true })).statusCode).toBe(401);
    const strangers = await sql<{ n: number }>`select count(*)::int as n from app_user where lower("email") = 'obcy@baltyk-logistyka.pl'`.execute(t.app.db);
    expect(strangers.rows[0].n).toBe(0);
  });
});
