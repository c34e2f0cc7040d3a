/**
 * Delivering one push notification row (one recipient's device), at most once, as an e-mail is
 * delivered (server/notifications/delivery.ts):
 *
 * 1. Judge and render for the recipient now, in his variant and language: a closed account, an
 *    event switched off, a record out of his sight, a device removed meanwhile end as skipped with
 *    the reason's code.
 * 2. Claim: one conditional UPDATE moves the row from queued (or failed by the push service) to
 *    sending; of any number of processes or retried jobs, exactly one finds it claimable. So an
 *    order accepted reaches each of the driver's devices once, however often its job runs.
 * 3. Send (send.ts). Taken: sent, and the device's last success. Gone (404/410): the device is
 *    deleted and the row skipped (DEVICE_GONE). Refused for a passing reason (429, 5xx, no
 *    answer): failed, and the job fails so that pg-boss retries it with backoff; refused for good
 *    (another 4xx, an address not allowed): failed, not retried.
 *
 * A process that dies between the push service's answer and writing `sent` leaves the row in
 * sending; the sweep marks it failed (INTERRUPTED) and never sends it again by itself.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type ExpressionBuilder } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { AllowedHosts } from '../webhooks/address.ts';
import { DeliveryFailed, REASON } from '../notifications/delivery.ts';
import { eventById, notificationsFile, type Role } from '../notifications/events.ts';
import type { Renderers } from '../notifications/render.ts';
import { effectiveSettings, storedSettings } from '../notifications/settings.ts';
import { recipientAccount } from '../notifications/visibility.ts';
import type { VapidKeys } from './keys.ts';
import { sendPush, type PushPayload } from './send.ts';

/** Reason codes of push rows (texts: locales/<lang>/notifications.json `reasons`). */
export const PUSH_REASON = {
  /** The device was removed (or never was) before the message went. */
  noDevice: 'NO_DEVICE',
  /** The push service says the subscription is gone (404, 410): the device is removed. */
  deviceGone: 'DEVICE_GONE',
} as const;

export interface PushContext {
  app: FastifyInstance;
  renderers: Renderers;
  keys: () => Promise<VapidKeys>;
  allowed: AllowedHosts;
}

const claimable = (eb: ExpressionBuilder<DB, 'notification'>) => eb.or([
  eb('state', '=', 'queued'),
  eb.and([eb('state', '=', 'failed'), eb(sql`coalesce("lastError", '')`, '<>', REASON.interrupted)]),
]);

/** The path a tap opens: the rendered link, else the portal's start. */
export function pathOf(link: string | null): string {
  return link && link.startsWith('/') && !link.startsWith('//') ? link : '/app';
}

export async function deliverPush(context: PushContext, id: number): Promise<string> {
  const { app } = context;
  const db = app.db;
  const settle = async (state: 'skipped', reason: string) => {
    await db.updateTable('notification').set({ state, lastError: reason, claimedAt: null })
      .where('id', '=', id).where('channel', '=', 'push').where(claimable).execute();
    return 'skipped';
  };
  const row = await db.selectFrom('notification').select(['id', 'event', 'userId', 'entity', 'entityId', 'payload', 'createdAt', 'pushSubscriptionId'])
    .where('id', '=', id).where('channel', '=', 'push').where(claimable).executeTakeFirst();
  if (!row) return 'nothing';
  const recipient = await recipientAccount(db, row.userId);
  if (!recipient) return settle('skipped', REASON.accountClosed);
  const device = row.pushSubscriptionId === null ? undefined : await db.selectFrom('push_subscription').select(['id', 'endpoint', 'p256dh', 'auth'])
    .where('id', '=', row.pushSubscriptionId).where('userId', '=', row.userId).executeTakeFirst();
  if (!device) return settle('skipped', PUSH_REASON.noDevice);
  // in the recipient's variant and his own language (issue 48)
  const variant = app.config.forClient(recipient.session.klientSymbol, recipient.session.language);
  const file = notificationsFile(variant.bundle);
  const event = eventById(file, row.event);
  const role = recipient.session.role as Role;
  if (!event || !event.roles.includes(role) || !event.channels.includes('push')) return settle('skipped', REASON.notVisible);
  const settings = effectiveSettings(file, role, (await storedSettings(db, [row.userId])).get(row.userId));
  if (settings.events[event.id] === false) return settle('skipped', REASON.eventOff);
  const notification = { ...row, payload: (row.payload ?? {}) as Record<string, unknown> };
  const rendered = await context.renderers.for(event)({ app, event, notification, recipient, variant });
  if (!rendered) return settle('skipped', REASON.notVisible);

  const payload: PushPayload = {
    title: rendered.title, body: rendered.text, url: pathOf(rendered.link), id: Number(row.id), lang: variant.language.id,
    tag: [event.id, row.entity ?? '-', row.entityId ?? '-'].join(':'),
  };
  const keys = await context.keys();
  const claimed = await db.updateTable('notification')
    .set((eb) => ({ state: 'sending', claimedAt: new Date(), attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id).where('channel', '=', 'push').where(claimable)
    .returning('id').executeTakeFirst();
  if (!claimed) return 'nothing';
  const outcome = await sendPush(device, payload, keys, context.allowed);
  if (outcome.kind === 'sent') {
    await db.updateTable('notification').set({ state: 'sent', sentAt: new Date(), lastError: null })
      .where('id', '=', id).where('state', '=', 'sending').execute();
    await db.updateTable('push_subscription').set({ lastSuccessAt: new Date() }).where('id', '=', device.id).execute();
    return 'sent';
  }
  if (outcome.kind === 'gone') {
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('notification').set({ state: 'skipped', lastError: PUSH_REASON.deviceGone, claimedAt: null })
        .where('id', '=', id).where('state', '=', 'sending').execute();
      await trx.deleteFrom('push_subscription').where('id', '=', device.id).execute();
    });
    return 'gone';
  }
  const reason = `PUSH: ${outcome.error}`.slice(0, 1000);
  await db.updateTable('notification').set({ state: 'failed', lastError: reason, claimedAt: null })
    .where('id', '=', id).where('state', '=', 'sending').execute();
  await db.updateTable('push_subscription').set({ lastFailureAt: new Date(), lastError: reason }).where('id', '=', device.id).execute();
  if (outcome.retry) throw new DeliveryFailed(reason);
  return 'failed';
}

/** Push rows the queue should hold again (their job lost), oldest first; closes the ones a dead process left in sending. */
export async function sweepPush(app: FastifyInstance, options: { settleMs: number; sendingTimeoutMinutes: number; limit: number }): Promise<number[]> {
  const db = app.db;
  await db.updateTable('notification').set({ state: 'failed', lastError: REASON.interrupted, claimedAt: null })
    .where('state', '=', 'sending').where('channel', '=', 'push')
    .where('claimedAt', '<', sql<Date>`now() - make_interval(mins => ${options.sendingTimeoutMinutes})`)
    .execute();
  const rows = await db.selectFrom('notification').select('id').where('state', '=', 'queued').where('channel', '=', 'push')
    .where('createdAt', '<', new Date(Date.now() - options.settleMs))
    .orderBy('createdAt').orderBy('id').limit(options.limit).execute();
  return rows.map((r) => Number(r.id));
}
