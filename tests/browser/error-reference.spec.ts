/**
 * A server failure names its request (issue 33): the error toast shows "Identyfikator zgłoszenia"
 * with the id the server answered, the one its log line carries (tests/api/request-log.test.ts),
 * so that a user's screenshot of the error leads to that line.
 */
import { expect, signedIn, test, toast } from './support.ts';

test('a failed call\'s error toast shows the request id of the answer', async ({ page, consoleErrors }) => {
  // the browser logs the 500 this journey makes of the table's answer
  consoleErrors.allow(/status of 500/);
  await signedIn(page, 'manager');
  // the server's answer to the table's next block becomes a 500, as the errors plugin answers one
  await page.route('**/api/order/table2', async (route) => {
    const response = await route.fetch();
    const requestId = response.headers()['x-request-id'];
    expect(requestId, 'the server answers every call with its id').toBeTruthy();
    await route.fulfill({ status: 500, headers: { 'x-request-id': requestId }, json: { statusCode: 500, detail: 'Wystąpił nieoczekiwany błąd serwera', requestId } });
  });
  const answered = page.waitForResponse('**/api/order/table2');
  await page.goto('/app/order');
  const requestId = (await answered).headers()['x-request-id'];
  const error = toast(page, 'Wystąpił nieoczekiwany błąd serwera');
  await expect(error).toBeVisible();
  await expect(error.locator('.toast-reference')).toHaveText(`Identyfikator zgłoszenia: ${requestId}`);
});
