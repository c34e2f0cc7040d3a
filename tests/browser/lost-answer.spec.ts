/**
 * A reading whose answer is lost on the way (issue 47: a weak signal in an underground car park):
 * the server stored it, the phone saw no answer and the driver presses Zapisz again. The second
 * attempt carries the same Idempotency-Key (signed anew) and gets the first answer back: one
 * reading, no error. At 390 px, as on the phone.
 */
import { expect, signIn, test, toast } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('a driver\'s reading whose answer was lost waits on the phone, is sent again under its key and stored once', async ({ page, consoleErrors }) => {
  // the first attempt's answer is dropped after the server handled it: the browser logs the failed load
  consoleErrors.allow(/Failed to load resource|ERR_FAILED/);
  await signIn(page, 'kierowca');
  const attempts: { key: string | null; nonce: string | null; replayed: string | null; status: number }[] = [];
  let dropped = false;
  await page.route('**/api/counter', async (route) => {
    const headers = route.request().headers();
    const response = await route.fetch();
    attempts.push({ key: headers['idempotency-key'] ?? null, nonce: headers['x-nonce'] ?? null, replayed: response.headers()['idempotent-replayed'] ?? null, status: response.status() });
    if (!dropped) {
      dropped = true;
      return route.abort('connectionfailed');
    }
    return route.fulfill({ response });
  });

  await page.goto('/app/counter');
  const modal = page.getByRole('dialog', { name: 'Aktualizacja licznika' });
  // the same reading as the last one: accepted, and the vehicle panel other journeys read stays as it was
  await modal.getByLabel(/^Stan licznika/).fill('87450');
  await modal.getByRole('button', { name: 'Zapisz' }).click();
  await expect.poll(() => attempts.length).toBe(1);
  // a lost answer reads as no network (issue 47): the phone keeps the reading under its key and
  // sends it again, here at once with "Wyślij teraz"
  await expect(toast(page, 'Brak sieci: zapisano w telefonie')).toBeVisible();
  await expect(modal).toBeHidden();
  await page.screenshot({ path: 'test-results/lost-answer-390.png' });
  await page.getByTestId('outbox').getByRole('button', { name: 'Wyślij teraz' }).click();
  await expect(toast(page, 'Wysłano to, co czekało: 1')).toBeVisible();

  expect(attempts).toHaveLength(2);
  expect(attempts[0].key).toMatch(/^[A-Za-z0-9_.:-]{8,100}$/);
  expect(attempts[1].key).toBe(attempts[0].key);
  expect(attempts[1].nonce).not.toBe(attempts[0].nonce);
  expect(attempts.map((a) => [a.status, a.replayed])).toEqual([[200, null], [200, 'true']]);
});
