import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('e-mail configuration', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp();
    smtp = await startTestSmtp();
    admin = await t.signIn('admin');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const settings = () => ({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'portal', smtpPassword: 'Tajne-haslo-1', smtpEmail: 'portal@partnercfm.pl', smtpSsl: 'OFF' });

  it('starts empty, saves, and never shows the stored password again', async () => {
    const empty = await t.call('GET', '/api/settings/email', { token: admin });
    expect(empty.json()).toEqual({ smtpHost: '', smtpPort: 25, smtpUser: '', smtpPassword: '', smtpEmail: '', smtpSsl: 'OFF' });
    const saved = await t.call('PUT', '/api/settings/email', { token: admin, body: settings() });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe('Zapisano konfigurację');
    const read = (await t.call('GET', '/api/settings/email', { token: admin })).json();
    expect(read).toMatchObject({ smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpPassword: '********' });
    // saving the mask back keeps the stored password
    await t.call('PUT', '/api/settings/email', { token: admin, body: { ...read, smtpEmail: 'flota@partnercfm.pl' } });
    const row = await t.app.db.selectFrom('email_config').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ smtpEmail: 'flota@partnercfm.pl', smtpPassword: 'Tajne-haslo-1' });
    await t.call('PUT', '/api/settings/email', { token: admin, body: settings() });
  });

  describe('the stored password goes only to the saved server', () => {
    const masked = () => ({ ...settings(), smtpPassword: '********' });
    const retype = { field: 'smtpPassword', message: 'Podaj hasło ponownie: zmieniono serwer, port, użytkownika lub szyfrowanie' };

    it('tests the saved server with the stored password when the mask is sent back', async () => {
      await t.call('PUT', '/api/settings/email', { token: admin, body: settings() });
      const ok = await t.call('POST', '/api/settings/email/test', { token: admin, body: masked() });
      expect(ok.json().result).toBe('OK');
      expect(smtp.logins.at(-1)).toEqual({ username: 'portal', password: 'Tajne-haslo-1' });
    });

    it('refuses the mask for another host, port, user or encryption, naming the password field, and sends nothing', async () => {
      const other = await startTestSmtp();
      try {
        for (const change of [{ smtpHost: 'localhost' }, { smtpPort: other.port }, { smtpUser: 'ktos' }, { smtpSsl: 'STARTTLS' }]) {
          const res = await t.call('POST', '/api/settings/email/test', { token: admin, body: { ...masked(), ...change } });
          expect(res.statusCode, JSON.stringify(change)).toBe(400);
          expect(res.json().errors).toEqual([retype]);
        }
        // nor can it be saved for another server and then tested there
        const saved = await t.call('PUT', '/api/settings/email', { token: admin, body: { ...masked(), smtpPort: other.port } });
        expect(saved.statusCode).toBe(400);
        expect(saved.json().errors).toEqual([retype]);
        expect((await t.app.db.selectFrom('email_config').select('smtpPort').executeTakeFirstOrThrow()).smtpPort).toBe(smtp.port);
        expect(other.logins).toEqual([]);
        // with the password typed again the other server is tested
        const typed = await t.call('POST', '/api/settings/email/test', { token: admin, body: { ...settings(), smtpPort: other.port, smtpPassword: 'Inne-haslo-2' } });
        expect(typed.json().result).toBe('OK');
        expect(other.logins).toEqual([{ username: 'portal', password: 'Inne-haslo-2' }]);
      } finally {
        await other.close();
      }
    });
  });

  it('validates every field with the spec\'s messages', async () => {
    const res = await t.call('PUT', '/api/settings/email', { token: admin, body: { ...settings(), smtpHost: '', smtpEmail: 'nie-adres', smtpPort: 70000, smtpSsl: 'TLS' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual(expect.arrayContaining([
      { field: 'smtpHost', message: 'Pole nie może być puste' },
      { field: 'smtpEmail', message: 'Niepoprawny adres email' },
      { field: 'smtpPort', message: 'Pole musi być mniejsze równe 65535' },
    ]));
  });

  it('sends a test message through the given server and names the address; a wrong server is named as such', async () => {
    const ok = await t.call('POST', '/api/settings/email/test', { token: admin, body: settings() });
    expect(ok.json()).toEqual({ result: 'OK', message: 'Wiadomość testowa została wysłana na adres portal@partnercfm.pl' });
    const mail = await smtp.nextMail();
    expect(mail.to).toEqual(['portal@partnercfm.pl']);
    const closedPort = await t.call('POST', '/api/settings/email/test', { token: admin, body: { ...settings(), smtpPort: 1 } });
    expect(closedPort.json()).toEqual({ result: 'WRONG_HOST', message: 'Nieprawidłowy serwer poczty lub port' });
  });

  it('is for the administrator only', async () => {
    for (const account of ['manager', 'kierowca', 'doradca'] as const) {
      const token = await t.signIn(account);
      expect((await t.call('GET', '/api/settings/email', { token })).statusCode, account).toBe(403);
      expect((await t.call('PUT', '/api/settings/email', { token, body: settings() })).statusCode, account).toBe(403);
      expect((await t.call('POST', '/api/settings/email/test', { token, body: settings() })).statusCode, account).toBe(403);
    }
    expect((await t.call('GET', '/api/settings/email')).statusCode).toBe(401);
  });
});
