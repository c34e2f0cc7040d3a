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

/** How the configured server is reached (host, TLS, login, time-outs): one definition for a single connection and the pool. */
function connectionOf(config: EmailConfig) {
  return {
    host: config.smtpHost!,
    port: config.smtpPort,
    secure: config.smtpSsl === 'SSL',
    requireTLS: config.smtpSsl === 'STARTTLS',
    ignoreTLS: config.smtpSsl === 'OFF',
    auth: config.smtpUser ? { user: config.smtpUser, pass: config.smtpPassword ?? '' } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  };
}

/** One connection to the configured server (a test message, the probe while it is down). */
export function transportFor(config: EmailConfig) {
  return nodemailer.createTransport(connectionOf(config));
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
  /** Files attached to the message (a subscribed report's xlsx or PDF, issue 46). */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** The message as nodemailer takes it, from the configured sender. */
function envelopeOf(config: EmailConfig & { smtpEmail: string }, message: Message) {
  return {
    from: message.fromName ? { name: message.fromName, address: config.smtpEmail } : config.smtpEmail,
    to: message.to, subject: message.subject, text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.messageId ? { messageId: message.messageId } : {}),
    ...(message.inline?.length || message.attachments?.length ? {
      attachments: [
        ...(message.inline ?? []).map((a) => ({ ...a, contentDisposition: 'inline' as const })),
        ...(message.attachments ?? []).map((a) => ({ ...a, contentDisposition: 'attachment' as const })),
      ],
    } : {}),
  };
}

/**
 * Pooled connections to the configured SMTP server, for the notifications' worker (issue 35,
 * "faster deliveries"): a message goes over a connection already open (no TCP, greeting, TLS and
 * AUTH per message), at most `maxConnections` at once to the server — messages beyond that wait in
 * the pool's own queue —, each connection reused for up to `maxMessages` messages. One pool per
 * server configuration: a changed configuration (another host, password …) gets a new pool and the
 * old one is closed once its messages are through.
 */
export class MailPool {
  #key: string | undefined;
  #transport: ReturnType<typeof nodemailer.createTransport> | undefined;

  constructor(private readonly maxConnections: () => number) {}

  #transportFor(config: EmailConfig) {
    const connections = this.maxConnections();
    const key = JSON.stringify([config.smtpHost, config.smtpPort, config.smtpUser, config.smtpPassword, config.smtpSsl, connections]);
    if (key !== this.#key || !this.#transport) {
      const old = this.#transport;
      // the old pool's messages in flight finish; it then has nothing to reuse its connections for
      if (old) setTimeout(() => old.close(), 30_000).unref();
      this.#key = key;
      this.#transport = nodemailer.createTransport({ ...connectionOf(config), pool: true, maxConnections: connections, maxMessages: 1_000 });
    }
    return this.#transport;
  }

  /** Sends one message over the pool; throws nodemailer's error when the server refuses or cannot be reached. */
  async send(config: EmailConfig & { smtpEmail: string }, message: Message): Promise<void> {
    await this.#transportFor(config).sendMail(envelopeOf(config, message));
  }

  /** Whether the server answers (connects, greets, takes the login): the probe while it is down. */
  async reachable(config: EmailConfig): Promise<boolean> {
    const probe = transportFor(config);
    try {
      await probe.verify();
      return true;
    } catch {
      return false;
    } finally {
      probe.close();
    }
  }

  close(): void {
    this.#transport?.close();
    this.#transport = undefined;
    this.#key = undefined;
  }
}

/**
 * A failure of the server as a whole rather than of this message: no connection (refused, timed
 * out, DNS), a broken one, or 421 "service not available". Messages then wait for the server to
 * come back instead of spending their retries (server/notifications/delivery.ts).
 */
export function serverUnreachable(error: unknown): boolean {
  const e = error as { code?: string; responseCode?: number };
  if (e?.responseCode === 421) return true;
  if (e?.responseCode) return false;
  return ['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNREFUSED', 'ECONNRESET', 'EPROTOCOL'].includes(String(e?.code));
}

/** Sends one message; throws MailNotConfiguredError, or nodemailer's error when the server refuses. */
export async function sendMail(db: Kysely<DB>, message: Message): Promise<void> {
  const config = await readEmailConfig(db);
  if (!isMailConfigured(config)) throw new MailNotConfiguredError();
  const transport = transportFor(config);
  try {
    await transport.sendMail(envelopeOf(config, message));
  } finally {
    transport.close();
  }
}
