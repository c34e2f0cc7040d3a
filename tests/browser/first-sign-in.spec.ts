import { ACCOUNTS, expect, signIn, submitLogin, test, toast } from './support';

test('a driver signing in for the first time accepts both terms documents, sets a password, then sees the portal', async ({ page }) => {
  await submitLogin(page, ACCOUNTS.nowyKierowca);
  const terms = page.getByRole('dialog', { name: /Regulamin i polityka prywatności/ });
  await expect(terms).toBeVisible();
  await expect(terms.getByTestId('terms-progress')).toHaveText('Dokument 1 z 2');
  // the PDF itself is shown: its text layer carries the document's title
  await expect(terms.getByTestId('pdf-viewer')).toContainText('Regulamin Portalu Klienta Partner CFM');
  // the modal cannot be dismissed
  await page.keyboard.press('Escape');
  await expect(terms).toBeVisible();

  // 'Zatwierdź' without the confirmation asks for it
  await terms.getByRole('button', { name: 'Zatwierdź' }).click();
  await expect(terms.getByText('Potwierdź zapoznanie się z regulaminem')).toBeVisible();
  await terms.getByLabel(/Zapoznałem się z Regulaminem/).check();
  await terms.getByRole('button', { name: 'Zatwierdź' }).click();

  await expect(terms.getByTestId('terms-progress')).toHaveText('Dokument 2 z 2');
  await expect(terms.getByTestId('pdf-viewer')).toContainText('Polityka prywatności Portalu Klienta');
  await expect(terms.getByLabel(/Zapoznałem się z Regulaminem/)).not.toBeChecked();
  await terms.getByLabel(/Zapoznałem się z Regulaminem/).check();
  await terms.getByRole('button', { name: 'Zatwierdź' }).click();
  await expect(terms).toBeHidden();

  // then the forced password change (spec §4: once the terms modal is closed)
  const change = page.getByRole('dialog', { name: 'Ustaw własne hasło' });
  await expect(change).toBeVisible();
  await change.getByLabel(/^Nowe hasło/).fill('abc');
  await expect(change.getByTestId('password-strength')).toContainText('Za krótkie');
  await change.getByLabel(/^Nowe hasło/).fill('Warszawa1!');
  await change.getByLabel(/^Powtórz nowe hasło/).fill('Warszawa2!');
  await change.getByRole('button', { name: 'Zmień hasło' }).click();
  await expect(change.getByText('Podane hasła nie zgadzają się')).toBeVisible();
  // the rules are explained in the password policy dialog
  await change.getByRole('button', { name: 'Zasady tworzenia haseł' }).click();
  const policy = page.getByRole('dialog', { name: 'Zasady tworzenia haseł' });
  await expect(policy.getByTestId('password-policy')).toContainText('co najmniej 8 znaków');
  await expect(policy.getByTestId('password-policy')).toContainText('! @ # $ % ^ & *');
  await policy.getByRole('button', { name: 'Ok' }).click();

  await change.getByLabel(/^Nowe hasło/).fill('Zielony#Rower72');
  await expect(change.getByTestId('password-strength')).toContainText(/Silne|Bardzo dobre/);
  await change.getByLabel(/^Powtórz nowe hasło/).fill('Zielony#Rower72');
  await change.getByRole('button', { name: 'Zmień hasło' }).click();
  await expect(change).toBeHidden();
  await expect(toast(page, 'Zmieniono hasło')).toBeVisible();
  // the vehicle's panel names it (its plate is also on the driver's Do zrobienia items)
  const plate = page.getByRole('definition').filter({ hasText: 'WZ67890' });
  await expect(plate).toBeVisible();

  // a reload asks nothing again
  await page.reload();
  await expect(plate).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // the new password is the one that works now
  await page.goto('/sign-out');
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
  await signIn(page, 'nowyKierowca', 'Zielony#Rower72');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a manager who has accepted the terms only sets a password on first sign-in, and may sign out instead', async ({ page }) => {
  await submitLogin(page, ACCOUNTS.nowyManager);
  const change = page.getByRole('dialog', { name: 'Ustaw własne hasło' });
  await expect(change).toBeVisible();
  await expect(page.getByRole('dialog', { name: /Regulamin/ })).toHaveCount(0);
  await change.getByRole('button', { name: 'Wyloguj' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
});
