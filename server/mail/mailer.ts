/**
 * Outgoing mail through the SMTP server of the e-mail configuration (table email_config, spec §3
 * "E-mail config"; set by an administrator on /app/email-config). nodemailer speaks SMTP; the
 * encryption mode maps as: OFF → plain (no STARTTLS even if offered), SSL → implicit TLS,
 * STARTTLS → upgrade required.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import nodemailer from 'nodemailer';

export interface EmailConfig {
  smtpHost: string | null;
  smtpPort: number;
  smtpUser: string | null;
  smtpPassword: string | null;
  smtpEmail: string | null;
  smtpSsl: 'OFF' | 'SSL' | 'STARTTLS';
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('the e-mail configuration has no SMTP host or sender address');
  }
}

export async function readEmailConfig(db: Kysely<DB>): Promise<EmailConfig | null> {
  const row = await db.selectFrom('email_config')
    .select(['smtpHost', 'smtpPort', 'smtpUser', 'smtpPassword', 'smtpEmail', 'smtpSsl'])
    .where('id', '=', 1).executeTakeFirst();
  return (row as EmailConfig | undefined) ?? null;
}

/** Whether mail can be sent at all (an initialization warning of spec §8 when not). */
export const isMailConfigured = (config: EmailConfig | null): config is EmailConfig & { smtpHost: string; smtpEmail: string } =>
  Boolean(config?.smtpHost && config.smtpEmail);

export function transportFor(config: EmailConfig) {
  return nodemailer.createTransport({
    host: config.smtpHost!,
    port: config.smtpPort,
    secure: config.smtpSsl === 'SSL',
    requireTLS: config.smtpSsl === 'STARTTLS',
    ignoreTLS: config.smtpSsl === 'OFF',
    auth: config.smtpUser ? { user: config.smtpUser, pass: config.smtpPassword ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
}

export interface Message {
  to: string;
  subject: string;
  text: string;
  /** An HTML part beside the text (notifications, issue 25). */
  html?: string;
  /** The sender's display name beside the configured address (the variant's name). */
  fromName?: string;
  /** Message-ID with its angle brackets; nodemailer makes one when absent. */
  messageId?: string;
  /** Inline images of the HTML part, referred to as cid:<cid>. */
  inline?: { filename: string; content: Buffer; contentType: string; cid: string }[];
}

/** Sends one message; throws MailNotConfiguredError, or nodemailer's error when the server refuses. */
export async function sendMail(db: Kysely<DB>, message: Message): Promise<void> {
  const config = await readEmailConfig(db);
  if (!isMailConfigured(config)) throw new MailNotConfiguredError();
  const transport = transportFor(config);
  try {
    await transport.sendMail({
      from: message.fromName ? { name: message.fromName, address: config.smtpEmail } : config.smtpEmail,
      to: message.to, subject: message.subject, text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.messageId ? { messageId: message.messageId } : {}),
      ...(message.inline?.length ? { attachments: message.inline.map((a) => ({ ...a, contentDisposition: 'inline' as const })) } : {}),
    });
  } finally {
    transport.close();
  }
}
