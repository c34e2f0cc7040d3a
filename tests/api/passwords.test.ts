import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, useTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

const STRONG = 'Zielony#Rower72';

describe('passwords', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    t = await startTestApp();
    smtp = await startTestSmtp();
    await useTestSmtp(t.app.db, smtp);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const signInWith = async (username: string, password: string, extra: Record<string, string> = {}) =>
    t.call('POST', '/api/user/auth', { body: { username, password, role: 'MANAGER', ...extra } });

  describe('policy and strength', () => {
    it.each([
      ['Ab1!', 'Hasło nie może być krótsze niż 8 znaków'],
      ['zielony#rower72', 'Hasło musi zawierać dużych liter przynajmniej: 1'],
      ['ZIELONY#ROWER72', 'Hasło musi zawierać małych liter przynajmniej: 1'],
      ['ZielonyRower72', 'Hasło musi zawierać znaków specjalnych przynajmniej: 1'],
      ['Zielony#Rowerek', 'Hasło musi zawierać cyfr przynajmniej: 1'],
      ['Password1!', 'Hasło jest zbyt łatwe do odgadnięcia. Wybierz silniejsze hasło.'],
    ])('refuses %s with the spec\'s message on the field', async (newPassword, message) => {
      const token = await t.signIn('manager2');
      const res = await t.call('POST', '/api/password/change-password', { token, body: { currentPassword: DEMO.manager2.password, newPassword } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'newPassword', message }]);
      // nothing changed
      expect((await signInWith('manager2', DEMO.manager2.password)).statusCode).toBe(200);
    });

    it('counts a guessable word built from the user\'s own name as weak', async () => {
      const token = await t.signIn('manager2');
      const res = await t.call('POST', '/api/password/change-password', { token, body: { currentPassword: DEMO.manager2.password, newPassword: 'Wisniewski1!' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].message).toMatch(/zbyt łatwe/);
    });

    it('refuses a wrong current password on its field', async () => {
      const token = await t.signIn('manager2');
      const res = await t.call('POST', '/api/password/change-password', { token, body: { currentPassword: 'Inne-haslo1', newPassword: STRONG } });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'currentPassword', message: 'Podane obecne hasło jest nieprawidłowe' }]);
    });
  });

  it('changes the own password, ends the user\'s other sessions but keeps this one, and moves the expiry forward', async () => {
    const other = await t.signIn('manager2');
    const token = await t.signIn('manager2');
    const res = await t.call('POST', '/api/password/change-password', { token, body: { currentPassword: DEMO.manager2.password, newPassword: STRONG } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Zmieniono hasło');
    expect((await t.call('GET', '/api/terms/status', { token })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/terms/status', { token: other })).statusCode).toBe(401);
    expect((await signInWith('manager2', DEMO.manager2.password)).statusCode).toBe(401);
    const signedIn = await signInWith('manager2', STRONG);
    expect(signedIn.statusCode).toBe(200);
    const pwdDo = signedIn.json().body.userDetails.pwdDo;
    expect(pwdDo > new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10)).toBe(true);
    // POST /account is the same change under its spec name
    const again = await t.call('POST', '/api/account', { token, body: { currentPassword: STRONG, newPassword: 'Niebieski%Most45' } });
    expect(again.statusCode).toBe(200);
  });

  it('lets a first-login user set their own password once, then clears the flag', async () => {
    const signIn = await t.call('POST', '/api/user/auth', { body: DEMO.nowyManager });
    const { id_token: token, body } = signIn.json();
    expect(body.userDetails.firstLogin).toBe(true);
    const userId = body.userDetails.id;
    const weak = await t.call('PUT', '/api/users/change-password', { token, body: { userId, password: 'start', firstLogin: true } });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().errors[0].field).toBe('password');
    const ok = await t.call('PUT', '/api/users/change-password', { token, body: { userId, password: STRONG, firstLogin: true } });
    expect(ok.statusCode).toBe(200);
    const after = await signInWith('nowy.manager', STRONG);
    expect(after.json().body.userDetails.firstLogin).toBe(false);
    // once done, the own password is changed with the current one, not through this call
    const twice = await t.call('PUT', '/api/users/change-password', { token, body: { userId, password: 'Niebieski%Most45', firstLogin: true } });
    expect(twice.statusCode).toBe(403);
  });

  it('does not let a user set another user\'s password, but lets an administrator, who makes it temporary', async () => {
    const kierowca = await t.call('POST', '/api/user/auth', { body: DEMO.kierowca });
    const adminToken = await t.signIn('admin');
    const target = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager3').executeTakeFirstOrThrow();
    const refused = await t.call('PUT', '/api/users/change-password', { token: kierowca.json().id_token, body: { userId: target.id, password: STRONG } });
    expect(refused.statusCode).toBe(404);
    const byAdmin = await t.call('PUT', '/api/users/change-password', { token: adminToken, body: { userId: target.id, password: 'Tymczasowe#Haslo31' } });
    expect(byAdmin.statusCode).toBe(200);
    const signedIn = await signInWith('manager3', 'Tymczasowe#Haslo31');
    expect(signedIn.json().body.userDetails.firstLogin).toBe(true);
    expect((await t.call('PUT', '/api/users/change-password', { body: { userId: target.id, password: STRONG } })).statusCode).toBe(401);
  });

  describe('forgotten password', () => {
    it('mails a single-use code through the configured SMTP server; the code sets a new password once', async () => {
      const email = 'tomasz.wisniewski@mleczpol.pl';
      const sent = await t.call('POST', '/api/password/reset-password', { body: { email: email.toUpperCase() } });
      expect(sent.statusCode).toBe(200);
      expect(sent.json().message).toMatch(/^Jeśli podany adres e-mail/);
      const mail = await smtp.nextMail();
      expect(mail.to).toEqual([email]);
      expect(mail.from).toBe('portal@partnercfm.pl');
      expect(mail.subject).toBe('Partner CFM: kod do ustawienia nowego hasła');
      const code = /kod resetujący: ([A-Z0-9]{10})/.exec(mail.text)?.[1];
      expect(code, mail.text).toBeTruthy();
      expect(mail.text).toContain('Login: manager2');
      expect(mail.text).toMatch(/\/\?reset/);

      const session = (await signInWith('manager2', STRONG)).json().id_token;
      const weak = await t.call('PUT', '/api/password/change-forgotten-password', { body: { username: 'manager2', resetToken: code, newPassword: 'krotkie' } });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().errors[0].field).toBe('newPassword');
      const done = await t.call('PUT', '/api/password/change-forgotten-password', { body: { username: 'Manager2', resetToken: code!.toLowerCase(), newPassword: 'Nowe$Haslo2026' } });
      expect(done.statusCode).toBe(200);
      expect(done.json().message).toBe('Twoje hasło w systemie zostało pomyślnie zmienione.');
      expect((await signInWith('manager2', 'Nowe$Haslo2026')).statusCode).toBe(200);
      // every earlier session has ended; the code is spent
      expect((await t.call('GET', '/api/terms/status', { token: session })).statusCode).toBe(401);
      const reused = await t.call('PUT', '/api/password/change-forgotten-password', { body: { username: 'manager2', resetToken: code, newPassword: 'Inne$Haslo2027' } });
      expect(reused.statusCode).toBe(400);
      expect(reused.json().errors).toEqual([{ field: 'resetToken', message: 'Kod resetujący jest nieprawidłowy lub wygasł. Poproś o nowy kod.' }]);
    });

    it('answers an unknown address with the same neutral message and sends nothing', async () => {
      const before = smtp.received.length;
      const res = await t.call('POST', '/api/password/reset-password', { body: { email: 'nikt@example.com' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().message).toMatch(/^Jeśli podany adres e-mail/);
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.received.length).toBe(before);
    });

    it('spends a code after too many wrong tries, and refuses an expired one', async () => {
      await t.call('POST', '/api/password/reset-password', { body: { email: 'ewa.kaczmarek@agrotech.pl' } });
      const code = /kod resetujący: ([A-Z0-9]{10})/.exec((await smtp.nextMail()).text)![1];
      for (let i = 0; i < 5; i++) {
        const wrong = await t.call('PUT', '/api/password/change-forgotten-password', { body: { username: 'manager3', resetToken: 'AAAAAAAAAA', newPassword: STRONG } });
        expect(wrong.statusCode).toBe(400);
      }
      const late = await t.call('PUT', '/api/password/change-forgotten-password', { body: { username: 'manager3', resetToken: code, newPassword: STRONG } });
      expect(late.statusCode).toBe(400);

      await t.call('POST', '/api/password/reset-password', { body: { email: 'ewa.kaczmarek@agrotech.pl' } });
      const fresh = /kod resetujący: ([A-Z0-9]{10})/.exec((await smtp.nextMail()).text)![1];
      await t.app.db.updateTable('password_reset').set({ expiresAt: new Date(Date.now() - 1000) }).execute();
      const expired = await t.call('PUT', '/api/password/change-forgotten-password', { body: { username: 'manager3', resetToken: fresh, newPassword: STRONG } });
      expect(expired.statusCode).toBe(400);
    });

    it('validates the e-mail with the spec\'s messages', async () => {
      const empty = await t.call('POST', '/api/password/reset-password', { body: { email: '' } });
      expect(empty.json().errors).toEqual([{ field: 'email', message: 'Pole nie może być puste' }]);
      const bad = await t.call('POST', '/api/password/reset-password', { body: { email: 'nie-adres' } });
      expect(bad.json().errors).toEqual([{ field: 'email', message: 'Niepoprawny adres email' }]);
    });

    it('reports the spec\'s failure when the mail server refuses, and when no mail server is configured', async () => {
      smtp.refuseAll(true);
      try {
        const res = await t.call('POST', '/api/password/reset-password', { body: { email: 'anna.nowak@transbud.pl' } });
        expect(res.statusCode).toBe(503);
        expect(res.json().detail).toBe('Wystąpił problem podczas wysyłania kodu resetującego hasło. Skontaktuj się z administratorem systemu.');
        // the code of the failed message was not kept
        const manager = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
        expect(await t.app.db.selectFrom('password_reset').selectAll().where('userId', '=', manager.id).execute()).toEqual([]);
      } finally {
        smtp.refuseAll(false);
      }
      await t.app.db.updateTable('email_config').set({ smtpHost: null }).execute();
      try {
        const res = await t.call('POST', '/api/password/reset-password', { body: { email: 'nikt@example.com' } });
        expect(res.statusCode).toBe(503);
      } finally {
        await useTestSmtp(t.app.db, smtp);
      }
    });
  });
});
