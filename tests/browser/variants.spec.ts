/**
 * One server serves every client variant by host name (docs/variants.md): the journeys open the
 * same server as http://<variant host>:<port> (Chromium sends *.localhost to 127.0.0.1).
 */
import { expect, test } from '@playwright/test';
import { signIn } from './support';

const PORT = Number(process.env.E2E_PORT || 3100);
const at = (host: string) => `http://${host}:${PORT}`;

test('the customer brand’s login screen has its own logo, favicon, title and colours; the default one does not', async ({ page }, testInfo) => {
  await page.goto(at('marka.localhost') + '/');
  await expect(page).toHaveTitle('Zielona Flota – portal kierowcy');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zielona Flota – portal kierowcy');
  const logo = page.getByRole('img', { name: 'Zielona Flota' });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^blob:/);
  await expect(page.getByRole('button', { name: 'Zaloguj' })).toHaveCSS('background-color', 'rgb(30, 107, 58)');
  const brand = await page.screenshot();
  await testInfo.attach('customer-brand login', { body: brand, contentType: 'image/png' });

  await page.goto(at('localhost') + '/');
  await expect(page).toHaveTitle('Partner CFM');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Partner CFM');
  await expect(page.locator('.login-logo')).toHaveCount(0);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  await expect(page.getByRole('button', { name: 'Zaloguj' })).toHaveCSS('background-color', 'rgb(13, 110, 253)');
  const plain = await page.screenshot();
  await testInfo.attach('default login', { body: plain, contentType: 'image/png' });
  expect(brand.equals(plain)).toBe(false);
});

test.describe('on the customer brand’s host', () => {
  test.use({ baseURL: at('marka.localhost') });
  test('a driver signs in (requests signed with the variant’s own name) and keeps its colours inside', async ({ page }) => {
    await signIn(page, 'kierowca');
    await expect(page.locator('.app-topbar')).toHaveCSS('background-color', 'rgb(18, 74, 39)');
    // the brand offers no vehicle return (config.hideVehicleReturn); the same driver has it on the default host
    const actions = page.locator('[data-panel="actions"]');
    await expect(actions.getByRole('button', { name: 'Nowy stan licznika' })).toBeVisible();
    await expect(actions.getByRole('button', { name: 'Zdanie pojazdu' })).toHaveCount(0);
  });
});

test('the same driver is offered the vehicle return on the default host', async ({ page }) => {
  await signIn(page, 'kierowca');
  await expect(page.locator('[data-panel="actions"]').getByRole('button', { name: 'Zdanie pojazdu' })).toBeVisible();
});

test('each variant’s host answers its own title', async ({ page }) => {
  for (const [host, title] of [
    ['dealer.localhost', 'Partner CFM – dealer regionalny'],
    ['t.localhost', 'Partner CFM – klient T'],
    ['p.localhost', 'Partner CFM – klient P'],
  ] as const) {
    await page.goto(at(host) + '/');
    await expect(page).toHaveTitle(title);
  }
});
