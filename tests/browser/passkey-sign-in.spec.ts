/**
 * Signing in with a passkey alone (issue 36): a fleet manager registers a passkey on Ustawienia →
 * Bezpieczeństwo in Chromium's virtual authenticator (a discoverable credential, user verification
 * on), signs out, and signs in from the login screen with "Zaloguj się kluczem dostępu" — no login,
 * no password, no second step. The passkey is removed at the end: the other journeys sign the
 * manager in with the password alone (and if the journey fails before, an administrator resets them).
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { ACCOUNTS, axeScan, expect, resetSecondFactorsIfFailed, submitLogin, test, toast } from './support';

/** Outside test-results/, which Playwright empties at every run: the screenshots are looked at afterwards. */
const SHOTS = '/tmp/passkey-sign-in-shots';

async function shots(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  const size = page.viewportSize()!;
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}

resetSecondFactorsIfFailed(['manager']);

test('a fleet manager registers a passkey, signs out and signs in with the passkey alone', async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  // a passkey belongs to a host name (its RP ID), never to an address: the same server by the name localhost
  const site = baseURL!.replace('127.0.0.1', 'localhost');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  const menu = page.getByRole('navigation', { name: 'Menu główne' });

  await submitLogin(page, ACCOUNTS.manager, `${site}/`);
  await expect(page).toHaveURL(/\/app\//);
  await menu.getByRole('link', { name: 'Bezpieczeństwo' }).click();
  const passkeys = page.getByRole('region', { name: 'Klucze dostępu' });
  await passkeys.getByLabel('Nazwa klucza').fill('Telefon');
  await passkeys.getByRole('button', { name: 'Dodaj klucz dostępu' }).click();
  await expect(toast(page, 'Dodano klucz dostępu')).toBeVisible();
  // the authenticator keeps it as a discoverable credential, with the account's user handle
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toEqual([expect.objectContaining({ isResidentCredential: true, rpId: 'localhost' })]);

  await menu.getByRole('link', { name: 'Wyloguj' }).click();
  const passkeyButton = page.getByRole('button', { name: 'Zaloguj się kluczem dostępu' });
  await expect(passkeyButton).toBeVisible();
  await shots(page, 'login');
  const axe = await axeScan(page).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  // the choice still matters: a vehicle user's choice needs its plate, said on the field before the browser asks for the passkey
  await page.getByLabel(ACCOUNTS.kierowca.choice, { exact: true }).check();
  await passkeyButton.click();
  await expect(page.getByTestId('login-error')).toBeVisible();
  await expect(page.getByLabel(/^Numer rejestracyjny/)).toHaveClass(/is-invalid/);

  // no login, no password: the choice and the passkey
  await page.getByLabel(ACCOUNTS.manager.choice, { exact: true }).check();
  await expect(page.getByLabel(/^Login\*?$/)).toHaveValue('');
  await passkeyButton.click();
  await expect(page).toHaveURL(/\/app\//);
  await expect(page.getByTestId('second-step')).toHaveCount(0);
  await menu.getByRole('link', { name: 'Bezpieczeństwo' }).click();
  await expect(passkeys.getByText(/Ostatnio użyty: \d/)).toBeVisible();

  // removed again: the other journeys sign the manager in with the password alone
  await passkeys.getByRole('button', { name: 'Usuń' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Usunięto klucz dostępu')).toBeVisible();
  await expect(passkeys.getByText('Nie masz jeszcze kluczy dostępu.')).toBeVisible();
});
