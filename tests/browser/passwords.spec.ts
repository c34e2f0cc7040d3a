import { startTestSmtp, type TestSmtp } from '../support/smtp';
import { expect, signedIn, submitLogin, test, toast } from './support';
import { PORT } from './ports';

// A real SMTP server in the test process; the administrator points the portal at it through the
// e-mail configuration screen, as an operator would.
const SMTP_PORT = PORT + 25;
let smtp: TestSmtp;
test.beforeAll(async () => {
  smtp = await startTestSmtp(SMTP_PORT);
});
test.afterAll(async () => smtp?.close());

test.describe.configure({ mode: 'serial' });


/**
 * The next mail to `address` (whose text matches `text`): the portal's notifications, sent by its
 * worker once a mail server is configured, may reach the same server in between.
 */
async function mailTo(address: string, text?: RegExp) {
  for (;;) {
    const mail = await smtp.nextMail();
    if (mail.to.includes(address) && (!text || text.test(mail.text))) return mail;
  }
}

test('the administrator configures the mail server and tests it', async ({ page }) => {
  await signedIn(page, 'admin', '/app/email-config');
  await expect(page.getByRole('heading', { name: 'Konfiguracja email' })).toBeVisible();
  await page.getByLabel(/^Serwer SMTP/).fill('127.0.0.1');
  await page.getByLabel(/^Szyfrowanie/).selectOption({ label: 'STARTTLS' });
  await expect(page.getByLabel(/^Port/)).toHaveValue('587');
  await page.getByLabel(/^Szyfrowanie/).selectOption({ label: 'Brak' });
  await expect(page.getByLabel(/^Port/)).toHaveValue('25');
  await page.getByLabel(/^Port/).fill(String(SMTP_PORT));
  await page.getByLabel(/^Użytkownik/).fill('portal');
  await page.getByLabel(/^Hasło/).fill('smtp-haslo');
  await page.getByLabel(/^Adres nadawcy/).fill('portal@partnercfm.pl');
  await page.getByRole('button', { name: 'Testuj' }).click();
  await expect(toast(page, 'Wiadomość testowa została wysłana na adres portal@partnercfm.pl')).toBeVisible();
  expect((await mailTo('portal@partnercfm.pl')).to).toEqual(['portal@partnercfm.pl']);
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano konfigurację')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(/^Serwer SMTP/)).toHaveValue('127.0.0.1');
  await expect(page.getByLabel(/^Hasło/)).toHaveValue('********');
});

test('a manager who forgot the password gets a code by e-mail and sets a new password with it', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Nie pamiętasz hasła?' }).click();
  const request = page.getByRole('dialog', { name: 'Nie pamiętasz hasła?' });
  await request.getByLabel(/^Adres e-mail/).fill('nie-adres');
  await request.getByRole('button', { name: 'Wyślij kod' }).click();
  await expect(request.getByText('Niepoprawny adres email')).toBeVisible();
  await request.getByLabel(/^Adres e-mail/).fill('tomasz.wisniewski@mleczpol.pl');
  await request.getByRole('button', { name: 'Wyślij kod' }).click();
  await expect(toast(page, /Jeśli podany adres e-mail jest przypisany do konta/)).toBeVisible();

  const mail = await mailTo('tomasz.wisniewski@mleczpol.pl', /kod resetujący: /);
  const code = /kod resetujący: ([A-Z0-9]{10})/.exec(mail.text)![1];
  const set = page.getByRole('dialog', { name: 'Ustaw nowe hasło' });
  await expect(set).toBeVisible();
  await set.getByLabel(/^Login/).fill('manager2');
  await set.getByLabel(/^Kod resetujący/).fill('ZLYKOD1234');
  await set.getByLabel(/^Nowe hasło/).fill('Nowe$Haslo2026');
  await set.getByLabel(/^Powtórz nowe hasło/).fill('Nowe$Haslo2026');
  await set.getByRole('button', { name: 'Ustaw hasło' }).click();
  await expect(set.getByText('Kod resetujący jest nieprawidłowy lub wygasł. Poproś o nowy kod.')).toBeVisible();
  await set.getByLabel(/^Kod resetujący/).fill(code.toLowerCase());
  await expect(set.getByLabel(/^Kod resetujący/)).toHaveValue(code);
  await set.getByRole('button', { name: 'Ustaw hasło' }).click();
  await expect(page.getByText('Twoje hasło w systemie zostało pomyślnie zmienione.')).toBeVisible();
  await page.getByRole('button', { name: 'Ok' }).click();

  await submitLogin(page, { login: 'manager2', password: 'Nowe$Haslo2026', choice: 'Fleet Manager' });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
});

test('/?reset opens the set-password dialog directly', async ({ page }) => {
  await page.goto('/?reset');
  await expect(page.getByRole('dialog', { name: 'Ustaw nowe hasło' })).toBeVisible();
});

test('a signed-in user changes the password on the password page', async ({ page }) => {
  await submitLogin(page, { login: 'manager2', password: 'Nowe$Haslo2026', choice: 'Fleet Manager' });
  await page.getByRole('link', { name: 'Zmiana hasła' }).click();
  await expect(page).toHaveURL(/\/app\/account\/password$/);
  await page.getByLabel(/^Obecne hasło/).fill('Zle-haslo-1');
  await page.getByLabel(/^Nowe hasło/).fill('Kolejne#Haslo88');
  await page.getByLabel(/^Powtórz nowe hasło/).fill('Kolejne#Haslo88');
  await page.getByRole('button', { name: 'Zmień hasło' }).click();
  await expect(page.getByText('Podane obecne hasło jest nieprawidłowe')).toBeVisible();
  await page.getByLabel(/^Obecne hasło/).fill('Nowe$Haslo2026');
  await page.getByRole('button', { name: 'Zmień hasło' }).click();
  await expect(toast(page, 'Zmieniono hasło')).toBeVisible();
});

test('repeated wrong passwords lock the login for a few minutes, with the reason shown', async ({ page }) => {
  // an account no other journey signs in with: the lock holds for this address (every journey's) for minutes
  const advisor = { login: 'doradca3', choice: 'Doradca serwisowy', plate: 'WZ12345', vin: '000123' };
  for (let i = 0; i < 5; i++) {
    await submitLogin(page, { ...advisor, password: `Zgaduje${i}!` });
    await expect(page.getByTestId('login-error')).toHaveText('Błąd logowania: Błędny login lub hasło!');
  }
  await submitLogin(page, { ...advisor, password: 'Haslo123!' });
  await expect(page.getByTestId('login-error')).toHaveText('Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 5 min.');
});

test('a user whose password runs out within the configured days is warned after signing in, and one whose does not is not', async ({ page }) => {
  // the sign-in's answer as the server gives it for an account whose password (pwdDo) ends in three
  // days; the server's side of pwdDo has API tests (tests/api/sign-in*.test.ts)
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  await page.route('**/api/user/auth', async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    body.body.userDetails.pwdDo = soon;
    await route.fulfill({ response, json: body });
  });
  await submitLogin(page, { login: 'manager', password: 'Manager123!', choice: 'Fleet Manager' });
  await expect(page).toHaveURL(/\/app\//);
  await expect(toast(page, 'Twoje hasło wkrótce wygaśnie')).toBeVisible();

  // the same account as it is (valid until 2099), in a tab of its own (signed out, its answers as served): no warning
  const again = await page.context().newPage();
  await submitLogin(again, { login: 'manager', password: 'Manager123!', choice: 'Fleet Manager' });
  await expect(again).toHaveURL(/\/app\//);
  await again.waitForTimeout(1_000);
  await expect(toast(again, 'Twoje hasło wkrótce wygaśnie')).toHaveCount(0);
});
