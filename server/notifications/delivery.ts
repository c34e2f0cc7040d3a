/**
 * Delivering one e-mail notification, at most once (docs/decisions.md "Notifications"):
 *
 * 1. Judge and render for the recipient now (render.ts): a closed account, an event the recipient
 *    switched off, or a record they may no longer see ends as skipped, with the reason's code.
 * 2. Claim, once a connection to the mail server is free (mail-server.ts, `smtpConnections` per
 *    process): one conditional UPDATE moves the row from queued (or failed by the mail server) to
 *    sending; of any number of processes or retried jobs, exactly one finds it still claimable.
 *    Rendering runs `concurrency` at once; only what is about to go on the wire is claimed.
 * 3. No mail server configured: back to queued with NO_SMTP; the sweep puts it on the queue again,
 *    and saving the e-mail configuration does at once. The server unreachable (no connection, 421):
 *    back to queued with SMTP_DOWN, no attempt counted; this process stops trying it and asks every
 *    few seconds whether it is back, then queues every e-mail that waited (mail-server.ts).
 * 4. Send. Accepted: sent. Refused or unreachable: failed with the server's answer, and the job
 *    fails too, so pg-boss retries it with backoff; the next attempt claims the failed row.
 *
 * A process that dies between the SMTP server's acceptance and writing `sent` leaves the row in
 * sending; the sweep marks such a row failed (INTERRUPTED) after the configured time and never
 * sends it again by itself, because it may have arrived. An administrator may send it again.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { isMailConfigured, serverUnreachable } from '../mail/mailer.ts';
import type { MailServer } from './mail-server.ts';
import { eventById, notificationsFile, type Role } from './events.ts';
import { composeMail } from './mail.ts';
import type { Renderers } from './render.ts';
import { effectiveSettings, storedSettings } from './settings.ts';
import { recipientAccount } from './visibility.ts';

/** Reason codes kept in lastError (their texts: locales/pl/notifications.json `reasons`). */
export const REASON = {
  noSmtp: 'NO_SMTP',
  noEmail: 'NO_EMAIL',
  notVisible: 'NOT_VISIBLE',
  accountClosed: 'ACCOUNT_CLOSED',
  eventOff: 'EVENT_OFF',
  interrupted: 'INTERRUPTED',
  smtpDown: 'SMTP_DOWN',
} as const;

/** Thrown when the mail server did not take the message: the job fails and pg-boss retries it. */
export class DeliveryFailed extends Error {}

export interface DeliveryContext {
  app: FastifyInstance;
  renderers: Renderers;
  publicUrl: string;
  root: string;
  /** The SMTP server: its pooled connections, its configuration, whether it is reachable. */
  mail: MailServer;
}

export type DeliveryOutcome = 'sent' | 'skipped' | 'waiting' | 'nothing';

/** A row delivery may take: queued, or failed by the mail server (one a process died sending is never retried by itself). */
const claimable = (eb: ExpressionBuilder<DB, 'notification'>) => eb.or([
  eb('state', '=', 'queued'),
  eb.and([eb('state', '=', 'failed'), eb(sql`coalesce("lastError", '')`, '<>', REASON.interrupted)]),
]);

export async function deliverEmail(context: DeliveryContext, id: number): Promise<DeliveryOutcome> {
  const { app } = context;
  const db = app.db;
  /** Ends a row not (or no longer) claimed by this delivery: only while it is still claimable. */
  const settle = async (state: 'skipped' | 'queued', reason: string) => {
    await db.updateTable('notification').set({ state, lastError: reason, claimedAt: null })
      .where('id', '=', id).where('channel', '=', 'email').where(claimable).execute();
  };
  if (context.mail.down) {
    // the server could not be reached a moment ago: the e-mail waits for it (mail-server.ts), its retries unspent
    return (await settle('queued', REASON.smtpDown), 'waiting');
  }
  // read, judged and rendered before it is claimed: only a message about to go on the wire is
  // `sending`, so a process that dies leaves at most its open connections' messages in doubt
  const row = await db.selectFrom('notification').select(['id', 'event', 'userId', 'entity', 'entityId', 'payload', 'createdAt'])
    .where('id', '=', id).where('channel', '=', 'email').where(claimable).executeTakeFirst();
  if (!row) return 'nothing';

  const recipient = await recipientAccount(db, row.userId);
  if (!recipient) return (await settle('skipped', REASON.accountClosed), 'skipped');
  // rendered in the recipient's variant and his own language (issue 48)
  const variant = app.config.forClient(recipient.session.klientSymbol, recipient.session.language);
  const file = notificationsFile(variant.bundle);
  const event = eventById(file, row.event);
  const role = recipient.session.role as Role;
  if (!event || !event.roles.includes(role)) return (await settle('skipped', REASON.notVisible), 'skipped');
  const settings = effectiveSettings(file, role, (await storedSettings(db, [row.userId])).get(row.userId));
  if (settings.events[event.id] === false) return (await settle('skipped', REASON.eventOff), 'skipped');
  if (!recipient.email) return (await settle('skipped', REASON.noEmail), 'skipped');

  const notification = { ...row, payload: (row.payload ?? {}) as Record<string, unknown> };
  const rendered = await context.renderers.for(event)({ app, event, notification, recipient, variant });
  if (!rendered) return (await settle('skipped', REASON.notVisible), 'skipped');

  const config = await context.mail.config();
  if (!isMailConfigured(config)) return (await settle('queued', REASON.noSmtp), 'waiting');

  const message = await composeMail({
    rendered, notificationId: id, to: recipient.email, bundle: variant.bundle, t: variant.t, file,
    publicUrl: context.publicUrl, root: context.root, language: variant.language.id,
  });
  // a connection to the server (smtpConnections per process), then the claim: one conditional
  // UPDATE, so of any number of processes or retried jobs exactly one sends it
  return context.mail.withConnection(async () => {
    const claimed = await db.updateTable('notification')
      .set((eb) => ({ state: 'sending', claimedAt: new Date(), attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id).where('channel', '=', 'email').where(claimable)
      .returning('id').executeTakeFirst();
    if (!claimed) return 'nothing';
    try {
      await context.mail.pool.send(config, message);
    } catch (error) {
      if (serverUnreachable(error)) {
        // the server, not this message: every e-mail waits until it answers again, none spends a retry
        context.mail.markDown();
        await db.updateTable('notification')
          .set((eb) => ({ state: 'queued', lastError: REASON.smtpDown, claimedAt: null, attempts: eb('attempts', '-', 1) }))
          .where('id', '=', id).where('state', '=', 'sending').execute();
        return 'waiting';
      }
      app.metrics.emails.failed.inc({ kind: 'notification' });
      const reason = `SMTP: ${error instanceof Error ? error.message : String(error)}`.slice(0, 1000);
      await db.updateTable('notification').set({ state: 'failed', lastError: reason, claimedAt: null })
        .where('id', '=', id).where('state', '=', 'sending').execute();
      throw new DeliveryFailed(reason);
    }
    app.metrics.emails.sent.inc({ kind: 'notification' });
    await db.updateTable('notification').set({ state: 'sent', sentAt: new Date(), lastError: null, email: recipient.email })
      .where('id', '=', id).where('state', '=', 'sending').execute();
    return 'sent';
  });
}

/**
 * The e-mails the queue should hold again: those waiting for a mail server (or whose job was
 * lost), oldest first. Rows younger than `settleMs` still have the job their transaction sent.
 * Those waiting for an unreachable server (SMTP_DOWN) are included only when it answers again
 * (`waitingForServer`: 'include'; 'only' takes just them, at once). Also closes the rows a dead
 * process left in sending (INTERRUPTED, never resent by itself).
 */
export async function sweepEmails(app: FastifyInstance, options: { settleMs: number; sendingTimeoutMinutes: number; limit: number; waitingForServer: 'include' | 'exclude' | 'only' }): Promise<number[]> {
  const db = app.db;
  await db.updateTable('notification').set({ state: 'failed', lastError: REASON.interrupted, claimedAt: null })
    .where('state', '=', 'sending').where('channel', '=', 'email')
    .where('claimedAt', '<', sql<Date>`now() - make_interval(mins => ${options.sendingTimeoutMinutes})`)
    .execute();
  let waiting = db.selectFrom('notification').select('id').where('state', '=', 'queued').where('channel', '=', 'email');
  if (options.waitingForServer === 'only') waiting = waiting.where('lastError', '=', REASON.smtpDown);
  else {
    waiting = waiting.where('createdAt', '<', new Date(Date.now() - options.settleMs));
    if (options.waitingForServer === 'exclude') waiting = waiting.where(sql`coalesce("lastError", '')`, '<>', REASON.smtpDown);
  }
  return (await waiting.orderBy('createdAt').orderBy('id').limit(options.limit).execute()).map((r) => r.id);
}

/** Whether some e-mail waits for the SMTP server to answer again. */
export async function waitingForServer(app: FastifyInstance): Promise<boolean> {
  return Boolean(await app.db.selectFrom('notification').select('id')
    .where('state', '=', 'queued').where('channel', '=', 'email').where('lastError', '=', REASON.smtpDown).limit(1).executeTakeFirst());
}
