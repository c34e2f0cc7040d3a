/**
 * One server, several client variants (issue 15, docs/variants.md): a request is served by the
 * variant claiming its host name, a signed-in user by the variant claiming their client, and
 * nothing of one variant — bundle, texts, rules — reaches a request another variant serves.
 * The variants here are fixtures written into a copy of the configuration.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config/load-bundle.ts';
import { loadVariants, variantForClient, variantForHost } from '../../server/config/variants.ts';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { DEMO, ROOT, startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

function configCopy(variants: Record<string, object>): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-variants-'));
  for (const sub of ['screens', 'schemas', 'locales']) cpSync(join(ROOT, sub), join(dir, sub), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  for (const [name, variant] of Object.entries(variants)) {
    mkdirSync(join(dir, 'client-variants', name), { recursive: true });
    writeFileSync(join(dir, 'client-variants', name, 'variant.json'), JSON.stringify({ schemaVersion: 1, name, ...variant }));
  }
  return dir;
}

const FIXTURES = {
  dealer: { hosts: ['dealer.localhost'], app: { name: 'portal-dealer', loginAppName: 'Portal dealera', config: { excelExportLimit: 7 } } },
  brand: { clients: ['KL002'], app: { loginAppName: 'Portal marki', config: { managerEditsApprovedScope: true } } },
  // claims nothing: served only when it is a deployment's PORTAL_VARIANT
  quiet: { app: { loginAppName: 'Cichy' } },
};

describe('choosing the variant of a request', () => {
  let root: string;
  beforeAll(() => {
    root = configCopy(FIXTURES);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('loads the default and every variant that claims hosts or clients, not the others', () => {
    const set = loadVariants({ root });
    expect([...set.bundles.keys()].sort()).toEqual(['brand', 'dealer', 'default']);
    expect(set.bundles.get('dealer')!.app.loginAppName).toBe('Portal dealera');
    expect(set.bundles.get('default')!.app.loginAppName).toBe('Partner CFM');
  });

  it('keeps PORTAL_VARIANT as the default for hosts nobody claims', () => {
    const set = loadVariants({ root, variant: 'quiet' });
    expect(variantForHost(set, 'portal.example.com')).toBe('quiet');
    expect(variantForHost(set, 'DEALER.localhost:3000')).toBe('dealer');
    expect(variantForClient(set, 'KL002')).toBe('brand');
    expect(variantForClient(set, 'KL001')).toBeUndefined();
    expect(variantForClient(set, null)).toBeUndefined();
  });

  it('refuses a host claimed by two variants, naming the file and pointer', () => {
    const clash = configCopy({ ...FIXTURES, second: { hosts: ['x.localhost', 'dealer.localhost'] } });
    try {
      expect(() => loadVariants({ root: clash })).toThrow(ConfigError);
      try {
        loadVariants({ root: clash });
      } catch (e) {
        expect((e as ConfigError).problems).toContainEqual({
          file: 'client-variants/second/variant.json', pointer: '/hosts/1', reason: 'host "dealer.localhost" is claimed by client-variants/dealer too',
        });
      }
    } finally {
      rmSync(clash, { recursive: true, force: true });
    }
  });

  it('refuses a broken variant even when it is not the default (every served variant is validated)', () => {
    const broken = configCopy({ ...FIXTURES, odd: { hosts: ['odd.localhost'], app: { config: 'not an object' } } });
    try {
      expect(() => loadVariants({ root: broken })).toThrow(/client-variants\/odd/);
    } finally {
      rmSync(broken, { recursive: true, force: true });
    }
  });
});

describe('one server serving several variants', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    root = configCopy(FIXTURES);
    t = await startTestApp({ root });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const config = (headers: Record<string, string>, token?: string) => t.call('GET', '/api/ui/config', { headers, token });

  it('serves each host its own bundle, with its own ETag', async () => {
    const plain = await config({ host: 'portal.localhost' });
    const dealer = await config({ host: 'dealer.localhost:3000' });
    expect(plain.json().variant).toBe('default');
    expect(dealer.json().variant).toBe('dealer');
    expect(dealer.json().config.excelExportLimit).toBe(7);
    expect(plain.json().config.excelExportLimit).not.toBe(7);
    expect(dealer.headers.etag).not.toBe(plain.headers.etag);
    // the other variant's ETag does not make a 304: the bundle is the host's
    expect((await config({ host: 'dealer.localhost', 'if-none-match': String(plain.headers.etag) })).statusCode).toBe(200);
    expect((await config({ host: 'dealer.localhost', 'if-none-match': String(dealer.headers.etag) })).statusCode).toBe(304);
  });

  it('answers the pre-configuration of the host (its own signing name and title)', async () => {
    const dealer = (await t.call('GET', '/api/init/pre-config', { headers: { host: 'dealer.localhost' } })).json();
    expect(dealer).toMatchObject({ name: 'portal-dealer', loginAppName: 'Portal dealera' });
    expect((await t.call('GET', '/api/init/pre-config')).json()).toMatchObject({ name: 'portal-cfm', loginAppName: 'Partner CFM' });
  });

  it('checks a signed write against the signing name of the variant serving it', async () => {
    // signed with the default name, sent to the dealer host: the signature does not hold there
    const res = await t.call('POST', '/api/user/auth', { body: { username: 'manager', password: 'x', role: 'MANAGER' }, headers: { host: 'dealer.localhost' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toMatch(/^SIGNATURE_/);
  });

  it('serves a signed-in user of a claimed client by that variant on any host, and tells the runtime at sign-in', async () => {
    const signIn = await t.call('POST', '/api/user/auth', { body: { username: 'manager2', password: 'Manager123!', role: 'MANAGER' } });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().body.postConfig.variant).toBe('brand');
    const token = signIn.json().id_token as string;
    expect((await config({}, token)).json()).toMatchObject({ variant: 'brand', app: { loginAppName: 'Portal marki' } });
    expect((await config({ host: 'dealer.localhost' }, token)).json().variant).toBe('brand');
    // a user of an unclaimed client keeps the host's variant
    const manager = await t.signIn('manager');
    expect((await config({}, manager)).json().variant).toBe('default');
    // a token that is not a session is ignored on a public call: the host decides
    expect((await config({ host: 'dealer.localhost' }, 'x'.repeat(43))).json().variant).toBe('dealer');
  });

  it('serves a new or changed variant after the administrator’s refresh, without a restart', async () => {
    const variantAt = async (host: string) => (await config({ host })).json();
    expect((await variantAt('late.localhost')).variant).toBe('default');
    mkdirSync(join(root, 'client-variants', 'late'), { recursive: true });
    writeFileSync(join(root, 'client-variants', 'late', 'variant.json'), JSON.stringify({ schemaVersion: 1, name: 'late', hosts: ['late.localhost'], app: { loginAppName: 'Późny wariant' } }));
    writeFileSync(join(root, 'client-variants', 'dealer', 'variant.json'), JSON.stringify({ ...FIXTURES.dealer, schemaVersion: 1, name: 'dealer', app: { ...FIXTURES.dealer.app, loginAppName: 'Portal dealera 2' } }));
    const admin = await t.signIn('admin');
    expect((await t.call('GET', '/api/settings/restart-application', { token: admin })).statusCode).toBe(200);
    expect(await variantAt('late.localhost')).toMatchObject({ variant: 'late', app: { loginAppName: 'Późny wariant' } });
    expect((await variantAt('dealer.localhost')).app.loginAppName).toBe('Portal dealera 2');
  });

  it('answers 404, not 500, for a branding image removed from the folder after the load', async () => {
    mkdirSync(join(root, 'client-variants', 'dealer', 'assets'), { recursive: true });
    writeFileSync(join(root, 'client-variants', 'dealer', 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(root, 'client-variants', 'dealer', 'variant.json'), JSON.stringify({ ...FIXTURES.dealer, schemaVersion: 1, name: 'dealer', app: { ...FIXTURES.dealer.app, branding: { logo: 'logo.svg' } } }));
    const admin = await t.signIn('admin');
    expect((await t.call('GET', '/api/settings/restart-application', { token: admin })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/ui/assets/logo.svg', { headers: { host: 'dealer.localhost' } })).statusCode).toBe(200);
    rmSync(join(root, 'client-variants', 'dealer', 'assets', 'logo.svg'));
    const gone = await t.call('GET', '/api/ui/assets/logo.svg', { headers: { host: 'dealer.localhost' } });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().detail).toBe('Nie znaleziono');
  });

  it('applies the server-side rules of the user’s variant (approved scope editable by the brand’s manager only)', async () => {
    const brandManager = await t.signIn('manager2');
    const manager = await t.signIn('manager');
    const orderOf = async (token: string) => {
      const res = await t.call('POST', '/api/order/table2', { token, body: { startRow: 0, endRow: 1 } });
      return res.json().rows[0] as { autId: number } | undefined;
    };
    const own = await orderOf(brandManager);
    const other = await orderOf(manager);
    expect(own && other).toBeTruthy();
    const edit = (token: string, autId: number) => t.call('PUT', `/api/order/${autId}`, { token, body: { zlecZakres: 'Zakres uzgodniony z opiekunem' } });
    expect((await edit(brandManager, own!.autId)).statusCode).toBe(200);
    const refused = await edit(manager, other!.autId);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ field: 'zlecZakres', message: 'Nie masz uprawnień do zmiany tego pola' }]);
  });
});

describe('the four client variants of the repository, served by one server, with their demo clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  /** A call to a variant's host, signed with that variant's own pre-configuration name. */
  const at = async (host: string, method: 'GET' | 'POST' | 'PUT', url: string, options: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = { host };
    if (method !== 'GET') {
      const name = (await t.call('GET', '/api/init/pre-config', { headers: { host } })).json().name as string;
      const nonce = makeNonce();
      headers['x-nonce'] = nonce;
      headers['x-signature'] = signBody(name, nonce, JSON.stringify(options.body ?? {}));
    }
    return t.call(method, url, { ...options, headers, sign: false });
  };
  const signInAt = async (host: string, account: DemoAccount) => {
    const res = await at(host, 'POST', '/api/user/auth', { body: DEMO[account] });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id_token as string;
  };

  it('serves each variant at its declared host', async () => {
    const variantAt = async (host: string) => (await t.call('GET', '/api/ui/config', { headers: { host } })).json().variant;
    expect(await variantAt('dealer.localhost')).toBe('regional-dealer');
    expect(await variantAt('t.localhost')).toBe('t');
    expect(await variantAt('p.localhost')).toBe('p');
    expect(await variantAt('marka.localhost:3000')).toBe('customer-brand');
    expect(await variantAt('127.0.0.1:3000')).toBe('default');
  });

  it('regional dealer: a fleet manager may not report a damage as AC z regresem or OC nasze there, and may elsewhere', async () => {
    const vehicle = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('rejestr', '=', 'WZ67890').executeTakeFirstOrThrow();
    const kowalski = (await t.app.db.selectFrom('employee').select('pracId').where('nazwisko', '=', 'Kowalski').where('imie', '=', 'Jan').executeTakeFirstOrThrow()).pracId;
    const damage = (zpolisTyp: string) => ({
      ...vehicle, pracId: kowalski, dataSzkod: new Date().toISOString(), rodzSzkod: 'Kolizja drogowa', zpolisTyp,
      zgloNazwiskoImie: 'Nowak Anna', zgloTelef: '+48 600 100 200', zgloEmail: 'anna.nowak@transbud.pl',
    });
    const dealerManager = await signInAt('dealer.localhost', 'manager');
    for (const zpolisTyp of ['AC z regresem', 'OC nasze']) {
      const refused = await at('dealer.localhost', 'POST', '/api/damage/add', { token: dealerManager, body: damage(zpolisTyp) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().errors).toEqual([{ field: 'zpolisTyp', message: 'Wybierz jedną z dostępnych wartości' }]);
    }
    expect((await at('dealer.localhost', 'POST', '/api/damage/add', { token: dealerManager, body: damage('OC') })).statusCode).toBe(200);
    const manager = await t.signIn('manager');
    expect((await t.call('POST', '/api/damage/add', { token: manager, body: damage('OC nasze') })).statusCode).toBe(200);
  });

  it('T: the fleet manager edits the approved scope there, and not under the default variant', async () => {
    const autId = (await t.app.db.selectFrom('v_order').select('autId').where('klientSymbol', '=', 'KL001').where('czySzkoda', '=', false).orderBy('autId').executeTakeFirstOrThrow()).autId;
    const body = { zlecZakres: 'Wymiana klocków hamulcowych (uzgodnione)' };
    const tManager = await signInAt('t.localhost', 'manager');
    expect((await at('t.localhost', 'PUT', `/api/order/${autId}`, { token: tManager, body })).statusCode).toBe(200);
    const refused = await t.call('PUT', `/api/order/${autId}`, { token: await t.signIn('manager'), body });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ field: 'zlecZakres', message: 'Nie masz uprawnień do zmiany tego pola' }]);
  });

  it('customer brand: the users of its client (KL003) get it on any host, others keep the host’s', async () => {
    const signIn = await t.call('POST', '/api/user/auth', { body: { username: 'manager3', password: 'Haslo123!', role: 'MANAGER' } });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().body.postConfig.variant).toBe('customer-brand');
    const token = signIn.json().id_token as string;
    expect((await t.call('GET', '/api/ui/config', { token })).json().variant).toBe('customer-brand');
    expect((await t.call('GET', '/api/init/pre-config', { token })).json().loginAppName).toBe('Zielona Flota – portal kierowcy');
    // its logo reaches its users through the API client, which sends the session
    expect((await t.call('GET', '/api/ui/assets/logo.svg', { token })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/ui/config', { token: await t.signIn('manager') })).json().variant).toBe('default');
  });

  /** A signed call as a signed-in user on the default host, signed with the name of the variant serving that user. */
  const asUser = async (token: string, method: 'POST' | 'PUT', url: string, body: unknown) => {
    const name = (await t.call('GET', '/api/init/pre-config', { token })).json().name as string;
    const nonce = makeNonce();
    const headers = { 'x-nonce': nonce, 'x-signature': signBody(name, nonce, JSON.stringify(body)) };
    return t.call(method, url, { token, body, headers, sign: false });
  };
  const signInDemo = async (username: string, role: string, rejestr?: string) => {
    const res = await t.call('POST', '/api/user/auth', { body: { username, password: 'Haslo123!', role, ...(rejestr ? { rejestr } : {}) } });
    expect(res.statusCode, res.body).toBe(200);
    return { token: res.json().id_token as string, variant: res.json().body.postConfig.variant as string };
  };

  it('each variant’s own demo client (client-variants/*/demo.json) signs in to its variant on the default host', async () => {
    for (const [login, role, variant, rejestr] of [
      ['dealer.manager', 'MANAGER', 'regional-dealer'], ['dealer.kierowca', 'USER', 'regional-dealer', 'LU4521A'],
      ['t.manager', 'MANAGER', 't'], ['t.kierowca', 'USER', 't', 'GD3310K'],
      ['p.manager', 'MANAGER', 'p'], ['p.kierowca', 'USER', 'p', 'EL2049P'],
    ]) {
      const session = await signInDemo(login, role, rejestr);
      expect(session.variant, login).toBe(variant);
      expect((await t.call('GET', '/api/ui/config', { token: session.token })).json().variant, login).toBe(variant);
    }
  });

  it('regional dealer’s own manager is refused AC z regresem on any host, for the dealer’s own vehicle', async () => {
    const { token } = await signInDemo('dealer.manager', 'MANAGER');
    const vehicle = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'pracId']).where('rejestr', '=', 'LU4521A').executeTakeFirstOrThrow();
    const damage = (zpolisTyp: string) => ({
      ...vehicle, dataSzkod: new Date().toISOString(), rodzSzkod: 'Szkoda parkingowa', zpolisTyp,
      zgloNazwiskoImie: 'Pawlak Monika', zgloTelef: '+48 603 110 221', zgloEmail: 'monika.pawlak@auto-lublin.pl',
    });
    const refused = await asUser(token, 'POST', '/api/damage/add', damage('AC z regresem'));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ field: 'zpolisTyp', message: 'Wybierz jedną z dostępnych wartości' }]);
    expect((await asUser(token, 'POST', '/api/damage/add', damage('AC'))).statusCode).toBe(200);
  });

  it('T’s own manager edits the approved scope of the client’s order on any host; the manager of another client may not edit it at all', async () => {
    const { token } = await signInDemo('t.manager', 'MANAGER');
    const order = await t.app.db.selectFrom('v_order').select('autId').where('rejestr', '=', 'GD3310K').executeTakeFirstOrThrow();
    const body = { zlecZakres: 'Wymiana łączników stabilizatora i tulei wahacza przód' };
    expect((await asUser(token, 'PUT', `/api/order/${order.autId}`, body)).statusCode).toBe(200);
    const stored = await t.app.db.selectFrom('service_order').select('zlecZakres').where('autId', '=', order.autId).executeTakeFirstOrThrow();
    expect(stored.zlecZakres).toBe(body.zlecZakres);
    // ACCESS.md: a manager sees and writes the orders of their own client only
    expect([403, 404]).toContain((await t.call('PUT', `/api/order/${order.autId}`, { token: await t.signIn('manager'), body })).statusCode);
  });

  it('customer brand: its logo and favicon are served at its host only, and nothing else of its folder', async () => {
    const logo = await t.call('GET', '/api/ui/assets/logo.svg', { headers: { host: 'marka.localhost' } });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.body).toContain('Zielona');
    expect((await t.call('GET', '/api/ui/assets/favicon.svg', { headers: { host: 'marka.localhost' } })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/ui/assets/logo.svg')).statusCode).toBe(404);
    expect((await t.call('GET', '/api/ui/assets/logo.svg', { headers: { host: 'dealer.localhost' } })).statusCode).toBe(404);
    for (const probe of ['variant.json', '..%2Fvariant.json', '..%2F..%2Fpackage.json', '%2Fetc%2Fpasswd']) {
      expect((await t.call('GET', `/api/ui/assets/${probe}`, { headers: { host: 'marka.localhost' } })).statusCode).toBe(404);
    }
    const config = (await t.call('GET', '/api/ui/config', { headers: { host: 'marka.localhost' } })).json();
    expect(config.app).toMatchObject({ loginAppName: 'Zielona Flota – portal kierowcy', branding: { logo: 'logo.svg', favicon: 'favicon.svg' } });
  });
});
