import { expect, signedIn, test, toast } from './support';

test('an advisor changes the vehicle: a wrong VIN part shows the server\'s reason, the right one continues on the new vehicle', async ({ page }) => {
  await signedIn(page, 'doradca');
  // the vehicle's panel names it (Do zrobienia above it may list other vehicles of the station too)
  const panelNames = (plate: string) => page.getByRole('definition').filter({ hasText: new RegExp(`^${plate}$`) });
  await expect(panelNames('WZ12345').first()).toBeVisible();
  await page.getByRole('link', { name: 'Zmień pojazd' }).click();
  const dialog = page.getByRole('dialog', { name: 'Zmień pojazd' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Numer rejestracyjny/).fill('wz67890');
  await expect(dialog.getByLabel(/^Numer rejestracyjny/)).toHaveValue('WZ67890');
  await dialog.getByLabel(/^Ostatnie 6 znaków VIN/).fill('12');
  await dialog.getByRole('button', { name: 'Zmień pojazd' }).click();
  await expect(dialog.getByText('Podaj dokładnie 6 ostatnich znaków numeru VIN')).toBeVisible();
  await dialog.getByLabel(/^Ostatnie 6 znaków VIN/).fill('000123');
  await dialog.getByRole('button', { name: 'Zmień pojazd' }).click();
  await expect(toast(page, 'Nie znaleziono pojazdu o podanym numerze rejestracyjnym i końcówce VIN')).toBeVisible();
  await dialog.getByLabel(/^Ostatnie 6 znaków VIN/).fill('000456');
  await dialog.getByRole('button', { name: 'Zmień pojazd' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await expect(panelNames('WZ67890').first()).toBeVisible();
  await expect(panelNames('WZ12345')).toHaveCount(0);
});

test('the administrator refreshes the application: the configuration is read again and the page reloads', async ({ page }) => {
  await signedIn(page, 'admin', '/app/login-history');
  // the page is back at the admin's screen before it reloads (100 ms later): the journey waits for
  // the load itself, and a journey that ended before it left a tab mid-reload (kept-context.ts)
  const reloaded = page.waitForEvent('load');
  await page.getByRole('link', { name: 'Odśwież aplikację' }).click();
  // back where the admin came from, reloaded, still signed in
  await reloaded;
  await expect(page).toHaveURL(/\/app\/login-history$/);
  await expect(page.getByRole('navigation', { name: 'Menu główne' })).toBeVisible();
});
