/**
 * One server serves every client variant by host name (docs/variants.md): the journeys open the
 * same server as http://<variant host>:<port> (Chromium sends *.localhost to 127.0.0.1).
 */
import { type Page } from '@playwright/test';
import { apiAs, expect, signIn, signedIn, submitLogin, test, toast } from './support';
import { PORT } from './ports';

const at = (host: string) => `http://${host}:${PORT}`;

test('the customer brand’s login screen has its own logo, favicon, title and colours; the default one does not', async ({ page }, testInfo) => {
  await page.goto(at('marka.localhost') + '/');
  // the page's own title may already stand before the brand's name ("Dane pojazdu – …")
  await expect(page).toHaveTitle(/Zielona Flota – portal kierowcy$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Zielona Flota – portal kierowcy');
  const logo = page.getByRole('img', { name: 'Zielona Flota' });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // the brand's icon: as the server writes it into the page, or as the runtime sets it once the visitor's first use starts it
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^(blob:|\/api\/ui\/assets\/favicon\.svg$)/);
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toHaveCSS('background-color', 'rgb(30, 107, 58)');
  const brand = await page.screenshot();
  await testInfo.attach('customer-brand login', { body: brand, contentType: 'image/png' });

  await page.goto(at('localhost') + '/');
  await expect(page).toHaveTitle('Partner CFM');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Partner CFM');
  await expect(page.locator('.login-logo')).toHaveCount(0);
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toHaveCSS('background-color', 'rgb(13, 110, 253)');
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
  await signedIn(page, 'kierowca');
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

/** The step list of the order wizard opened with 'Dodaj zlecenie' from the orders table. */
async function wizardSteps(page: Page): Promise<string[]> {
  await page.goto('/app/order');
  await page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name: 'Dodaj zlecenie' }).click();
  const wizard = page.getByRole('dialog', { name: 'Dodanie zlecenia' });
  const steps = wizard.getByRole('list', { name: 'Kroki' }).getByRole('listitem');
  await expect(steps.first()).toBeVisible();
  return (await steps.allInnerTexts()).map((s) => s.replace(/^\d+\.\s*/, '').trim());
}

test.describe('variant P, on its host', () => {
  test.use({ baseURL: at('p.localhost') });
  test('the administrator’s order wizard has no Wykonawca and Zakres steps there', async ({ page }) => {
    await signedIn(page, 'admin');
    expect(await wizardSteps(page)).toEqual(['Dane zlecenia', 'Zgłaszający', 'Uwagi', 'Załączniki', 'Notatki', 'Podsumowanie']);
  });
  test('a fleet manager’s wizard has neither', async ({ page }) => {
    await signedIn(page, 'manager');
    expect(await wizardSteps(page)).toEqual(['Dane zlecenia', 'Zgłaszający', 'Uwagi', 'Załączniki', 'Notatki', 'Podsumowanie']);
  });
  test('an advisor keeps both', async ({ page }) => {
    await signedIn(page, 'doradca');
    const steps = await wizardSteps(page);
    expect(steps).toContain('Wykonawca');
    expect(steps).toContain('Zakres');
  });
});

test('on the default host the administrator’s order wizard has Wykonawca and Zakres', async ({ page }) => {
  await signedIn(page, 'admin');
  const steps = await wizardSteps(page);
  expect(steps).toContain('Wykonawca');
  expect(steps).toContain('Zakres');
});

/**
 * Opens the details of the newest order of a vehicle from the orders table. The table lists the
 * vehicle's damages too (an earlier journey may have reported one): a row that opens a damage is
 * closed and the next one tried.
 */
async function openOrderOf(page: Page, rejestr: string) {
  await page.goto('/app/order');
  const rows = page.locator('.ag-cell[col-id="rejestr"]').filter({ hasText: rejestr });
  await expect(rows.first()).toBeVisible();
  const dialog = page.locator('.modal.details-dialog');
  for (let i = 0; i < (await rows.count()); i++) {
    await rows.nth(i).click();
    await expect(dialog.getByRole('tablist')).toBeVisible();
    if (await page.getByRole('dialog', { name: /^Zlecenie/ }).count()) return dialog;
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
  }
  throw new Error(`no order of ${rejestr} in the orders table`);
}

/** Edits the approved scope of a vehicle's first order from its details (the form starts from `before`, when given) and reads it back. */
async function editApprovedScope(page: Page, rejestr: string, text: string, before?: string) {
  const dialog = await openOrderOf(page, rejestr);
  await dialog.locator('.modal-footer').getByRole('button', { name: 'Edytuj zlecenie' }).click();
  const form = page.getByRole('dialog', { name: 'Edycja zlecenia' });
  if (before !== undefined) await expect(form.getByLabel(/^Zatwierdzony zakres/)).toHaveValue(before);
  await form.getByLabel(/^Zatwierdzony zakres/).fill(text);
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano zmiany w zleceniu')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Zakres' }).click();
  await expect(dialog.locator('[data-field="zlecZakres"]')).toContainText(text);
}

test.describe('variant T, on its host', () => {
  test.use({ baseURL: at('t.localhost') });
  test('a fleet manager edits an order’s approved scope', async ({ page }) => {
    await signedIn(page, 'manager');
    await editApprovedScope(page, 'WZ12345', 'Wymiana oleju i filtrów (uzgodnione z flotą)');
  });
});

test('on the default host a fleet manager cannot edit the approved scope', async ({ page }) => {
  await signedIn(page, 'manager');
  const dialog = await openOrderOf(page, 'WZ12345');
  await dialog.getByRole('tab', { name: 'Zakres' }).click();
  await expect(dialog.locator('[data-field="zlecZakres"]')).toBeVisible();
  // the order offers its edit form only for what the server lets the caller change: nothing, for this manager
  await expect(dialog.locator('.modal-footer').getByRole('button', { name: 'Edytuj zlecenie' })).toHaveCount(0);
});

test('a person for whom the portal starts again is shown nothing of it before it does, while his language is being kept', async ({ page, playwright }) => {
  // English chosen on the page: at sign-in his account keeps it (PUT /api/account/language), held
  // here a while; the brand's manager signing in on the default host starts the portal again in
  // the brand's variant. Before, the session was kept first, and the signed-in portal was drawn
  // (its gates and their calls) while the language was being kept, then thrown away.
  await page.goto('/');
  // he starts using the page, which starts the runtime (runtime/src/start-gate.ts); then the
  // runtime's page is the one he chooses his language on
  await page.locator('#first-paint').getByLabel(/^Login\*?$/).focus();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await page.getByTestId('login-language').selectOption('en');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  let kept = false;
  await page.route('**/api/account/language', async (route) => {
    if (route.request().method() === 'PUT') {
      kept = true;
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    await route.continue();
  });
  const meanwhile: string[] = [];
  let signedInAnswered = false;
  page.on('response', (response) => {
    if (response.url().endsWith('/api/user/auth')) signedInAnswered = true;
  });
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame() && frame.url().includes('/app/')) signedInAnswered = false;
  });
  page.on('request', (request) => {
    if (signedInAnswered && !request.isNavigationRequest() && /\/api\//.test(request.url()) && !request.url().endsWith('/api/account/language')) meanwhile.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await page.getByLabel('Fleet manager', { exact: true }).check();
  await page.getByLabel(/^Login\*?$/).fill('manager3');
  await page.getByLabel(/^Password\*?$/).fill('Haslo123!');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await expect(page).toHaveTitle(/Zielona Flota – portal kierowcy$/);
  expect(kept).toBe(true);
  expect(meanwhile).toEqual([]);
  // the account's language back to Polish, as the journeys after this one expect (through the
  // brand's host: its requests are signed with the variant's name)
  const brand = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${PORT}`, extraHTTPHeaders: { Host: `marka.localhost:${PORT}` } });
  await (await apiAs(brand, 'manager3', 'Haslo123!', 'MANAGER')).put('/account/language', { language: 'pl' });
  await brand.dispose();
});

test('a fleet manager of the brand’s client signs in on the default host and the portal restarts in the brand’s look', async ({ page }) => {
  await submitLogin(page, { login: 'manager3', password: 'Haslo123!', choice: 'Fleet Manager' });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  // the page's own title may already stand before the brand's name ("Dane pojazdu – …")
  await expect(page).toHaveTitle(/Zielona Flota – portal kierowcy$/);
  await expect(page.locator('.app-topbar')).toHaveCSS('background-color', 'rgb(18, 74, 39)');
  // the brand's icon: as the server writes it into the page, or as the runtime sets it once the visitor's first use starts it
  await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', /^(blob:|\/api\/ui\/assets\/favicon\.svg$)/);
});

/**
 * Each variant's own client (client-variants/<name>/demo.json): its people sign in on the shared
 * default host, the portal restarts in their variant and they work on their own client's vehicles.
 */
test.describe('the variants’ own clients, on the default host', () => {
  const signInAs = async (page: Page, login: string) => {
    await submitLogin(page, { login, password: 'Haslo123!', choice: 'Fleet Manager' });
    await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  };

  test('the regional dealer’s fleet manager sees the dealer’s vehicles and is not offered AC z regresem or OC nasze', async ({ page }) => {
    await signInAs(page, 'dealer.manager');
    await expect(page).toHaveTitle(/Partner CFM – dealer regionalny$/);
    await expect(page.locator('.ag-cell[col-id="rejestr"]').filter({ hasText: 'LU4521A' })).toBeVisible();
    await expect(page.locator('.ag-cell[col-id="rejestr"]').filter({ hasText: 'WZ12345' })).toHaveCount(0);
    await page.goto('/app/order');
    await page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name: 'Zgłoszenie szkody' }).click();
    const wizard = page.getByRole('dialog', { name: 'Zgłoszenie szkody' });
    await expect(wizard.getByLabel(/^Rodzaj ryzyka/).locator('option:checked')).toHaveText('AC');
    const risks = await wizard.getByLabel(/^Rodzaj ryzyka/).locator('option').allInnerTexts();
    expect(risks).toEqual(expect.arrayContaining(['AC', 'OC']));
    expect(risks).not.toContain('AC z regresem');
    expect(risks).not.toContain('OC nasze');
    await page.screenshot({ path: 'test-results/variant-dealer-manager.png' });
  });

  test('the regional dealer requires the handover time: its manager hands over the pool vehicle only with it', async ({ page }) => {
    await signInAs(page, 'dealer.manager');
    await page.locator('.ag-row .ag-cell[col-id="rejestr"]', { hasText: 'LU1190E' }).click();
    const details = page.getByRole('dialog', { name: 'Pojazd LU1190E' });
    await details.getByRole('button', { name: 'Wydanie pojazdu' }).click();
    const handover = page.getByRole('dialog', { name: 'Wydanie pojazdu' });
    await expect(handover.getByLabel(/^Godzina wydania/)).toHaveValue('');
    const person = handover.getByLabel(/^Pracownik odbierający pojazd/);
    await person.fill('Pawl');
    await page.getByRole('option', { name: 'Pawlak Monika (AL0002)' }).click();
    await handover.getByLabel(/^Licznik przy wydaniu/).fill('67400');
    await handover.getByLabel(/^Wydał/).fill('Monika Pawlak');
    await handover.getByRole('button', { name: 'Wydaj pojazd' }).click();
    await expect(handover.getByText('Podaj godzinę wydania')).toBeVisible();
    await page.screenshot({ path: 'test-results/variant-dealer-handover-time.png' });
    await handover.getByLabel(/^Godzina wydania/).fill('08:15');
    await handover.getByRole('button', { name: 'Wydaj pojazd' }).click();
    await expect(toast(page, 'Zapisano zmianę przydziału')).toBeVisible();
    await expect(handover).toBeHidden();
  });

  test('client T’s fleet manager edits the approved scope of the client’s own order', async ({ page }) => {
    await signInAs(page, 't.manager');
    await expect(page).toHaveTitle(/Partner CFM – klient T$/);
    await editApprovedScope(page, 'GD3310K', 'Wymiana łączników stabilizatora i tulei wahacza przód', 'Wymiana łączników stabilizatora przód');
  });

  test('client P’s fleet manager orders without the Wykonawca and Zakres steps', async ({ page }) => {
    await signInAs(page, 'p.manager');
    await expect(page).toHaveTitle(/Partner CFM – klient P$/);
    expect(await wizardSteps(page)).toEqual(['Dane zlecenia', 'Zgłaszający', 'Uwagi', 'Załączniki', 'Notatki', 'Podsumowanie']);
  });
});
