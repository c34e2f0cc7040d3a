/**
 * A real SMTP server inside the test (smtp-server): the portal's nodemailer delivers to it over
 * TCP, and the test reads what arrived. Plain SMTP on 127.0.0.1 with any credentials accepted,
 * which is what the e-mail configuration's "OFF" encryption mode means.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { DB } from '../../server/db/types.generated.ts';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as sent (headers and body). */
  raw: string;
  /** The text body, decoded from quoted-printable or base64. */
  text: string;
  subject: string;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  /** The user names and passwords clients signed in with (AUTH), in order. */
  logins: { username: string; password: string }[];
  /** The next message to arrive (or the first one not yet taken). */
  nextMail(timeoutMs?: number): Promise<ReceivedMail>;
  /** Refuse every message from now on (a mail server that is down for the portal). */
  refuseAll(refuse: boolean): void;
  /** A slow mail server: each message is taken in whole, then answered after `ms` (0: at once). */
  answerAfter(ms: number): void;
  /**
   * Answer the next `after` messages, then hold every answer (the message taken in whole, the
   * sender left waiting for the server's reply) until release(): the moment to kill a sender.
   */
  hold(after?: number): void;
  release(): void;
  /** The messages taken in and not answered yet (held or slow), in order. */
  awaitingAnswer(): ReceivedMail[];
  /** The messages whose sender hung up before the answer: taken in, never answered (not in `received`). */
  cut: ReceivedMail[];
  /** The most messages ever waiting for their answer at once (more than one sender's concurrency: several senders). */
  maxAwaitingAnswer(): number;
  close(): Promise<void>;
}

function decodeQuotedPrintable(s: string): string {
  const bytes: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9A-F]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i], 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeHeader(value: string): string {
  // RFC 2047: white space between two encoded words is not part of the text
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(data, 'base64').toString('utf8') : decodeQuotedPrintable(data.replace(/_/g, ' ')));
}

export function parseMail(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headerText = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(headerText)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const text = encoding === 'quoted-printable' ? decodeQuotedPrintable(body)
    : encoding === 'base64' ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8') : body;
  return { from, to, raw, text: text.replace(/\r\n/g, '\n'), subject: decodeHeader(header('Subject')) };
}

export async function startTestSmtp(port = 0): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const logins: TestSmtp['logins'] = [];
  const waiting: ((m: ReceivedMail) => void)[] = [];
  let taken = 0;
  let refusing = false;
  let delayMs = 0;
  let takenIn = 0; // messages taken in whole, in order of arrival
  let holdFrom = Infinity; // the first one (by that order) whose answer is held
  let maxAwaiting = 0;
  const cut: ReceivedMail[] = [];
  const held: (() => void)[] = [];
  const awaiting = new Map<object, { sessionId: string; mail: ReceivedMail }>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => {
      logins.push({ username: String(auth.username), password: String(auth.password) });
      callback(null, { user: 'portal' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (refusing) return callback(new Error('Mailbox unavailable'));
        const mail = parseMail(Buffer.concat(chunks).toString('utf8'), String(session.envelope.mailFrom && session.envelope.mailFrom.address),
          session.envelope.rcptTo.map((r) => r.address));
        const key = {};
        const answer = () => {
          if (!awaiting.delete(key)) return; // the sender hung up meanwhile: counted in `cut`
          received.push(mail);
          waiting.shift()?.(mail);
          callback();
        };
        awaiting.set(key, { sessionId: session.id, mail });
        maxAwaiting = Math.max(maxAwaiting, awaiting.size);
        if (takenIn++ >= holdFrom) held.push(answer);
        else if (delayMs > 0) setTimeout(answer, delayMs);
        else answer();
      });
    },
    onClose(session) {
      for (const [key, entry] of awaiting) {
        if (entry.sessionId !== session.id) continue;
        awaiting.delete(key);
        cut.push(entry.mail);
      }
    },
  });
  // a sender killed in the middle of a message resets its connection: smtp-server reports that as
  // an 'error' event, which without a listener would be thrown in the test's process (onClose above
  // counts what it cut)
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    logins,
    nextMail(timeoutMs = 15_000) {
      if (taken < received.length) return Promise.resolve(received[taken++]);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no e-mail arrived at the test SMTP server')), timeoutMs);
        waiting.push((m) => {
          clearTimeout(timer);
          taken++;
          resolve(m);
        });
      });
    },
    refuseAll(refuse) {
      refusing = refuse;
    },
    answerAfter(ms) {
      delayMs = ms;
    },
    hold(after = 0) {
      holdFrom = takenIn + after;
    },
    release() {
      holdFrom = Infinity;
      for (const answer of held.splice(0)) answer();
    },
    awaitingAnswer: () => [...awaiting.values()].map((e) => e.mail),
    cut,
    maxAwaitingAnswer: () => maxAwaiting,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Points the portal's e-mail configuration at the test server. */
export async function useTestSmtp(db: import('kysely').Kysely<DB>, smtp: TestSmtp): Promise<void> {
  await db.updateTable('email_config').set({
    smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'portal', smtpPassword: 'smtp-haslo', smtpEmail: 'portal@partnercfm.pl', smtpSsl: 'OFF',
  }).where('id', '=', 1).execute();
}

/** The decoded text and HTML parts of a multipart/alternative message. */
export function partsOf(mail: ReceivedMail): { text: string; html: string } {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(mail.raw)?.[1] ?? '';
  const parts = mail.raw.split(`--${boundary}`).slice(1, -1).map((p) => parseMail(p.replace(/^\r?\n/, ''), mail.from, mail.to));
  const of = (type: string) => parts.find((p) => new RegExp(`^Content-Type: ${type}`, 'im').test(p.raw))?.text ?? '';
  return { text: of('text/plain'), html: of('text/html') };
}

