/**
 * Administracja → Webhooki (issue 35): an administrator adds an endpoint (its secret shown once,
 * in a dialog of its own), sends a test event to a real HTTP receiver, which verifies it with the
 * published `standardwebhooks` package, sees the message in the endpoint's log with its attempt,
 * and sends it again: the receiver gets it a second time with the same webhook-id; "recover since"
 * asks for a time (DD.MM.RRRR GG:MM) and answers how many failed messages it sent again. The server of
 * the journeys allows 127.0.0.1 (tests/browser/serve.ts WEBHOOK_ALLOW_HOSTS).
 */
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startReceiver } from '../support/webhook-receiver.ts';
import { axeScan, expect, settled, signedIn, tableLoaded, test, toast } from './support.ts';

const SHOTS = process.env.SHOTS;
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  // a dialog still fading in would be photographed half transparent
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/webhooks-${name}.png` });
};
const toolbar = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Działania na tabeli' }).first().getByRole('button', { name, exact: true });

async function expectAccessible(page: Page) {
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('an administrator adds a webhook, sends a test event, sees it in the log and sends it again', async ({ page }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    await signedIn(page, 'admin', '/app/webhooks');
    await expect(page).toHaveURL(/\/app\/webhooks$/);
    await tableLoaded(page);

    // the form: the address, the events offered by the server, the clients; the secret once
    await toolbar(page, 'Dodaj webhook').click();
    const form = page.getByRole('dialog', { name: 'Nowy webhook' });
    // no event chosen, an http:// address of a host not allowed: said in words, under their fields (issue 49)
    await form.getByLabel('Adres (https://)').fill('http://example.com/hook');
    await form.getByRole('button', { name: 'Zapisz' }).click();
    await expect(form.getByText('Zaznacz co najmniej jedno zdarzenie')).toBeVisible();
    await expect(form).not.toContainText('minItems');
    await form.getByRole('checkbox', { name: 'Szkoda zgłoszona' }).check();
    await form.getByRole('button', { name: 'Zapisz' }).click();
    await expect(form.getByText('Adres http:// nie jest dozwolony dla tego serwera. Użyj adresu https://')).toBeVisible();
    await expect(page.locator('body')).not.toContainText('WEBHOOK_ALLOW_HOSTS');
    await expect(page.locator('body')).not.toContainText('url:');
    await form.getByRole('checkbox', { name: 'Szkoda zgłoszona' }).uncheck();
    await form.getByLabel('Adres (https://)').fill(receiver.url('/portal'));
    await form.getByLabel('Opis').fill('System serwisowy');
    await form.getByRole('checkbox', { name: 'Zmiana statusu zlecenia' }).check();
    await form.getByRole('checkbox', { name: 'Szkoda zgłoszona' }).check();
    await expectAccessible(page);
    await shot(page, 'form-1400');
    await form.getByRole('button', { name: 'Zapisz' }).click();
    const reveal = page.getByRole('dialog', { name: 'Sekret webhooka' });
    // the warning that it is shown once is in the secret's window, not in a toast after it is gone
    await expect(reveal.locator('.alert-warning')).toContainText('Sekret jest pokazywany tylko teraz');
    const secret = await reveal.getByTestId('revealed-value').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await expectAccessible(page);
    await shot(page, 'secret-1400');
    await reveal.getByRole('button', { name: 'Zamknij' }).last().click();
    await expect(reveal).toBeHidden();
    await expect(toast(page, 'Webhook dodany.')).toBeVisible();
    await expect(toast(page, 'Webhook dodany.')).not.toContainText('sekret');

    const row = page.locator('.ag-row').filter({ has: page.locator('.ag-cell[col-id="url"]', { hasText: receiver.url('/portal') }) }).first();
    // events by their Polish names, every client as "wszyscy" (issue 49)
    await expect(row.locator('.ag-cell[col-id="events"]')).toHaveText('Zmiana statusu zlecenia, Szkoda zgłoszona');
    await expect(row.locator('.ag-cell[col-id="clientsText"]')).toHaveText('wszyscy');
    await expect(page.locator('.table-help')).not.toContainText('Standard Webhooks');
    await shot(page, 'table-1400');

    // a test event reaches the receiver, signed with the secret shown
    await row.locator('.ag-cell[col-id="url"]').click();
    await toolbar(page, 'Wyślij zdarzenie testowe').click();
    await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
    // the toast says what became of it: the receiver's answer (issue 49)
    await expect(toast(page, 'Zdarzenie testowe dostarczone: odbiorca odpowiedział 200.')).toBeVisible();
    const [first] = await receiver.waitFor('/portal', 1);
    expect(new Webhook(secret).verify(first.body, first.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });

    // the log: the message, delivered, with its attempt; sent again with the same id
    const log = page.locator('.modal.details-dialog').first();
    const message = log.locator('.ag-row').filter({ hasText: 'Zdarzenie testowe' }).first();
    // the receiver has it a moment before the portal records the answer: the log is opened again until it says so
    await expect(async () => {
      if (await log.isVisible()) {
        await page.keyboard.press('Escape');
        await expect(log).toBeHidden();
      }
      await row.locator('.ag-cell[col-id="url"]').dblclick();
      await expect(message).toContainText('Dostarczono', { timeout: 2_000 });
    }).toPass();
    await expectAccessible(page);
    await shot(page, 'log-1400');
    await message.locator('.ag-cell[col-id="event"]').click();
    const details = page.locator('.modal.details-dialog').filter({ hasText: 'Próby' });
    await expect(details.locator('[data-list="attempts"] tbody tr')).toHaveCount(1);
    // the message's window is titled by its event and time, not its identifier (issue 49)
    await expect(page.getByRole('heading', { level: 2, name: /^Zdarzenie testowe — / })).toHaveText(/^Zdarzenie testowe — \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
    await expect(details.locator('[data-list="attempts"] tbody tr').first()).toContainText('200');
    await shot(page, 'message-1400');
    await details.getByRole('button', { name: 'Wyślij ponownie', exact: true }).click();
    await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
    await expect(toast(page, 'Wiadomość wysłana ponownie.')).toBeVisible();
    const [, again] = await receiver.waitFor('/portal', 2);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);

    // "recover since": every failed message since a time, asked in Polish as DD.MM.RRRR GG:MM
    const recoverButton = log.getByRole('button', { name: 'Wyślij ponownie nieudane…' });
    // Escape closes the message (and with it, the log): the log is opened again from its row
    await expect(async () => {
      if (await details.locator('[data-list="attempts"]').isVisible()) await page.keyboard.press('Escape');
      await expect(details.locator('[data-list="attempts"]')).toBeHidden({ timeout: 2_000 });
      if (!(await recoverButton.isVisible())) await row.locator('.ag-cell[col-id="url"]').dblclick();
      await expect(recoverButton).toBeVisible({ timeout: 2_000 });
    }).toPass();
    await recoverButton.click();
    const recover = page.getByRole('dialog', { name: 'Wyślij ponownie nieudane' });
    const since = recover.getByLabel('Nieudane od');
    await expect(since).toHaveAttribute('placeholder', 'DD.MM.RRRR GG:MM');
    await expect(recover).toContainText('z tymi samymi identyfikatorami (webhook-id)');
    await since.fill('01.01.2026 00:00');
    await expectAccessible(page);
    await shot(page, 'recover-1400');
    await recover.getByRole('button', { name: 'Wyślij ponownie' }).click();
    // the test event and its resend were delivered: nothing failed, nothing to send again
    await expect(toast(page, 'Ponownie wysłano wiadomości: 0.')).toBeVisible();
    await expect(recover).toBeHidden();
    await expect(async () => {
      if (!(await log.isVisible())) await row.locator('.ag-cell[col-id="url"]').dblclick();
      await expect(message).toBeVisible({ timeout: 2_000 });
    }).toPass();

    for (const [width, height] of [[900, 900], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      await shot(page, `log-${width}`);
    }
    await page.keyboard.press('Escape');
    await shot(page, 'table-390');
    await page.setViewportSize({ width: 900, height: 900 });
    await shot(page, 'table-900');
  } finally {
    await receiver.close();
  }
});

test('a test event to an address nobody answers says why; a webhook is deleted; the screen has its Pomoc (issue 49)', async ({ page }) => {
  await signedIn(page, 'admin', '/app/webhooks');
  await tableLoaded(page);
  await page.getByTestId('help-button').click();
  await expect(page.getByTestId('help-dialog')).toContainText('Webhook to adres innego systemu');
  await page.getByTestId('help-dialog').getByRole('button', { name: 'Zamknij' }).last().click();

  await toolbar(page, 'Dodaj webhook').click();
  const form = page.getByRole('dialog', { name: 'Nowy webhook' });
  await form.getByLabel('Adres (https://)').fill('https://nie-ma-takiego-serwera.invalid/hook');
  await form.getByRole('checkbox', { name: 'Szkoda zgłoszona' }).check();
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await page.getByRole('dialog', { name: 'Sekret webhooka' }).getByRole('button', { name: 'Zamknij' }).last().click();
  const row = page.locator('.ag-row').filter({ hasText: 'nie-ma-takiego-serwera.invalid' }).first();
  await row.locator('.ag-cell[col-id="url"]').click();
  await toolbar(page, 'Wyślij zdarzenie testowe').click();
  await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  const failed = page.locator('.toast').filter({ hasText: /Nie udało się wysłać zdarzenia testowego: (nie znaleziono serwera o tej nazwie|nie udało się ustalić adresu serwera \(DNS\))/ });
  await expect(failed).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.toast').filter({ hasText: 'ENOTFOUND' })).toHaveCount(0);

  await toolbar(page, 'Edytuj').click();
  const edit = page.getByRole('dialog', { name: 'Edycja webhooka' });
  await edit.getByRole('button', { name: 'Usuń' }).click();
  await page.getByRole('dialog').filter({ hasText: 'Historia zmian webhooka zostaje w Dzienniku zmian' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Webhook usunięty.')).toBeVisible();
  await expect(row).toHaveCount(0);
});
