/**
 * The administrator's e-mail configuration (spec §2 "E-mail configuration", §7 "E-mail
 * settings"): the SMTP server every mail of the portal goes through (reset codes). The stored
 * password never leaves the server: GET answers a mask, and the mask sent back keeps it.
 */
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';
import { actorOf } from '../audit/index.ts';
import { transportFor, type EmailConfig } from '../mail/mailer.ts';

export const PASSWORD_MASK = '********';

type Body = Omit<EmailConfig, 'smtpHost' | 'smtpUser' | 'smtpPassword' | 'smtpEmail'> & { smtpHost: string; smtpUser: string; smtpPassword: string; smtpEmail: string };
type TestResult = 'OK' | 'WRONG_HOST' | 'WRONG_PORT' | 'WRONG_PASSWORD' | 'WRONG_USERNAME' | 'UNKNOWN_ERROR';

/** What nodemailer's errors (and the system errors they wrap) may carry. */
interface MailError { code?: unknown; errno?: unknown; cause?: { code?: unknown } | null; message?: unknown; responseCode?: unknown }

/** nodemailer's error codes, as the spec's test results. */
export function testResultOf(thrown: unknown): TestResult {
  const error: MailError | undefined = typeof thrown === 'object' && thrown !== null ? thrown : undefined;
  const code = String(error?.code ?? '');
  // nodemailer wraps the system error; its text names it (ECONNREFUSED, ENOTFOUND …)
  const reason = [code, error?.errno, error?.cause?.code, error?.message].join(' ');
  if (code === 'EDNS' || /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/.test(reason)) return 'WRONG_HOST';
  if (['ETIMEDOUT', 'ESOCKET', 'ETLS', 'EPROTOCOL', 'ECONNECTION'].includes(code)) return 'WRONG_PORT';
  if (code === 'EAUTH') return error?.responseCode === 535 ? 'WRONG_PASSWORD' : 'WRONG_USERNAME';
  if (code === 'EENVELOPE') return 'WRONG_USERNAME';
  return 'UNKNOWN_ERROR';
}

export default async function emailSettingsRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'settings', action, summary });
  const admin = { roles: ['ADMIN' as const] };
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  /**
   * The body with the mask replaced by the stored password. The stored password goes only to the
   * server it was saved for: with another host, port, user or encryption the mask is refused
   * (400 on smtpPassword) and the password must be typed again. Otherwise "Testuj" (or saving,
   * then testing) against a server of one's own would hand the stored password to that server.
   */
  const resolve = async (body: Body): Promise<EmailConfig> => {
    if (body.smtpPassword !== PASSWORD_MASK) return body;
    const stored = await app.settings.emailConfig();
    const same = (a: unknown, b: unknown) => String(a ?? '').trim().toLowerCase() === String(b ?? '').trim().toLowerCase();
    const sameServer = stored && same(stored.smtpHost, body.smtpHost) && Number(stored.smtpPort) === Number(body.smtpPort)
      && same(stored.smtpUser, body.smtpUser) && stored.smtpSsl === body.smtpSsl;
    if (stored?.smtpPassword && !sameServer) {
      const message = t('email:errors.passwordForOtherServer');
      throw new HttpError(400, message, { code: 'VALIDATION', errors: [{ field: 'smtpPassword', message }] });
    }
    return { ...body, smtpPassword: stored?.smtpPassword ?? null };
  };

  app.get('/api/settings/email', {
    config: { access: admin, operation: op('emailGet', 'The e-mail (SMTP) configuration, its password masked') },
    schema: { response: { 200: { $ref: 'email-config-current#' } } },
    handler: async () => {
      const c = await app.settings.emailConfig();
      return {
        smtpHost: c?.smtpHost ?? '',
        smtpPort: c?.smtpPort ?? 25,
        smtpUser: c?.smtpUser ?? '',
        smtpPassword: c?.smtpPassword ? PASSWORD_MASK : '',
        smtpEmail: c?.smtpEmail ?? '',
        smtpSsl: c?.smtpSsl ?? 'OFF',
      };
    },
  });

  app.put<{ Body: Body }>('/api/settings/email', {
    config: { access: admin, operation: op('emailSave', 'Save the e-mail (SMTP) configuration') },
    schema: { body: { $ref: 'email-config#' }, response: { 200: { $ref: 'message-response#' } } },
    handler: async (request) => {
      const c = await resolve(request.body);
      await app.settings.saveEmailConfigWithTrail(actorOf(request), c);
      // e-mails that waited for a mail server go on the queue now, not at the next sweep (issue 25)
      await app.notifications.sweep(true).catch((error) => request.log.warn({ err: error }, 'notifications waiting for SMTP not re-queued'));
      return { message: t('email:saved') };
    },
  });

  app.post<{ Body: Body }>('/api/settings/email/test', {
    config: { access: admin, operation: op('emailTest', 'Send a test message with the given e-mail settings') },
    schema: {
      description: 'Sends a test message to the sender address with the given (not yet saved) settings. The password mask stands for the ' +
        'stored password only while host, port, user and encryption are the saved ones; otherwise 400 on smtpPassword.',
      body: { $ref: 'email-config#' },
      response: { 200: { $ref: 'email-test-result#' } },
    },
    handler: async (request) => {
      const c = await resolve(request.body);
      const transport = transportFor(c);
      try {
        await transport.sendMail({ from: c.smtpEmail!, to: c.smtpEmail!, subject: t('email:testSubject'), text: t('email:testText') });
        return { result: 'OK', message: t('email:test.OK', { email: c.smtpEmail }) };
      } catch (error) {
        const result = testResultOf(error);
        request.log.warn({ err: error, result }, 'e-mail test failed');
        return { result, message: t(`email:test.${result}`) };
      } finally {
        transport.close();
      }
    },
  });
}
