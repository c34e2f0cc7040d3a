/**
 * The configuration studio (issue 26), as an analyst works: an administrator changes the portal in
 * Administracja → Konfiguracja portalu, sees it in the preview, publishes, and the affected user
 * sees it without a restart. Every journey leaves the published layer as it found it: it notes the
 * version published when it starts and restores it at the end (or, when nothing was published yet,
 * takes its own documents back to the files and publishes that), so the journeys that follow —
 * in this file and in the others that share the worker's database — meet the portal of the files.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type Page } from '@playwright/test';
import { axeScan, expect, menuEntries, signedIn, submitLogin, test, toast } from './support';

const ROOT = resolve(import.meta.dirname, '../..');
/** Values this run alone gives, so that a journey never meets another run's leftovers. */
const RUN = Date.now().toString().slice(-6);
const SHOTS = 'test-results/config-studio';
/** Screenshots for a person to look at (SHOTS=1): test-results/config-studio/<tab>-<width>.png. */
const shot = async (page: Page, name: string, fullPage = false) => {
  if (!process.env.SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage });
};

const studio = (page: Page) => page.locator('.studio');
const status = (page: Page) => page.getByTestId('draft-status');
const openTab = async (page: Page, name: string) => {
  await studio(page).getByRole('tab', { name, exact: true }).click();
  await expect(studio(page).getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
};

async function openStudio(page: Page) {
  await page.goto('/app/config-studio');
  await expect(page.getByRole('heading', { level: 1, name: 'Konfiguracja portalu' })).toBeVisible();
  await expect(status(page)).toBeVisible();
}

/** The scopes the journeys change: each one's version in use is noted at the start and restored at the end. */
const SCOPES = ['base', 't'];
/** Each scope's version in use (0: as in the files). */
type Baseline = Record<string, number>;

/** The version in use in a scope, as the draft box says it once the scope is chosen. */
async function scopeNumber(page: Page, scope: string): Promise<number> {
  await page.getByLabel('Zakres zmian').selectOption(scope);
  const line = status(page).getByTestId('published-line');
  await expect(line).toBeVisible();
  const match = /w użyciu wersja (\d+)/.exec(await line.innerText());
  return match ? Number(match[1]) : 0;
}

/** The studio without a draft (a journey that failed half-way may have left one), and each scope's version in use. */
async function startJourney(page: Page): Promise<Baseline> {
  await signedIn(page, 'admin');
  await openStudio(page);
  const discard = status(page).getByRole('button', { name: 'Odrzuć wersję roboczą' });
  if (await discard.isEnabled()) {
    await discard.click();
    await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
    await expect(toast(page, 'Odrzucono wersję roboczą.')).toBeVisible();
  }
  const baseline: Baseline = {};
  for (const scope of SCOPES) baseline[scope] = await scopeNumber(page, scope);
  await page.getByLabel('Zakres zmian').selectOption('base');
  return baseline;
}

/** Opublikuj with a comment; the new version's number in the (first) scope it changed. */
async function publish(page: Page, comment: string): Promise<number> {
  await status(page).getByRole('button', { name: 'Opublikuj' }).click();
  const dialog = page.getByRole('dialog', { name: 'Opublikuj wersję roboczą' });
  await dialog.getByLabel('Komentarz (co i dlaczego zmieniono)').fill(comment);
  await dialog.getByRole('button', { name: 'Opublikuj' }).click();
  const done = toast(page, /Opublikowano \(.+: wersja \d+/);
  await expect(done).toBeVisible();
  await expect(dialog).toBeHidden();
  return Number(/: wersja (\d+)/.exec(await done.innerText())![1]);
}

/** Wersje → Przywróć a scope's version (one click and Tak); 0 is the files. */
async function restoreVersion(page: Page, number: number, scope = 'base') {
  await page.getByLabel('Zakres zmian').selectOption(scope);
  await openTab(page, 'Wersje');
  const item = page.locator(`.studio-version[data-version="${number}"]`);
  await item.getByRole('button', { name: /Przywróć/ }).click();
  await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, new RegExp(`Przywrócono wersję ${number} \\(.+\\) jako wersję \\d+`))).toBeVisible();
}

/** putBack's restore: a version whose settings are those in use already (a scope restored to the files twice) is said so. */
async function restoreUnlessInUse(page: Page, number: number, scope: string) {
  await page.getByLabel('Zakres zmian').selectOption(scope);
  await openTab(page, 'Wersje');
  await page.locator(`.studio-version[data-version="${number}"]`).getByRole('button', { name: /Przywróć/ }).click();
  await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, new RegExp(`Przywrócono wersję ${number} |Ta wersja jest już w użyciu`))).toBeVisible();
}

/**
 * Leaves the published layer as the journey found it: in each scope its documents were changed
 * in, the version in use then is restored (version 0 when it was the files'), the other scopes
 * left as they are.
 */
async function putBack(page: Page, baseline: Baseline, documents: { scope: string; path: string }[]) {
  await openStudio(page);
  for (const scope of new Set(documents.map((d) => d.scope))) {
    if ((await scopeNumber(page, scope)) !== baseline[scope]) await restoreUnlessInUse(page, baseline[scope], scope);
  }
  await page.getByLabel('Zakres zmian').selectOption('base');
}

/** A person of another browser (a context of its own), signed in. */
async function personPage(browser: Browser, sign: (page: Page) => Promise<void>) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await sign(page);
  return page;
}
const signInAs = (login: string) => async (page: Page) => {
  await submitLogin(page, { login, password: 'Haslo123!', choice: 'Fleet Manager' });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
};
const header = (page: Page, colId: string) => page.locator(`.ag-header-cell[col-id="${colId}"]`);

test.describe.configure({ mode: 'default' });

test('the studio is in the administrator’s menu, its tabs pass axe at 1400 and 900 px, and it lays out at 390 px', async ({ page }) => {
  test.setTimeout(400_000);
  await signedIn(page, 'admin');
  // the cookie notice would stand over the screenshots' lower part
  const cookies = page.getByRole('button', { name: 'Rozumiem' });
  if (await cookies.isVisible()) await cookies.click();
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Konfiguracja portalu' }).click();
  await expect(page).toHaveURL(/\/app\/config-studio$/);
  await expect(status(page)).toBeVisible();
  // the tabs that show a chosen document are scanned with one chosen
  const prepare: Record<string, () => Promise<void>> = {
    Teksty: async () => {
      await page.getByLabel('Szukane słowa', { exact: true }).fill('Nr rejestracyjny');
      await page.getByRole('button', { name: 'Szukaj' }).click();
      await expect(page.locator('.studio-text[data-key="car:fields.rejestr"]')).toBeVisible();
    },
    Tabele: async () => {
      await page.getByLabel('Tabela', { exact: true }).selectOption('screens/vehicles-table.json');
      await expect(page.getByTestId('studio-columns')).toBeVisible();
    },
    Formularze: async () => {
      await page.getByLabel('Formularz', { exact: true }).selectOption('screens/order-wizard.json');
      await expect(page.locator('.studio-step[data-step="remarks"]')).toBeVisible();
    },
    Menu: async () => void (await expect(page.locator('.studio-menu-group').first()).toBeVisible()),
    Przypomnienia: async () => void (await expect(page.locator('.studio-rules')).toBeVisible()),
    Raporty: async () => {
      await page.getByLabel('Raport', { exact: true }).selectOption('schemas/reports/vehicle-cost.json');
      await expect(page.locator('.studio-report[data-report="vehicle-cost"]')).toBeVisible();
    },
    JSON: async () => {
      await page.getByLabel('Dokument', { exact: true }).selectOption('screens/menu.json');
      await expect(page.locator('.studio-json .cm-editor')).toBeVisible({ timeout: 30_000 });
    },
    Wersje: async () => void (await expect(page.getByRole('button', { name: 'Eksportuj' })).toBeVisible()),
    Podgląd: async () => void (await expect(page.getByRole('button', { name: 'Pokaż podgląd' })).toBeVisible()),
  };
  const found: string[] = [];
  for (const [name, ready] of Object.entries(prepare)) {
    await page.setViewportSize({ width: 1400, height: 900 });
    await openTab(page, name);
    await ready();
    await expect(page.locator('.loading-text')).toHaveCount(0, { timeout: 30_000 });
    for (const width of [1400, 900]) {
      await page.setViewportSize({ width, height: 900 });
      // the studio's top and the open tab (the tabs opened before stay in the page, hidden)
      const axe = axeScan(page).include('.studio-top').include('.studio-tabs').include('.studio-tab-content > .tab-pane.active');
      const violations = (await axe.analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      found.push(...violations.map((v) => `${name} at ${width} px: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
    }
    if (process.env.SHOTS) {
      for (const width of [1400, 900, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await shot(page, `${name.toLowerCase()}-${width}`, width === 390);
      }
    }
  }
  expect(found).toEqual([]);
  // at 390 px nothing is wider than the window
  await page.setViewportSize({ width: 390, height: 844 });
  await openTab(page, 'Teksty');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

test('the texts tab names its groups as the menu names the screens, once each, and keeps the studio’s own texts apart', async ({ page }) => {
  await signedIn(page, 'admin');
  await openStudio(page);
  await openTab(page, 'Teksty');
  await expect(page.getByLabel('Teksty ekranu').locator('option', { hasText: 'Dane pojazdu' })).toHaveCount(1);
  const options = (await page.getByLabel('Teksty ekranu').locator('option').allInnerTexts()).map((o) => o.trim());
  expect(options).toEqual(expect.arrayContaining(['Dane pojazdu', 'Zlecenia', 'Historia akceptacji', 'Konfiguracja portalu']));
  expect(new Set(options).size).toBe(options.length);
  // no English ids (acceptance-history, config-preview): every name is the screens' words
  for (const option of options) expect(option).not.toMatch(/^[a-z]+(-[a-z]+)*$/);
  await page.getByLabel('Szukane słowa', { exact: true }).fill('Nr rejestracyjny');
  await page.getByRole('button', { name: 'Szukaj' }).click();
  await expect(page.locator('.studio-text[data-key="car:fields.rejestr"]')).toBeVisible();
  await expect(page.locator('.studio-text[data-key^="config-studio:"]')).toHaveCount(0);
  for (const place of await page.getByTestId('text-places').allInnerTexts()) expect(place).not.toMatch(/\b[a-z-]+:[a-zA-Z]/);
  // the studio's own texts, asked for by their group
  await page.getByLabel('Teksty ekranu').selectOption({ label: 'Konfiguracja portalu' });
  await page.getByRole('button', { name: 'Szukaj' }).click();
  await expect(page.locator('.studio-text[data-key="config-studio:texts.intro"]')).toBeVisible();
});

test('an analyst relabels the vehicles table’s “Nr rejestracyjny” for variant T only: T’s manager sees it, the default manager does not', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const label = `Rejestracja T ${RUN}`;
  const baseline = await startJourney(page);

  await page.getByLabel('Zakres zmian').selectOption('t');
  await openTab(page, 'Teksty');
  await page.getByLabel('Szukane słowa', { exact: true }).fill('Nr rejestracyjny');
  await page.getByRole('button', { name: 'Szukaj' }).click();
  const row = page.locator('.studio-text[data-key="car:fields.rejestr"]');
  await expect(row).toBeVisible();
  // the hit says where the text is shown, in the words of the screens; the key is a detail beside it
  await expect(row.getByTestId('text-places')).toContainText('Dane pojazdu → kolumna');
  await expect(row.locator('.studio-key-line')).toContainText('car:fields.rejestr');
  await row.getByRole('textbox', { name: /^Nowy tekst:/ }).fill(label);
  await row.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano tekst w wersji roboczej.')).toBeVisible();
  // the hit now shows the files' text beside the new one, and the draft counts the change and names its variant
  await expect(row.getByText('W plikach:')).toBeVisible();
  await expect(row.locator('q')).toHaveText('Nr rejestracyjny');
  await expect(status(page).getByTestId('draft-line')).toContainText('1 zmiana');
  await expect(status(page).getByTestId('draft-line')).toContainText('dla: Klient T');

  // the preview starts in the scope being edited: variant T, as its fleet manager, before anything is published
  await status(page).getByRole('button', { name: 'Podgląd' }).click();
  await expect(page.getByLabel('Wariant')).toHaveValue('t');
  await expect(page.getByLabel('Rola')).toHaveValue('MANAGER');
  await page.getByLabel('Ekran', { exact: true }).selectOption('/app/dane-pojazdu');
  await page.getByRole('button', { name: 'Pokaż podgląd' }).click();
  await expect(page.getByTestId('preview-heading')).toHaveText('Podgląd: Dane pojazdu — jako Fleet Manager, Klient T');
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.locator('.ag-header-cell[col-id="rejestr"]')).toContainText(label, { timeout: 30_000 });
  await expect(frame.getByTestId('preview-banner')).toContainText('„Klient T”');
  await shot(page, 'preview-1400');

  // the publish dialog lists the change and says who will see it: T's users only
  await status(page).getByRole('button', { name: 'Opublikuj' }).click();
  const dialog = page.getByRole('dialog', { name: 'Opublikuj wersję roboczą' });
  await expect(dialog.getByTestId('publish-changes')).toContainText(`„Nr rejestracyjny” → „${label}”`);
  await expect(dialog.getByTestId('publish-audience')).toHaveText('Zobaczą tylko użytkownicy wariantu „Klient T”.');
  await expect(dialog).not.toContainText('wszyscy użytkownicy');
  expect((await axeScan(page).include('.modal').analyze()).violations).toEqual([]);
  await shot(page, 'publish-1400');
  await dialog.getByRole('button', { name: 'Anuluj' }).click();
  await publish(page, `Etykieta numeru rejestracyjnego dla klienta T (${RUN})`);
  // the studio remembers the scope: a new visit opens on Klient T
  await openStudio(page);
  await expect(page.getByLabel('Zakres zmian')).toHaveValue('t');
  await expect(page.getByLabel('Zakres zmian').locator('option:checked')).toHaveText('Klient T');

  const tManager = await personPage(browser, signInAs('t.manager'));
  await expect(header(tManager, 'rejestr')).toContainText(label);
  await tManager.close();
  const manager = await personPage(browser, (p) => signedIn(p, 'manager'));
  await expect(header(manager, 'rejestr')).toContainText('Nr rejestracyjny');
  await expect(header(manager, 'rejestr')).not.toContainText(label);
  await manager.close();

  await putBack(page, baseline, [{ scope: 't', path: 'locales/pl/car.json' }]);
});

test('an analyst hides a column of the vehicles table; the fleet manager no longer sees it', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const baseline = await startJourney(page);
  await openTab(page, 'Tabele');
  await page.getByLabel('Tabela', { exact: true }).selectOption('screens/vehicles-table.json');
  await page.getByLabel('Widoczna kolumna Marka', { exact: true }).uncheck();
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano w wersji roboczej.')).toBeVisible();
  await expect(page.locator('tr[data-column="marka"] .studio-export')).toHaveText('Tak, gdy pokazana');
  await publish(page, `Marka ukryta domyślnie (${RUN})`);

  const manager = await personPage(browser, (p) => signedIn(p, 'manager'));
  await expect(header(manager, 'markaModel')).toBeVisible();
  await expect(header(manager, 'marka')).toHaveCount(0);
  await manager.close();

  await putBack(page, baseline, [{ scope: 'base', path: 'screens/vehicles-table.json' }]);
});

test('an analyst writes a text in Polish, English and Ukrainian side by side; each reader sees his own once published', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const baseline = await startJourney(page);
  await openTab(page, 'Teksty');
  await page.getByLabel('Szukane słowa', { exact: true }).fill('car:fields.rejestr');
  await page.getByRole('button', { name: 'Szukaj' }).click();
  const row = page.locator('.studio-text[data-key="car:fields.rejestr"]');
  // the text in each language the portal offers, side by side, each by its own name; none missing here
  await expect(row.locator('.studio-text-language')).toHaveCount(3);
  await expect(row.locator('[data-language="en"] .studio-language-name')).toHaveText(/English$/);
  await expect(row.locator('[data-language="uk"] .studio-language-name')).toHaveText(/Українська$/);
  await expect(row.getByText('Brak tłumaczenia')).toHaveCount(0);
  await row.getByRole('textbox', { name: /English/ }).fill(`Plate ${RUN}`);
  await row.getByRole('textbox', { name: /Українська/ }).fill(`Номер ${RUN}`);
  await row.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano tekst w wersji roboczej.')).toBeVisible();
  await expect(status(page).getByTestId('draft-line')).toContainText('2 zmiany');
  await shot(page, 'texts-languages-1400');
  await publish(page, `Nr rejestracyjny po angielsku i ukraińsku (${RUN})`);

  // each reader in his browser's language gets his own text at once; the Polish one is unchanged
  for (const [locale, text] of [['en-GB', `Plate ${RUN}`], ['uk-UA', `Номер ${RUN}`], ['pl-PL', 'Nr rejestracyjny']]) {
    const context = await browser.newContext({ locale });
    const reader = await context.newPage();
    await signedIn(reader, 'manager');
    await expect(header(reader, 'rejestr')).toContainText(text);
    await context.close();
  }

  await putBack(page, baseline, [{ scope: 'base', path: 'locales/en/car.json' }]);
});

test('an analyst changes the required-field message of the mail server field; the form shows it', async ({ page }) => {
  test.setTimeout(180_000);
  const message = `Podaj serwer poczty (${RUN})`;
  const baseline = await startJourney(page);
  await openTab(page, 'Formularze');
  await page.getByLabel('Formularz', { exact: true }).selectOption('screens/email-config.json');
  const field = page.locator('.studio-field[data-field="smtpHost"]');
  await expect(field.getByLabel(/^Wymagane/)).toBeChecked();
  await field.getByLabel(/^Komunikat, gdy pole jest puste/).fill(message);
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano w wersji roboczej.')).toBeVisible();
  // the screen's schema names the new key, whose text lives in the custom namespace
  await expect(field.getByLabel(/^Komunikat, gdy pole jest puste/)).toHaveValue(message);
  await publish(page, `Komunikat pola serwera SMTP (${RUN})`);

  await page.goto('/app/email-config');
  const host = page.getByLabel(/^Serwer SMTP/);
  await expect(host).toBeVisible();
  await host.fill('');
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText(message)).toBeVisible();

  await putBack(page, baseline, [
    { scope: 'base', path: 'schemas/api/email-config.schema.json' },
    { scope: 'base', path: 'locales/pl/custom.json' },
  ]);
});

test('an analyst adds a menu entry opening an existing screen; the fleet manager sees and follows it', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const text = `Faktury skrót ${RUN}`;
  const baseline = await startJourney(page);
  await openTab(page, 'Menu');
  const form = page.locator('.studio-new-entry');
  await form.getByLabel('Grupa').selectOption('records');
  await form.getByLabel(/^Identyfikator/).fill(`faktury-${RUN}`);
  await form.getByLabel('Etykieta').fill(text);
  await form.getByLabel('Ekran').selectOption('/app/invoice');
  await form.getByLabel('Ikona').selectOption('star');
  await form.getByRole('button', { name: 'Dodaj pozycję' }).click();
  const entry = page.locator(`.studio-menu-item[data-item="faktury-${RUN}"]`);
  await expect(entry).toContainText(text);
  // the invoices are not a driver's nor an advisor's: the checks refuse an entry they could not follow
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByTestId('problem-list')).toContainText('/app/invoice');
  await expect(entry.getByTestId('field-problem').first()).toBeVisible();
  await entry.getByLabel('Użytkownik pojazdu', { exact: true }).check();
  await entry.getByLabel('Doradca serwisowy', { exact: true }).check();
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano w wersji roboczej.')).toBeVisible();
  await expect(page.getByTestId('problem-list')).toHaveCount(0);
  await publish(page, `Skrót do faktur (${RUN})`);

  const manager = await personPage(browser, (p) => signedIn(p, 'manager'));
  expect(await menuEntries(manager)).toContain(text);
  await manager.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: text }).click();
  await expect(manager).toHaveURL(/\/app\/invoice$/);
  await manager.close();

  await putBack(page, baseline, [
    { scope: 'base', path: 'screens/menu.json' },
    { scope: 'base', path: 'locales/pl/custom.json' },
  ]);
});

/** The steps of the order wizard as its user sees them. */
async function wizardSteps(page: Page): Promise<string[]> {
  const w = page.getByRole('dialog', { name: 'Dodanie zlecenia' });
  const steps = w.getByRole('list', { name: 'Kroki' }).getByRole('listitem');
  await expect(steps.first()).toBeVisible();
  return (await steps.allInnerTexts()).map((s) => s.replace(/^\d+\.\s*/, '').trim());
}

test('an analyst hides the order wizard’s remarks step for drivers; a driver does not get it, a fleet manager does', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const baseline = await startJourney(page);
  await openTab(page, 'Formularze');
  await page.getByLabel('Formularz', { exact: true }).selectOption('screens/order-wizard.json');
  const remarks = page.locator('.studio-step[data-step="remarks"]');
  await remarks.locator('.studio-hidden-chooser').first().getByLabel('Użytkownik pojazdu', { exact: true }).check();
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano w wersji roboczej.')).toBeVisible();
  await expect(remarks.locator('.studio-hidden-chooser').first().getByLabel('Użytkownik pojazdu', { exact: true })).toBeChecked();
  await publish(page, `Bez kroku Uwagi dla kierowców (${RUN})`);

  const driver = await personPage(browser, (p) => signedIn(p, 'kierowca'));
  await driver.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Zamówienia usługi' }).click();
  await driver.getByRole('dialog', { name: 'Zamówienia usługi' }).getByRole('button', { name: 'Przegląd okresowy' }).click();
  expect(await wizardSteps(driver)).toEqual(['Dane zlecenia', 'Zgłaszający', 'Załączniki', 'Notatki', 'Podsumowanie']);
  await driver.close();

  const manager = await personPage(browser, (p) => signedIn(p, 'manager', '/app/order'));
  await manager.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name: 'Dodaj zlecenie' }).click();
  expect(await wizardSteps(manager)).toContain('Uwagi');
  await manager.close();

  await putBack(page, baseline, [{ scope: 'base', path: 'screens/order-wizard.json' }]);
});

test('an invalid change is refused with its message, beside its field and in the list, and nothing is saved', async ({ page }) => {
  await startJourney(page);
  const draftBefore = await status(page).getByTestId('draft-line').innerText();
  await openTab(page, 'Tabele');
  await page.getByLabel('Tabela', { exact: true }).selectOption('screens/vehicles-table.json');
  const width = page.getByLabel('Szerokość kolumny Marka w pikselach');
  await width.fill('10');
  await page.getByRole('button', { name: 'Zapisz' }).click();
  const list = page.getByTestId('problem-list');
  await expect(list).toBeVisible();
  await expect(list).toContainText('screens/vehicles-table.json');
  await expect(list.locator('code')).toContainText(['/columns/1/width']);
  const beside = page.locator('tr[data-column="marka"]').getByTestId('field-problem');
  await expect(beside).toBeVisible();
  await expect(width).toHaveAttribute('aria-invalid', 'true');
  const message = (await beside.innerText()).trim();
  expect(message.length).toBeGreaterThan(3);
  await expect(list).toContainText(message);
  await shot(page, 'invalid-1400');
  await page.getByRole('button', { name: 'Cofnij niezapisane' }).click();
  await expect(width).toHaveValue('130');
  await expect(status(page).getByTestId('draft-line')).toHaveText(draftBefore);
});

test('a text search the server could not answer says so and offers to search again, not "nothing found"', async ({ page, consoleErrors }) => {
  // the browser logs the 503 this journey makes the server answer
  consoleErrors.allow(/status of 503/);
  await startJourney(page);
  await openTab(page, 'Teksty');
  // the search meets a busy server: the 503 a shedding server answers (plugins/limits.ts)
  let busy = true;
  await page.route(/\/api\/config-studio\/texts\?/, (route) => {
    if (route.request().method() !== 'GET' || !busy) return route.continue();
    return route.fulfill({
      status: 503, headers: { 'retry-after': '5' }, contentType: 'application/json',
      body: JSON.stringify({ statusCode: 503, code: 'OVERLOADED', detail: 'Serwer jest chwilowo przeciążony. Spróbuj ponownie za chwilę.' }),
    });
  });
  await page.getByLabel('Szukane słowa', { exact: true }).fill('Nr rejestracyjny');
  await page.getByRole('button', { name: 'Szukaj' }).click();
  const failed = page.getByTestId('studio-texts-failed');
  await expect(failed).toContainText('Nie udało się wyszukać tekstów. Spróbuj ponownie za chwilę.');
  await expect(page.getByText('Nie znaleziono tekstów.')).toHaveCount(0);
  await shot(page, 'texts-failed-1400');
  // the server has its breath back
  busy = false;
  await failed.getByRole('button', { name: 'Szukaj ponownie' }).click();
  await expect(page.locator('.studio-text[data-key="car:fields.rejestr"]')).toBeVisible();
  await expect(failed).toHaveCount(0);
});

test('an analyst rolls back: the version before the change is published again in one click', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const label = `Nr rej. ${RUN}`;
  const baseline = await startJourney(page);
  await openTab(page, 'Teksty');
  await page.getByLabel('Szukane słowa', { exact: true }).fill('car:fields.rejestr');
  await page.getByRole('button', { name: 'Szukaj' }).click();
  const row = page.locator('.studio-text[data-key="car:fields.rejestr"]');
  await row.getByRole('textbox', { name: /^Nowy tekst:/ }).fill(label);
  await row.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano tekst w wersji roboczej.')).toBeVisible();
  const changed = await publish(page, `Krótsza etykieta (${RUN})`);

  const manager = await personPage(browser, (p) => signedIn(p, 'manager'));
  await expect(header(manager, 'rejestr')).toContainText(label);

  // the version before (or the files, when there was none) comes back
  await openTab(page, 'Wersje');
  const item = page.locator(`.studio-version[data-version="${changed}"]`);
  await expect(item.getByText('w użyciu')).toBeVisible();
  await item.getByRole('button', { name: 'Pokaż zmiany' }).click();
  await expect(item.getByTestId('change-list')).toContainText(label);
  await shot(page, 'versions-1400');
  await putBack(page, baseline, [{ scope: 'base', path: 'locales/pl/car.json' }]);

  await manager.reload();
  await expect(header(manager, 'rejestr')).toContainText('Nr rejestracyjny');
  await manager.close();
});

test('an analyst takes one change back out of the draft, and sets the base portal back to the files (version 0)', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const baseline = await startJourney(page);
  await changeText(page, 'car:fields.marka', `Marka ${RUN}`);
  await changeText(page, 'car:fields.rokProd', `Rok ${RUN}`);
  await openTab(page, 'Wersje');
  const draft = page.locator('.studio-draft-diff');
  await expect(draft.getByTestId('change-list').locator('li')).toHaveCount(2);
  await draft.locator('li', { hasText: `Rok ${RUN}` }).getByRole('button', { name: /Cofnij/ }).click();
  await expect(toast(page, 'Cofnięto zmianę w wersji roboczej.')).toBeVisible();
  await expect(draft.getByTestId('change-list').locator('li')).toHaveCount(1);
  await expect(draft.getByTestId('change-list')).toContainText(`Marka ${RUN}`);
  await shot(page, 'draft-changes-1400');
  const number = await publish(page, `Marka (${RUN})`);

  // the base portal's versions are numbered in it without gaps, down to 0: as in the files
  await openTab(page, 'Wersje');
  await expect(page.locator(`.studio-version[data-version="${number}"]`)).toBeVisible();
  const numbers = await page.locator('.studio-version').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-version'))));
  expect(numbers).toEqual(Array.from({ length: number + 1 }, (_, i) => number - i));
  await expect(page.locator('.studio-version[data-version="0"]')).toContainText('ustawienia z plików');
  const manager = await personPage(browser, (p) => signedIn(p, 'manager'));
  await expect(header(manager, 'marka')).toContainText(`Marka ${RUN}`);
  await expect(header(manager, 'rokProd')).toContainText('Rok produkcji');

  await restoreVersion(page, 0, 'base');
  await manager.reload();
  await expect(header(manager, 'marka')).not.toContainText(`Marka ${RUN}`);
  await expect(header(manager, 'marka')).toContainText('Marka');
  await manager.close();
  await putBack(page, baseline, [{ scope: 'base', path: 'locales/pl/car.json' }]);
});

/** Teksty: a new text for a key, saved into the draft. */
async function changeText(page: Page, key: string, text: string) {
  await openTab(page, 'Teksty');
  await page.getByLabel('Szukane słowa', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Szukaj' }).click();
  const row = page.locator(`.studio-text[data-key="${key}"]`);
  await row.getByRole('textbox', { name: /^Nowy tekst:/ }).fill(text);
  await row.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano tekst w wersji roboczej.')).toBeVisible();
}

test('a draft overtaken by another publication is refused with the other’s changes, rebased and published', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const baseline = await startJourney(page);
  await changeText(page, 'car:fields.marka', `Marka X ${RUN}`);
  const x = await publish(page, `Marka X (${RUN})`);
  await changeText(page, 'car:fields.marka', `Marka Z ${RUN}`);
  await publish(page, `Marka Z (${RUN})`);
  // this analyst's draft begins; meanwhile the version with X is published again (a rollback)
  await changeText(page, 'car:fields.marka', `Marka Y ${RUN}`);
  await restoreVersion(page, x);
  await expect(status(page)).toContainText('Uwzględnij opublikowaną wersję');

  await status(page).getByRole('button', { name: 'Opublikuj' }).click();
  const dialog = page.getByRole('dialog', { name: 'Opublikuj wersję roboczą' });
  await dialog.getByLabel('Komentarz (co i dlaczego zmieniono)').fill(`Marka Y (${RUN})`);
  await dialog.getByRole('button', { name: 'Opublikuj' }).click();
  const conflict = page.getByTestId('conflict');
  await expect(conflict).toContainText(`„Marka Z ${RUN}” → „Marka X ${RUN}”`);
  await shot(page, 'stale-1400');
  await conflict.getByRole('button', { name: 'Uwzględnij opublikowaną wersję' }).click();
  await expect(toast(page, 'Wersja robocza opiera się teraz na najnowszej opublikowanej wersji; Twoje zmiany zostały zachowane.')).toBeVisible();
  await expect(conflict).toHaveCount(0);
  await publish(page, `Marka Y po uwzględnieniu (${RUN})`);

  const manager = await personPage(browser, (p) => signedIn(p, 'manager'));
  await expect(header(manager, 'marka')).toContainText(`Marka Y ${RUN}`);
  await manager.close();

  await putBack(page, baseline, [{ scope: 'base', path: 'locales/pl/car.json' }]);
});

const run = promisify(execFile);

test('an analyst exports the layer; the exported files pass the configuration check in a copy of the tree', async ({ page }) => {
  test.setTimeout(240_000);
  const baseline = await startJourney(page);
  // a change of the base portal and one of variant T
  await openTab(page, 'Teksty');
  await page.getByLabel('Szukane słowa', { exact: true }).fill('car:fields.rejestr');
  await page.getByRole('button', { name: 'Szukaj' }).click();
  await page.locator('.studio-text[data-key="car:fields.rejestr"]').getByRole('textbox', { name: /^Nowy tekst:/ }).fill(`Rejestracja ${RUN}`);
  await page.locator('.studio-text[data-key="car:fields.rejestr"]').getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano tekst w wersji roboczej.')).toBeVisible();
  await page.getByLabel('Zakres zmian').selectOption('t');
  await openTab(page, 'Tabele');
  await page.getByLabel('Tabela', { exact: true }).selectOption('screens/vehicles-table.json');
  await page.getByLabel('Szerokość kolumny Marka w pikselach').fill('160');
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano w wersji roboczej.')).toBeVisible();
  await page.getByLabel('Zakres zmian').selectOption('base');
  await publish(page, `Do eksportu (${RUN})`);

  await openTab(page, 'Wersje');
  await page.getByLabel('Co eksportować').selectOption('published');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Eksportuj' }).click()]);
  const exported = JSON.parse(readFileSync(await download.path(), 'utf8')) as { format: string; files: Record<string, unknown> };
  expect(exported.format).toBe('fleet-portal-config/1');
  expect(Object.keys(exported.files)).toEqual(expect.arrayContaining(['locales/pl/car.json', 'client-variants/t/screens/vehicles-table.json']));

  const tree = mkdtempSync(join(tmpdir(), 'studio-export-'));
  try {
    for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) cpSync(join(ROOT, dir), join(tree, dir), { recursive: true });
    for (const [path, body] of Object.entries(exported.files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), `${JSON.stringify(body, null, 2)}\n`);
    }
    const check = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'tools/check-config.ts'), '--root', tree], { cwd: ROOT });
    expect(check.stdout).toContain('✓ t:');
    // the exported base text is the new one
    expect(JSON.parse(readFileSync(join(tree, 'locales/pl/car.json'), 'utf8')).fields.rejestr).toBe(`Rejestracja ${RUN}`);
  } finally {
    rmSync(tree, { recursive: true, force: true });
  }

  await putBack(page, baseline, [
    { scope: 'base', path: 'locales/pl/car.json' },
    { scope: 't', path: 'screens/vehicles-table.json' },
  ]);
});
