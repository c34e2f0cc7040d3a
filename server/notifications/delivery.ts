/**
 * Delivering one e-mail notification, at most once (docs/decisions.md "Notifications"):
 *
 * 1. Claim: one conditional UPDATE moves the row from queued (or failed by the mail server) to
 *    sending; of any number of processes or retried jobs, exactly one finds it still claimable.
 * 2. Judge and render for the recipient now (render.ts): a closed account, an event the recipient
 *    switched off, or a record they may no longer see ends as skipped, with the reason's code.
 * 3. No mail server configured: back to queued with NO_SMTP; the sweep puts it on the queue again,
 *    and saving the e-mail configuration does at once.
 * 4. Send. Accepted: sent. Refused or unreachable: failed with the server's answer, and the job
 *    fails too, so pg-boss retries it with backoff; the next attempt claims the failed row.
 *
 * A process that dies between the SMTP server's acceptance and writing `sent` leaves the row in
 * sending; the sweep marks such a row failed (INTERRUPTED) after the configured time and never
 * sends it again by itself, because it may have arrived. An administrator may send it again.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { isMailConfigured, readEmailConfig, sendMail } from '../mail/mailer.ts';
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
} as const;

/** Thrown when the mail server did not take the message: the job fails and pg-boss retries it. */
export class DeliveryFailed extends Error {}

export interface DeliveryContext {
  app: FastifyInstance;
  renderers: Renderers;
  publicUrl: string;
  root: string;
}

export type DeliveryOutcome = 'sent' | 'skipped' | 'waiting' | 'nothing';

export async function deliverEmail(context: DeliveryContext, id: number): Promise<DeliveryOutcome> {
  const { app } = context;
  const db = app.db;
  const claimed = await db.updateTable('notification')
    .set((eb) => ({ state: 'sending', claimedAt: new Date(), attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id).where('channel', '=', 'email')
    .where((eb) => eb.or([
      eb('state', '=', 'queued'),
      // failed by the mail server: retried; failed because a process died while sending: never by itself
      eb.and([eb('state', '=', 'failed'), eb(sql`coalesce("lastError", '')`, '<>', REASON.interrupted)]),
    ]))
    .returning(['id', 'event', 'userId', 'entity', 'entityId', 'payload', 'createdAt'])
    .executeTakeFirst();
  if (!claimed) return 'nothing';

  const finish = async (state: 'skipped' | 'queued', reason: string, countAttempt = false) => {
    await db.updateTable('notification')
      .set((eb) => ({ state, lastError: reason, claimedAt: null, ...(countAttempt ? {} : { attempts: eb('attempts', '-', 1) }) }))
      .where('id', '=', id).where('state', '=', 'sending').execute();
  };

  const recipient = await recipientAccount(db, claimed.userId);
  if (!recipient) return (await finish('skipped', REASON.accountClosed), 'skipped');
  const variant = app.config.forClient(recipient.session.klientSymbol);
  const file = notificationsFile(variant.bundle);
  const event = eventById(file, claimed.event);
  const role = recipient.session.role as Role;
  if (!event || !event.roles.includes(role)) return (await finish('skipped', REASON.notVisible), 'skipped');
  const settings = effectiveSettings(file, role, (await storedSettings(db, [claimed.userId])).get(claimed.userId));
  if (settings.events[event.id] === false) return (await finish('skipped', REASON.eventOff), 'skipped');
  if (!recipient.email) return (await finish('skipped', REASON.noEmail), 'skipped');

  const notification = { ...claimed, payload: (claimed.payload ?? {}) as Record<string, unknown> };
  const rendered = await context.renderers.for(event)({ app, event, notification, recipient, variant });
  if (!rendered) return (await finish('skipped', REASON.notVisible), 'skipped');

  const config = await readEmailConfig(db);
  if (!isMailConfigured(config)) return (await finish('queued', REASON.noSmtp), 'waiting');

  const message = await composeMail({
    rendered, notificationId: id, to: recipient.email, bundle: variant.bundle, t: variant.t, file,
    publicUrl: context.publicUrl, root: context.root,
  });
  try {
    await sendMail(db, message);
  } catch (error) {
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
}

/**
 * The e-mails the queue should hold again: those waiting for a mail server (or whose job was
 * lost), oldest first. Rows younger than `settleMs` still have the job their transaction sent.
 * Also closes the rows a dead process left in sending (INTERRUPTED, never resent by itself).
 */
export async function sweepEmails(app: FastifyInstance, options: { settleMs: number; sendingTimeoutMinutes: number; limit: number }): Promise<number[]> {
  const db = app.db;
  await db.updateTable('notification').set({ state: 'failed', lastError: REASON.interrupted, claimedAt: null })
    .where('state', '=', 'sending').where('channel', '=', 'email')
    .where('claimedAt', '<', sql<Date>`now() - make_interval(mins => ${options.sendingTimeoutMinutes})`)
    .execute();
  const waiting = await db.selectFrom('notification').select('id')
    .where('state', '=', 'queued').where('channel', '=', 'email')
    .where('createdAt', '<', new Date(Date.now() - options.settleMs))
    .orderBy('createdAt').orderBy('id').limit(options.limit).execute();
  return waiting.map((r) => r.id);
}
