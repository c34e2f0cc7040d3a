/**
 * A date typed in a form, in the reader's language (issue 48): an English fleet manager's damage
 * report shows its date as DD/MM/YYYY and reads what he types in that order. 13/11/2026 is a day
 * only when read day first (a 13th month does not exist), and 31/02/2026 is no day at all, so the
 * form's own validation says which way it read them.
 */
import { expect, signedIn, tableLoaded, test } from './support.ts';

test.use({ locale: 'en-GB' });

test('an English fleet manager types the damage date day first (DD/MM/YYYY) and the form reads it so', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  await tableLoaded(page);
  await page.locator('[data-action="damage"]').click();
  const wizard = page.getByRole('dialog').filter({ has: page.getByTestId('wizard-step-title') });
  const date = wizard.getByLabel(/^Damage date/);
  // now, as the English reader writes a day: 04/12/2026 10:20, not 04.12.2026
  await expect(date).toHaveValue(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  const id = await date.getAttribute('id');
  const firstStep = await wizard.getByTestId('wizard-step-title').innerText();
  const invalidDate = page.locator(`[id="${id}"][aria-invalid="true"]`);

  await date.fill('31/02/2026 08:30');
  await date.blur();
  await wizard.getByRole('button', { name: 'Next' }).click();
  await expect(invalidDate).toHaveCount(1);

  // the step's other required fields, so that a valid date lets the wizard go on
  await wizard.getByRole('combobox', { name: /^Registration no/ }).pressSequentially('wz1');
  await wizard.getByRole('option', { name: /^WZ12345/ }).click();
  await wizard.getByLabel(/^Damage type/).fill('Collision');
  await expect(invalidDate).toHaveCount(1);
  await date.fill('13/11/2026 08:30');
  await date.blur();
  await expect(date).toHaveValue('13/11/2026 08:30');
  await wizard.getByRole('button', { name: 'Next' }).click();
  // read as 13 November: the step is valid and the wizard goes on
  await expect(wizard.getByTestId('wizard-step-title')).not.toHaveText(firstStep);
  await expect(invalidDate).toHaveCount(0);
});

test("an English fleet manager's own report period is typed day first, not in the browser's date picker", async ({ page }) => {
  await signedIn(page, 'manager', '/app/raporty');
  const table = page.locator('.reports-table table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await page.getByLabel('Period', { exact: true }).selectOption({ label: 'Custom period' });
  const from = page.getByLabel('From', { exact: true });
  const to = page.getByLabel('To', { exact: true });
  // last month's first and last day, as the English reader writes them
  await expect(from).toHaveAttribute('type', 'text');
  await expect(from).toHaveValue(/^01\/\d{2}\/\d{4}$/);
  await expect(to).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  // 13/11/2026 – 30/11/2026: asked of the server as those days (a 13th month does not exist)
  const asked = page.waitForRequest((request) => /\/api\/reports\/[^/]+\/run$/.test(request.url()) && request.postDataJSON()?.from === '2026-11-13');
  await from.fill('13/11/2026');
  expect((await asked).postDataJSON()).toMatchObject({ from: '2026-11-13' });
  await expect(from).not.toHaveAttribute('aria-invalid', 'true');
  // a day not yet whole is said to be wrong, and asks nothing
  await to.fill('31/02/2026');
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await to.fill('30/11/2026');
  await expect(to).not.toHaveAttribute('aria-invalid', 'true');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  if (process.env.SHOTS) for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${process.env.SHOTS}/report-period-en-${width}.png` });
  }
});
