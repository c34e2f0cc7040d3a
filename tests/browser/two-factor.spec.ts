/**
 * Two-factor sign-in, passkeys and sessions (issue 36): an administrator sets up the authenticator
 * app on Ustawienia → Bezpieczeństwo (the test computes the codes from the secret shown as text),
 * signs out and in with a code, then with a recovery code; a fleet manager registers a passkey in
 * Chromium's virtual authenticator and signs in with it. Each journey takes its factor away at the
 * end, as the other journeys sign the same accounts in with the password alone (and if the journey
 * fails before, an administrator resets them).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { generate } from 'otplib';
import { ACCOUNTS, axeScan, expect, resetSecondFactorsIfFailed, submitLogin, test, toast } from './support';

/** Outside test-results/, which Playwright empties at every run: the screenshots are looked at afterwards. */
const SHOTS = '/tmp/two-factor-shots';
const WIDTHS = [1400, 900, 390];

async function shots(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize()!;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

async function noSeriousViolations(page: Page) {
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  const result = await axeScan(page).analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * The codes of an authenticator app holding `secret`: each one of a later time step than the last
 * (the server takes a step once), waiting — with a pause — until the server may take it (one step
 * ahead of its clock at most).
 */
function authenticator(secret: string) {
  let used = Math.floor(Date.now() / 30_000) - 1;
  return async () => {
    await expect.poll(() => Math.floor(Date.now() / 30_000) >= used, { intervals: [1000], timeout: 60_000 }).toBe(true);
    used += 1;
    return generate({ secret, epoch: used * 30 });
  };
}

const openSecurity = async (page: Page) => {
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Bezpieczeństwo' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Bezpieczeństwo' })).toBeVisible();
};
const signOut = async (page: Page) => {
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Wyloguj' }).click();
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
};

resetSecondFactorsIfFailed(['admin', 'manager']);

test('an administrator sets up the authenticator app, then signs in with a code and with a recovery code', async ({ page }) => {
  test.setTimeout(240_000);
  await submitLogin(page, ACCOUNTS.admin);
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await openSecurity(page);
  const totp = page.getByRole('region', { name: 'Aplikacja uwierzytelniająca' });
  await expect(totp.getByTestId('totp-state')).toHaveText('Wyłączona');
  await expect(page.getByRole('region', { name: 'Zalogowane sesje' }).getByText('Ta sesja')).toBeVisible();
  await noSeriousViolations(page);
  await shots(page, 'security');

  await totp.getByRole('button', { name: 'Włącz' }).click();
  await expect(totp.getByRole('img', { name: 'Kod QR do zeskanowania w aplikacji uwierzytelniającej' })).toBeVisible();
  const secret = (await totp.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  const nextCode = authenticator(secret);
  await shots(page, 'security-setup');
  // a wrong code first: the server's words under the form
  await totp.getByLabel('Kod z aplikacji').fill('000000');
  await totp.getByRole('button', { name: 'Potwierdź i włącz' }).click();
  await expect(totp.getByText(/Nieprawidłowy lub wygasły kod/)).toBeVisible();
  await totp.getByLabel('Kod z aplikacji').fill(await nextCode());
  await totp.getByRole('button', { name: 'Potwierdź i włącz' }).click();

  // the ten recovery codes, shown once in the reveal dialog
  const reveal = page.getByRole('dialog', { name: 'Kody odzyskiwania' });
  await expect(reveal).toBeVisible();
  await expect(reveal.getByText(/Nie zobaczysz ich ponownie/)).toBeVisible();
  const codes = (await reveal.getByLabel('Kody odzyskiwania').inputValue()).split('\n');
  expect(codes).toHaveLength(10);
  // behind the codes the section already says what is so
  await expect(totp.getByTestId('totp-state')).toHaveText('Włączona');
  await shots(page, 'recovery-codes');
  await reveal.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(totp.getByTestId('totp-state')).toHaveText('Włączona');
  await expect(totp.getByText('Pozostałe kody odzyskiwania: 10')).toBeVisible();

  // out and in again: the second step after the password, in Polish
  await signOut(page);
  await submitLogin(page, ACCOUNTS.admin);
  const step = page.getByTestId('second-step');
  await expect(step.getByRole('heading', { name: 'Weryfikacja dwuetapowa' })).toBeVisible();
  await expect(step.getByRole('button', { name: 'Użyj kodu odzyskiwania' })).toBeVisible();
  await noSeriousViolations(page);
  await shots(page, 'second-step');
  await step.getByLabel('Kod z aplikacji').fill('123456');
  await step.getByRole('button', { name: 'Potwierdź' }).click();
  await expect(page.getByTestId('login-error')).toContainText('Nieprawidłowy lub wygasły kod');
  await step.getByLabel('Kod z aplikacji').fill(await nextCode());
  await step.getByRole('button', { name: 'Potwierdź' }).click();
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);

  // and with a recovery code
  await signOut(page);
  await submitLogin(page, ACCOUNTS.admin);
  await step.getByRole('button', { name: 'Użyj kodu odzyskiwania' }).click();
  await shots(page, 'second-step-recovery');
  await step.getByLabel('Kod odzyskiwania').fill(codes[0]);
  await step.getByRole('button', { name: 'Potwierdź' }).click();
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await openSecurity(page);
  await expect(totp.getByText('Pozostałe kody odzyskiwania: 9')).toBeVisible();

  // switched off again with the password and a code (the other journeys sign the administrator in with the password)
  await totp.getByRole('button', { name: 'Wyłącz' }).click();
  await totp.getByLabel('Hasło').fill(ACCOUNTS.admin.password);
  await totp.getByLabel('Kod z aplikacji').fill(await nextCode());
  await totp.getByRole('button', { name: 'Wyłącz' }).click();
  await expect(toast(page, 'Aplikacja uwierzytelniająca została wyłączona')).toBeVisible();
  await expect(totp.getByTestId('totp-state')).toHaveText('Wyłączona');
});

test('a fleet manager registers a passkey and signs in with it instead of a code', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  // a passkey belongs to a host name (its RP ID), never to an address: the same server by the name localhost
  const site = baseURL!.replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const signInAt = () => submitLogin(page, ACCOUNTS.manager, `${site}/`);
  await signInAt();
  await expect(page).toHaveURL(/\/app\//);
  await openSecurity(page);
  const passkeys = page.getByRole('region', { name: 'Klucze dostępu' });
  await expect(passkeys.getByText('Nie masz jeszcze kluczy dostępu.')).toBeVisible();
  await passkeys.getByLabel('Nazwa klucza').fill('Laptop służbowy');
  await passkeys.getByRole('button', { name: 'Dodaj klucz dostępu' }).click();
  await expect(toast(page, 'Dodano klucz dostępu')).toBeVisible();
  await expect(passkeys.getByTestId('passkeys').getByText('Laptop służbowy')).toBeVisible();

  await signOut(page);
  // the sign-in page starts clean: the last session's toast does not follow the user out
  await expect(toast(page, 'Dodano klucz dostępu')).toHaveCount(0);
  await signInAt();
  const step = page.getByTestId('second-step');
  await expect(step.getByText(/Potwierdź logowanie kluczem dostępu/)).toBeVisible();
  await step.getByRole('button', { name: 'Zaloguj kluczem dostępu' }).click();
  await expect(page).toHaveURL(/\/app\//);
  await openSecurity(page);
  await expect(passkeys.getByText(/Ostatnio użyty: \d/)).toBeVisible();

  // removed again: the other journeys sign the manager in with the password alone
  await passkeys.getByRole('button', { name: 'Usuń' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Usunięto klucz dostępu')).toBeVisible();
  await expect(passkeys.getByText('Nie masz jeszcze kluczy dostępu.')).toBeVisible();
});
