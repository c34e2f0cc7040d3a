/**
 * Single sign-on per client (issue 36): a fleet manager of a variant with single sign-on signs in
 * through the client's OpenID provider and lands on the Pulpit. The provider is a real one
 * (oidc-provider, tests/support/oidc-provider.ts) started by this journey, signing its chosen
 * person in without pages of its own; the portal is a second server of the same build running the
 * example variant (PORTAL_VARIANT=example: managers land on the Pulpit), its app.sso pointed at
 * that provider through a copy of the configuration (CONFIG_DIR).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema } from '../../server/db/connect.ts';
import { seededPGliteDataDir } from '../../server/seed/testing.ts';
import { eventually } from '../support/eventually.ts';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.ts';
import { ssoConfigRoot } from '../support/sso-config.ts';
import { PORT } from './ports';
import { ACCOUNTS, axeScan, expect, submitLogin, test, toast } from './support';

const port = PORT + 51;
const IDP_PORT = PORT + 52;
const PROVIDER_NAME = 'Transbud ID';
const schema = `${process.env.E2E_SCHEMA || 'e2e'}_sso_${process.env.TEST_PARALLEL_INDEX || 0}`;

test.describe('single sign-on of a client variant', () => {
  let server: ChildProcess | undefined;
  let idp: TestProvider | undefined;
  let dataDir: string | undefined;
  let configDir: string | undefined;
  test.use({ baseURL: `http://127.0.0.1:${port}` });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    idp = await startTestProvider(IDP_PORT, [{ client_id: 'portal-example', client_secret: 'secret-of-the-journey', redirect_uris: [`http://127.0.0.1:${port}/api/user/sso/callback`] }]);
    configDir = ssoConfigRoot({
      example: { name: PROVIDER_NAME, issuer: idp.issuer, clientId: 'portal-example', clientSecretEnv: 'SSO_JOURNEY_SECRET', roles: ['MANAGER'], match: { by: 'email' }, passwordSignIn: true },
    });
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), PORTAL_VARIANT: 'example', CONFIG_DIR: configDir, SSO_JOURNEY_SECRET: 'secret-of-the-journey', SECOND_FACTOR_OPTIONAL: '1', LOG: 'off' }; // the demo admin signs in with the password, as on serve.ts's server
    if (process.env.DATABASE_URL) {
      await dropSchema({ databaseUrl: process.env.DATABASE_URL, schema });
      env.DATABASE_SCHEMA = schema;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-sso-'));
      await seededPGliteDataDir(dataDir);
      env.DATA_DIR = dataDir;
    }
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'ignore' });
    await eventually(async () => {
      if (server!.exitCode !== null) throw new Error(`the SSO variant's server stopped (${server!.exitCode})`);
      return fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
    }, { within: 150_000, every: 500, what: 'the SSO variant\'s server answers /api/health' });
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const stopped = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await stopped;
    }
    await idp?.close();
    for (const dir of [dataDir, configDir]) if (dir) rmSync(dir, { recursive: true, force: true });
    if (process.env.DATABASE_URL) await dropSchema({ databaseUrl: process.env.DATABASE_URL, schema });
  });

  test('the sign-in page offers the provider beside the spec\'s form, at every width', async ({ page }) => {
    for (const width of [1400, 900, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
      await expect(page.getByRole('link', { name: `Zaloguj przez ${PROVIDER_NAME}` })).toBeVisible();
      await page.screenshot({ path: `test-results/sso-login-${width}.png`, fullPage: true });
    }
    expect((await axeScan(page).analyze()).violations).toEqual([]);
  });

  test('a fleet manager signs in through the client\'s provider and lands on the Pulpit', async ({ page }) => {
    idp!.signInAs({ sub: 'transbud-anna', email: 'anna.nowak@transbud.pl', email_verified: true, given_name: 'Anna', family_name: 'Nowak' });
    await page.goto('/');
    await page.getByRole('link', { name: `Zaloguj przez ${PROVIDER_NAME}` }).click();
    await expect(page).toHaveURL(/\/app\/pulpit$/);
    await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();
    // the one-time code has left the address bar
    expect(new URL(page.url()).hash).toBe('');
  });

  test('a person without an account of this client is told so on the sign-in page, in Polish', async ({ page, consoleErrors }) => {
    // the pick-up's 401 reaches the console as the browser's own line
    consoleErrors.allow(/Failed to load resource: the server responded with a status of 401/);
    idp!.signInAs({ sub: 'someone-else', email: 'nikt@transbud.pl', email_verified: true });
    await page.goto('/');
    await page.getByRole('link', { name: `Zaloguj przez ${PROVIDER_NAME}` }).click();
    await expect(page.getByTestId('login-error')).toHaveText(`Twoje konto w ${PROVIDER_NAME} nie jest powiązane z kontem portalu, które może logować się w ten sposób. Skontaktuj się z administratorem portalu.`);
    await page.setViewportSize({ width: 390, height: 900 });
    await page.screenshot({ path: 'test-results/sso-login-refused-390.png', fullPage: true });
  });

  test('the administrator enters a manager\'s SSO identifier in the user dialog', async ({ page }) => {
    await submitLogin(page, ACCOUNTS.admin);
    await expect(page).toHaveURL(/\/app\/pulpit$/);
    await page.goto('/app/users');
    await page.locator('.ag-row').filter({ hasText: 'manager2' }).first().click();
    await page.getByRole('button', { name: 'Edytuj', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edytuj użytkownika' });
    const field = edit.getByLabel(/^Identyfikator SSO/);
    await expect(field).toHaveValue('');
    await expect(edit.getByText(/Wartość, po której dostawca tożsamości klienta/)).toBeVisible();
    await field.fill('00000000-0000-0000-0000-0000000000aa');
    await edit.getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, 'Zapisano zmiany użytkownika')).toBeVisible();
    await page.locator('.ag-row').filter({ hasText: 'manager2' }).first().click();
    await page.getByRole('button', { name: 'Edytuj', exact: true }).click();
    await expect(page.getByRole('dialog', { name: 'Edytuj użytkownika' }).getByLabel(/^Identyfikator SSO/)).toHaveValue('00000000-0000-0000-0000-0000000000aa');
    await page.screenshot({ path: 'test-results/sso-user-dialog-1400.png' });
  });
});

