/**
 * What a careful user notices on the screens (issue 16), checked in the DOM: headers wrap only
 * between words, key identifiers are shown whole, one message per form field that goes away once
 * the field is valid, maxlength from the schema, the login character rule, the loading overlay
 * that keeps the last count, the empty state, units, toasts clear of the top bar and replaced per
 * action, and the help dialog (the axe scan of every screen: accessibility.spec.ts).
 */
import { type Locator } from '@playwright/test';
import { expect, openColumnFilter, rowCount, settled, signedIn, submitLogin, tableLoaded, test, toast, wordsBrokenIn } from './support.ts';

/** Cells (or elements) of the locator whose text is cut: their content is wider than their box. */
async function cutTexts(cells: Locator): Promise<string[]> {
  return cells.evaluateAll((els) =>
    els.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => `${el.textContent} (${el.scrollWidth} > ${el.clientWidth})`),
  );
}


const overlaps = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('table headers wrap only between words, at 1400 and at 900 px', async ({ page }) => {
  test.setTimeout(240_000);
  await signedIn(page, 'admin');
  for (const route of ['/app/dane-pojazdu', '/app/przydzialy', '/app/order', '/app/damage', '/app/invoice', '/app/users', '/app/fuel-card', '/app/contract', '/app/tire']) {
    for (const width of [1400, 900]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(route);
      await tableLoaded(page);
      expect((await wordsBrokenIn(page.locator('.ag-header-cell-text'))).map((b) => `${b.text} → ${b.word}`), `${route} at ${width} px`).toEqual([]);
    }
  }
});

test('key identifiers are shown whole: plates and VINs, case numbers, amounts, roles', async ({ page }) => {
  await signedIn(page, 'admin', '/app/dane-pojazdu');
  await tableLoaded(page);
  const vins = page.locator('.ag-row .ag-cell[col-id="nrPodw"]');
  await expect(vins.first()).toHaveText(/^[A-Z0-9]{17}$/);
  expect(await cutTexts(page.locator('.ag-row .ag-cell[col-id="rejestr"], .ag-row .ag-cell[col-id="nrPodw"]'))).toEqual([]);

  // the vehicle details dialog: the VIN on Dane pojazdu
  await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="rejestr"]').click();
  const dialog = page.getByRole('dialog');
  const vin = dialog.locator('[data-field="nrPodw"] dd');
  await expect(vin).toHaveText(/^[A-Z0-9]{17}$/);
  const box = await vin.boundingBox();
  expect(await vin.evaluate((el) => el.getClientRects().length), 'the VIN on one line').toBe(1);
  expect(box!.height).toBeLessThan(30);
  await page.keyboard.press('Escape');

  await page.goto('/app/invoice');
  await tableLoaded(page);
  expect(await cutTexts(page.locator('.ag-header-cell[col-id="ogBrutto"] .ag-header-cell-text'))).toEqual([]);
  expect(await cutTexts(page.locator('.ag-row .ag-cell[col-id="ogBrutto"], .ag-row .ag-cell[col-id="faktNrCaly"]'))).toEqual([]);

  await page.goto('/app/users');
  await tableLoaded(page);
  expect(await cutTexts(page.locator('.ag-row .ag-cell[col-id="rola"]'))).toEqual([]);

  await page.setViewportSize({ width: 900, height: 900 });
  await page.goto('/app/damage');
  await tableLoaded(page);
  const caseNumbers = page.locator('.ag-row .ag-cell[col-id="nrSprawy"]');
  await expect(caseNumbers.first()).toHaveText(/^SZK\/\d{4}\/\d{7}$/);
  expect(await cutTexts(caseNumbers)).toEqual([]);
});

test('a cell cut short shows its whole text on hover', async ({ page }) => {
  await page.setViewportSize({ width: 900, height: 900 });
  await signedIn(page, 'admin', '/app/users');
  await tableLoaded(page);
  // narrow the e-mail column by dragging its edge, as a user would
  const header = page.locator('.ag-header-cell[col-id="email"]');
  const box = (await header.boundingBox())!;
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 60, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const cell = page.locator('.ag-row[row-index="0"] .ag-cell[col-id="email"]');
  const full = (await cell.textContent())!.trim();
  expect(await cutTexts(cell)).toHaveLength(1);
  await cell.hover();
  await expect(page.locator('.ag-tooltip')).toHaveText(full);
});

test('the e-mail configuration shows one message per field and drops it once the field is filled', async ({ page }) => {
  await signedIn(page, 'admin', '/app/email-config');
  const form = page.locator('form');
  const host = form.getByLabel(/^Serwer SMTP|^Host/);
  await expect(host).toBeVisible();
  for (const input of await form.locator('input[type="text"], input[type="password"], input[type="email"], input:not([type])').all()) await input.fill('');
  await page.getByRole('button', { name: 'Testuj' }).click();
  const errors = form.locator('.field-error');
  await expect(errors.first()).toBeVisible();
  // one message under each field, never two
  await expect(errors).toHaveCount(await form.locator('.is-invalid').count());
  expect(await errors.count()).toBeGreaterThanOrEqual(4);
  for (const text of await errors.allInnerTexts()) expect(text).toBe('Pole nie może być puste');

  const before = await errors.count();
  await host.fill('smtp.example.pl');
  await expect(errors).toHaveCount(before - 1);
  await expect(host).not.toHaveClass(/is-invalid/);

  // Zapisz with the rest still empty: the form's own check shows one message per empty field
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(host).not.toHaveClass(/is-invalid/);
  await expect(errors).toHaveCount(await form.locator('.is-invalid').count());
  await expect(errors).toHaveCount(before - 1);
});

test('the login page loads neither the icon font nor the form library', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
  // the toasts and the cookie notice draw their icons inline
  await expect(page.getByTestId('cookie-notice').locator('svg')).toHaveCount(1);
  await page.getByRole('button', { name: 'Zaloguj', exact: true }).click();
  await expect(page.locator('.field-error').first()).toBeVisible();
  expect(requested.filter((p) => /\.(woff2?|ttf)$/.test(p))).toEqual([]);
  // the form screens' chunk (the form library) is not fetched until a form screen opens
  const scripts = requested.filter((p) => p.endsWith('.js'));
  expect(scripts.some((p) => /LoginScreen/.test(p))).toBe(true);
  expect(scripts.filter((p) => /FormScreen/.test(p))).toEqual([]);
});

test('login: the character rule of spec §5 and maxlength from the schema', async ({ page }) => {
  await submitLogin(page, { login: 'zły login!', password: 'cokolwiek', choice: 'Fleet Manager' });
  await expect(page.getByText('Wprowadzony login zawiera niedozwolone znaki')).toHaveCount(1);
  await page.getByLabel(/^Login/).fill('jan.kowalski');
  await expect(page.getByText('Wprowadzony login zawiera niedozwolone znaki')).toHaveCount(0);

  await expect(page.getByLabel(/^Login/)).toHaveAttribute('maxlength', '50');
  await expect(page.getByLabel(/^Hasło/)).toHaveAttribute('maxlength', '30');
  await page.getByLabel('Doradca serwisowy', { exact: true }).check();
  await expect(page.getByLabel(/^Numer rejestracyjny/)).toHaveAttribute('maxlength', '10');
  await expect(page.getByLabel(/^Ostatnie 6 znaków VIN/)).toHaveAttribute('maxlength', '6');
});

test('while a table loads, the last count stays and an overlay covers the rows; an empty result says so', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  await expect.poll(() => rowCount(page)).toBeGreaterThan(0);
  const countText = await page.getByTestId('row-count').innerText();

  // hold the next block until the overlay has been seen
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/order/table2', async (route) => {
    await held;
    await route.continue();
  });
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill('NIEMA-TAKIEGO');
  await expect(page.getByTestId('table-loading')).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveText(countText);
  await expect(page.getByTestId('row-count')).toHaveAttribute('aria-busy', 'true');
  release();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('table-loading')).toHaveCount(0);
  await expect.poll(() => rowCount(page)).toBe(0);
  await expect(page.locator('.table-screen [data-testid="empty-state"]')).toHaveText('Brak rekordów do wyświetlenia.');
});

test('quantities show their units: fuel in litres, odometer in km', async ({ page }) => {
  await signedIn(page, 'manager', '/app/przydzialy');
  await tableLoaded(page);
  // the grid draws only the columns in view: scroll sideways to the fuel column, as a user would
  const fuel = page.locator('.ag-row .ag-cell[col-id="palWy"]').first();
  for (let x = 300; x <= 3000 && !(await fuel.count()); x += 300) {
    await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el, left) => (el.scrollLeft = left), x);
    // the grid draws the newly visible columns on a later frame: looking at once scrolled past them (a run of 4 December)
    await settled(page);
  }
  await expect(fuel).toHaveText(/^\d+(,\d+)?\sl$/);
  await page.goto('/app/dane-pojazdu');
  await tableLoaded(page);
  // filtered as a user finds one vehicle: the grid draws only the rows in view, and journeys that
  // import vehicles into this client before this one push WZ12345 out of the first screen
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ12345');
  await expect(page.locator('.ag-row[row-index="1"]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.locator('.ag-row .ag-cell[col-id="rejestr"]', { hasText: 'WZ12345' }).first().click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.locator('[data-field="stanPal"] dd')).toHaveText(/^\d+(,\d+)?\sl$/);
  await expect(dialog.locator('[data-field="aktStanLicz"] dd')).toHaveText(/^[\d\s]+\skm$/);
});

test('an empty tab or panel shows one sentence, not a column of dashes beside an empty table', async ({ page }) => {
  await signedIn(page, 'admin', '/app/dane-pojazdu');
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ67890');
  await expect(page.locator('.ag-row[row-index="1"]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.locator('.ag-row .ag-cell[col-id="rejestr"]', { hasText: 'WZ67890' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('tab', { name: 'Karta paliwowa' }).click();
  const panel = dialog.getByRole('tabpanel');
  await expect(panel.locator('.ag-root')).toBeVisible();
  // no field of the car's own fuel card shows a bare dash
  await expect(panel.locator('dd', { hasText: /^—$/ })).toHaveCount(0);
});

test('toasts stay clear of the top bar; a success replaces the same action’s earlier error', async ({ page }) => {
  await signedIn(page, 'doradca', '/app/re-logging');
  const modal = page.getByRole('dialog');
  await modal.getByLabel(/^Numer rejestracyjny/).fill('WZ67890');
  await modal.getByLabel(/^Ostatnie 6 znaków VIN/).fill('999999');
  await modal.getByRole('button', { name: /Zmień|Zaloguj|Zatwierdź/ }).click();
  const error = page.locator('.toast[data-kind="error"]');
  await expect(error).toBeVisible();

  // the toast leaves the top bar's controls visible
  const toastBox = (await error.boundingBox())!;
  for (const control of await page.locator('.app-topbar button, .app-topbar a, .role-badge').all()) {
    const box = await control.boundingBox();
    if (box) expect(overlaps(toastBox, box), await control.innerText()).toBe(false);
  }

  await modal.getByLabel(/^Ostatnie 6 znaków VIN/).fill('000456');
  await modal.getByRole('button', { name: /Zmień|Zaloguj|Zatwierdź/ }).click();
  await expect(page.locator('.toast[data-kind="success"]')).toBeVisible();
  await expect(error).toHaveCount(0);
});

test('every icon and file cell says its meaning on hover and to screen readers', async ({ page }) => {
  await signedIn(page, 'manager');
  const check = async (route: string, columns: string[]) => {
    await page.goto(route);
    await tableLoaded(page);
    await expect(page.locator('.ag-row[row-index="0"]').first()).toBeVisible();
    for (const colId of columns) {
      const cells = page.locator(`.ag-row .ag-cell[col-id="${colId}"]`);
      // the grid draws only the columns in view: scroll right until this one is drawn
      for (let step = 0; step < 12 && (await cells.count()) === 0; step++) {
        await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => el.scrollBy(300, 0));
        await page.waitForTimeout(150);
      }
      expect(await cells.count(), colId).toBeGreaterThan(0);
      for (const cell of await cells.all()) {
        // the hover text (title) and the accessible name come from the locales, never empty
        const marked = cell.locator('[title]').first();
        const title = await marked.getAttribute('title');
        expect(title?.trim(), `${route} ${colId}`).toBeTruthy();
        const named = cell.locator('[aria-label]').first();
        expect((await named.getAttribute('aria-label'))?.trim(), `${route} ${colId}`).toBeTruthy();
      }
    }
  };
  await check('/app/order', ['status', 'reporterRole', 'czyKosztorys', 'czyTermin']);
  await check('/app/invoice', ['iloscZal']);
});

test('the help button opens the page’s help text in a dialog', async ({ page }) => {
  await signedIn(page, 'manager');
  await page.getByTestId('help-button').click();
  const dialog = page.getByRole('dialog', { name: 'Pomoc: Dane pojazdu' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Kliknij wiersz, aby otworzyć kartę pojazdu');
  await dialog.getByRole('button', { name: 'Zamknij' }).first().click();
  await expect(dialog).toHaveCount(0);
  // a page without help has no button
  await page.goto('/app/account/password');
  await expect(page.getByTestId('help-button')).toHaveCount(0);
});

test('the driver’s help on his vehicle page speaks of his vehicle and its buttons, not of a table', async ({ page }) => {
  await signedIn(page, 'kierowca');
  await page.getByTestId('help-button').click();
  const dialog = page.getByRole('dialog', { name: 'Pomoc: Dane pojazdu' });
  await expect(dialog).toContainText('„Nowy stan licznika”');
  await expect(dialog).not.toContainText('Kliknij wiersz');
});
