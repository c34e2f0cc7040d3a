/**
 * `app.notifications` (issue 25): the outbox writer the changes call in their transactions, the
 * delivery worker on the job queue, the caller's own list and settings, and the administrators'
 * send-again. The pieces are the modules beside this one; this file wires them to the app and to
 * its lifecycle (the worker starts when the app is ready and stops before the database closes).
 */
import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { configuredBuilder, type ConfiguredBuilder } from '../db/configured-tables.ts';
import type { Session } from '../auth/session.ts';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import { diffRows, recordChange, type Actor } from '../audit/index.ts';
import { scopeExpression } from '../access/row-scope.ts';
import { deliverEmail, DeliveryFailed, sweepEmails, waitingForServer, type DeliveryOutcome } from './delivery.ts';
import { MailServer } from './mail-server.ts';
import { deliverySettings, eventById, notificationsFile, type Role } from './events.ts';
import { writeNotifications, type EventFacts, type Queued } from './outbox.ts';
import { Renderers } from './render.ts';
import { effectiveSettings, saveSettings, storedSettings, unofferedEvents, type Settings } from './settings.ts';
import { JobQueue, PUSH_QUEUE } from '../jobs/queue.ts';
import { jobLogger } from '../jobs/job-log.ts';

export interface NotificationOptions {
  /** Run the delivery worker and the scheduler in this process (default true; tests that do not deliver switch it off). */
  worker?: boolean;
  /** The portal's public address, for links in e-mails (PUBLIC_URL). */
  publicUrl: string;
  /** The configuration root (the variants' logos). */
  root: string;
  /** How often an idle worker looks for jobs (seconds, at least 0.5; default 2). */
  pollingIntervalSeconds?: number;
  /** E-mails this process sends at once (default: screens/notifications.json `delivery.concurrency`, 16). */
  concurrency?: number;
  /** Overrides of screens/notifications.json `delivery` (tests shorten the retry delay). */
  delivery?: Partial<import('./events.ts').DeliverySettings>;
}

/** A channel delivered by another module (push, issue 47): one row at a time, and the rows to queue again. */
export interface PushChannel {
  deliver(id: number): Promise<string>;
  sweep(options: { settleMs: number; sendingTimeoutMinutes: number; limit: number }): Promise<number[]>;
}

export interface ListQuery {
  offset: number;
  limit: number;
  unread: boolean;
}

/** Rows a sweep puts back on the queue at most (the next sweep takes the rest): queued a thousand per statement. */
const SWEEP_LIMIT = 50_000;
/** How long a queue that could not start (no database) waits before trying again. */
const START_RETRY_MS = 30_000;
/** A queued e-mail younger than this still has the job its own transaction sent. */
const SWEEP_SETTLE_MS = 30_000;

export function createNotifications(app: FastifyInstance, options: NotificationOptions) {
  const renderers = new Renderers();
  let queue: JobQueue | undefined;
  const startedHooks: ((queue: JobQueue) => Promise<void>)[] = [];
  /** The push channel's delivery (server/push/service.ts registers it; issue 47). */
  let pushChannel: PushChannel | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const delivery = () => ({ ...deliverySettings(notificationsFile(app.config.bundle)), ...options.delivery });
  const mail = new MailServer(app.db, {
    connections: () => delivery().smtpConnections,
    probeSeconds: () => delivery().probeSeconds,
    onBack: async () => {
      // the server answers again: every e-mail that waited for it goes on the queue now
      const ids = await sweepEmails(app, { settleMs: 0, sendingTimeoutMinutes: delivery().sendingTimeoutMinutes, limit: SWEEP_LIMIT, waitingForServer: 'only' });
      if (ids.length && queue?.started) await queue.enqueueEmails(app.db, ids);
      if (ids.length) jobLogger(app.log).info({ emails: ids.length }, 'the mail server answers again: the e-mails that waited are queued');
    },
    onError: (error) => app.log.warn({ err: error }, 'the mail server could not be asked whether it is back'),
  });
  const context = () => ({ app, renderers, publicUrl: options.publicUrl, root: options.root, mail });

  /**
   * The caller's in-app rows whose record they may still see (ACCESS.md, judged now): one branch
   * per resource the configured events name, in the resource's own row scope.
   */
  function visibleToCaller(session: Session) {
    const { bundle } = app.config;
    const resources = [...new Set(notificationsFile(bundle).events.map((e) => e.resource).filter((r): r is string => Boolean(r)))];
    return <D, T extends keyof D>(typed: ExpressionBuilder<D, T>): Expression<SqlBool> => {
      // the notification's own columns and each resource's view by its configured name
      const eb = configuredBuilder(typed);
      const branches: Expression<SqlBool>[] = [eb('n.entity', 'is', null)];
      for (const name of resources) {
        const resource = bundle.resources[name];
        if (!resource) continue;
        let scope: (inner: ConfiguredBuilder) => Expression<SqlBool>;
        try {
          scopeExpression(eb, bundle.resources, resource, session, 'forbidden');
          scope = (inner) => scopeExpression(inner, bundle.resources, resource, session, 'forbidden');
        } catch {
          continue; // a role the resource does not name sees none of its records
        }
        branches.push(eb.and([
          eb('n.entity', '=', name),
          eb.exists(eb.selectFrom(`${resource.source} as scope_record`).select(sql`1`.as('one'))
            .whereRef(`scope_record.${resource.key}`, '=', 'n.entityId').where((inner) => scope(configuredBuilder(inner)))),
        ]));
      }
      return eb.or(branches);
    };
  }

  const inbox = (session: Session) => app.db.selectFrom('notification as n')
    .where('n.userId', '=', session.userId).where('n.channel', '=', 'inApp').where(visibleToCaller(session));

  async function enqueue(db: Kysely<DB>, queued: readonly Queued[]) {
    const emails = queued.filter((q) => q.channel === 'email').map((q) => q.id);
    if (emails.length && queue?.started) await queue.enqueueEmails(db, emails);
    const pushes = queued.filter((q) => q.channel === 'push').map((q) => q.id);
    if (pushes.length && queue?.started) await queue.enqueueEmails(db, pushes, PUSH_QUEUE);
  }

  const service = {
    /** Renderers per event id or trigger kind (a digest registers its own). */
    renderers,
    /** The job queue (undefined until started, and in an app without the worker). */
    get queue(): JobQueue | undefined {
      return queue?.started ? queue : undefined;
    },

    /**
     * Writes the notifications of an occurrence in the caller's transaction `trx`, with their
     * e-mail jobs. The configuration is the one of the record's client's variant.
     */
    async record(trx: Kysely<DB>, facts: EventFacts): Promise<Queued[]> {
      const file = notificationsFile(app.config.forClient(facts.record.klientSymbol).bundle);
      const queued = await writeNotifications(trx, file, facts);
      await enqueue(trx, queued);
      return queued;
    },

    /** The push channel: its delivery of one row and its sweep (server/push/service.ts). */
    usePushChannel(channel: PushChannel) {
      pushChannel = channel;
    },

    /** Delivers one push notification row now (the job's work; tests call it too). */
    deliverPush: async (id: number): Promise<string> => (pushChannel ? pushChannel.deliver(id) : 'nothing'),

    /** Delivers one e-mail notification now (the job's work; tests call it too). */
    deliver: (id: number): Promise<DeliveryOutcome> => deliverEmail(context(), id),

    /** Puts waiting e-mails back on the queue (no mail server before, a lost job); `now` also takes the youngest. */
    async sweep(now = false): Promise<number> {
      // e-mails waiting for an unreachable server go back only once it answers (a process that
      // saw it down asks by itself; this covers one that died meanwhile)
      let serverBack = false;
      if (!mail.down && (await waitingForServer(app))) {
        serverBack = await mail.reachable();
        if (!serverBack) mail.markDown();
      }
      const ids = await sweepEmails(app, {
        settleMs: now ? 0 : SWEEP_SETTLE_MS, sendingTimeoutMinutes: delivery().sendingTimeoutMinutes, limit: SWEEP_LIMIT,
        waitingForServer: serverBack ? 'include' : 'exclude',
      });
      if (ids.length && queue?.started) await queue.enqueueEmails(app.db, ids);
      // push rows whose job was lost (or a process died sending them), the same way
      const pushes = pushChannel ? await pushChannel.sweep({ settleMs: now ? 0 : SWEEP_SETTLE_MS, sendingTimeoutMinutes: delivery().sendingTimeoutMinutes, limit: SWEEP_LIMIT }) : [];
      if (pushes.length && queue?.started) await queue.enqueueEmails(app.db, pushes, PUSH_QUEUE);
      return ids.length + pushes.length;
    },

    /** GET /api/notifications: the caller's in-app notifications, newest first, rendered for them now. */
    async list(session: Session, query: ListQuery) {
      const base = inbox(session);
      const [{ total }, { unread }]: { total?: unknown; unread?: unknown }[] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
        base.where('n.readAt', 'is', null).select((eb) => eb.fn.countAll().as('unread')).executeTakeFirstOrThrow(),
      ]);
      let rows = base.select(['n.id', 'n.event', 'n.userId', 'n.entity', 'n.entityId', 'n.payload', 'n.createdAt', 'n.readAt']);
      if (query.unread) rows = rows.where('n.readAt', 'is', null);
      const page = await rows.orderBy('n.createdAt', 'desc').orderBy('n.id', 'desc').offset(query.offset).limit(query.limit).execute();
      const { bundle, conditions } = app.config;
      const file = notificationsFile(bundle);
      const recipient = { session, email: null, firstName: '', lastName: '' };
      const items = [];
      for (const row of page) {
        const event = eventById(file, row.event);
        const rendered = event
          ? await renderers.for(event)({ app, event, notification: { ...row, payload: (row.payload ?? {}) as Record<string, unknown> }, recipient, variant: { bundle, conditions, t: app.config.t } })
          : undefined;
        items.push({
          id: Number(row.id), event: row.event, createdAt: new Date(row.createdAt).toISOString(),
          readAt: row.readAt ? new Date(row.readAt).toISOString() : null,
          title: rendered?.title ?? (event ? t(event.label) : row.event), text: rendered?.text ?? '', link: rendered?.link ?? null,
        });
      }
      return { total: Number(total), unread: Number(unread), items };
    },

    async unreadCount(session: Session) {
      const { unread }: { unread?: unknown } = await inbox(session).where('n.readAt', 'is', null)
        .select((eb) => eb.fn.countAll().as('unread')).executeTakeFirstOrThrow();
      return { unread: Number(unread) };
    },

    /** Marks one of the caller's own notifications read; someone else's is not found (404). */
    async markRead(session: Session, id: number) {
      const row = await app.db.updateTable('notification')
        .set({ readAt: sql<Date>`coalesce("readAt", now())` })
        .where('id', '=', id).where('userId', '=', session.userId).where('channel', '=', 'inApp')
        .returning(['id', 'readAt']).executeTakeFirst();
      if (!row) throw new HttpError(404, t('notifications:messages.notFound'));
      return { id: row.id, readAt: new Date(row.readAt!).toISOString() };
    },

    async readAll(session: Session) {
      const result = await app.db.updateTable('notification').set({ readAt: new Date() })
        .where('userId', '=', session.userId).where('channel', '=', 'inApp').where('readAt', 'is', null)
        .executeTakeFirst();
      return { updated: Number(result.numUpdatedRows) };
    },

    async settings(session: Session): Promise<Settings> {
      const file = notificationsFile(app.config.bundle);
      return effectiveSettings(file, session.role as Role, (await storedSettings(app.db, [session.userId])).get(session.userId));
    },

    /** Saves the caller's settings whole; an event their role is not offered is a 400 naming it. */
    async saveSettings(session: Session, body: Omit<Settings, 'digestHour'> & { digestHour?: number }, actor?: Actor) {
      const file = notificationsFile(app.config.bundle);
      const role = session.role as Role;
      const unoffered = unofferedEvents(file, role, body.events);
      if (unoffered.length) {
        const message = t('notifications:messages.eventNotOffered');
        const errors = unoffered.map((id) => ({ field: `events.${id}`, message }));
        throw new HttpError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), { code: 'VALIDATION', errors });
      }
      // the events not named keep what they were (a form may send only what it shows)
      const current = await service.settings(session);
      // the hour is asked only while the digest is on: without it, the stored hour stays for the next time
      const settings = { events: { ...current.events, ...body.events }, digest: body.digest, digestHour: body.digestHour ?? current.digestHour };
      await app.db.transaction().execute(async (trx) => {
        await saveSettings(trx, session.userId, settings);
        // the trail (issue 37), last: each event switched, the digest and its hour, before and after
        const flat = (s: Settings) => ({ ...Object.fromEntries(Object.entries(s.events).map(([id, on]) => [`events.${id}`, on])), digest: s.digest, digestHour: s.digestHour });
        const before = flat(current);
        const after = flat(settings);
        const changes = diffRows(before, after, [...new Set([...Object.keys(before), ...Object.keys(after)])]);
        if (actor && Object.keys(changes).length) await recordChange(trx, { actor, resource: 'notifications', recordKey: session.userId, action: 'settings', changes });
      });
      return { message: t('notifications:messages.settingsSaved'), ...(await service.settings(session)) };
    },

    /**
     * Administrators' "send again": a waiting or failed e-mail is queued again; a sent or skipped
     * one (or an in-app one) is sent again as a new notification, the old row staying as it was.
     */
    async sendAgain(id: number, actor: Actor) {
      return app.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('notification').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
        if (!row) throw new HttpError(404, t('notifications:messages.notFound'));
        if (row.state === 'sending') throw new HttpError(409, t('notifications:messages.sending'), { code: 'SENDING' });
        let queued: Queued;
        if ((row.channel === 'email' || row.channel === 'push') && (row.state === 'queued' || row.state === 'failed')) {
          await trx.updateTable('notification').set({ state: 'queued', lastError: null, claimedAt: null }).where('id', '=', id).execute();
          queued = { event: row.event, id: row.id, userId: row.userId, channel: row.channel };
        } else {
          const copy = await trx.insertInto('notification').values({
            event: row.event, userId: row.userId, email: row.email, channel: row.channel, entity: row.entity, entityId: row.entityId,
            payload: sql`${JSON.stringify(row.payload ?? {})}::jsonb`, dedupeKey: `${row.dedupeKey}:again:${randomUUID()}`, resentFrom: row.id,
            pushSubscriptionId: row.pushSubscriptionId,
            state: row.channel === 'inApp' ? 'sent' : 'queued', sentAt: row.channel === 'inApp' ? new Date() : null,
          }).returning('id').executeTakeFirstOrThrow();
          queued = { event: row.event, id: copy.id, userId: row.userId, channel: row.channel as Queued['channel'] };
        }
        await enqueue(trx, [queued]);
        // the trail (issue 37), last: the administrator's "send again", and the notification it queued
        await recordChange(trx, { actor, resource: 'notification', recordKey: id, action: 'send-again', changes: {
          ...(queued.id === row.id ? { state: [row.state, 'queued'] } : { resentAs: [null, queued.id] }),
        } });
        return { message: t('notifications:messages.sentAgain') };
      });
    },

    /**
     * Starts the queue and, when this process runs it, the worker (the app's onReady). A database
     * that cannot be reached at start-up does not stop the portal (it answers 503 until the
     * database is back): the queue is tried again every START_RETRY_MS.
     */
    async start() {
      if (options.worker === false || stopped) return;
      try {
        const opened = await JobQueue.open(app.db, {
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
          concurrency: options.concurrency ?? delivery().concurrency,
          onError: (error) => app.log.error({ err: error }, 'job queue error'),
          log: app.log,
        });
        try {
          await opened.start(delivery());
          await opened.work(async (id) => {
            try {
              await service.deliver(id);
            } catch (error) {
              if (!(error instanceof DeliveryFailed)) jobLogger(app.log).error({ err: error, notification: id }, 'notification delivery failed');
              throw error; // pg-boss retries it with backoff
            }
          }, async () => {
            await service.sweep();
          }, async (id) => {
            try {
              await service.deliverPush(id);
            } catch (error) {
              if (!(error instanceof DeliveryFailed)) jobLogger(app.log).error({ err: error, notification: id }, 'push delivery failed');
              throw error; // pg-boss retries it with backoff
            }
          });
          for (const hook of startedHooks) await hook(opened);
        } catch (error) {
          await opened.stop(0).catch(() => undefined);
          throw error;
        }
        queue = opened;
      } catch (error) {
        app.log.error({ err: error }, `job queue not started; trying again in ${START_RETRY_MS / 1000} s`);
        if (!stopped) retryTimer = setTimeout(() => void service.start(), START_RETRY_MS).unref();
      }
    },

    /** Work to start with the queue (the digest's schedule): run each time the queue starts. */
    whenStarted(hook: (queue: JobQueue) => Promise<void>) {
      startedHooks.push(hook);
    },

    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      const q = queue;
      queue = undefined;
      await q?.stop(5_000);
      mail.close();
    },
  };
  return service;
}

export type Notifications = ReturnType<typeof createNotifications>;

declare module 'fastify' {
  interface FastifyInstance {
    notifications: Notifications;
  }
}

export default fp<NotificationOptions>(async (app, options) => {
  const notifications = createNotifications(app, options);
  app.decorate('notifications', notifications);
  app.addHook('onReady', async () => notifications.start());
  // before the onClose hooks, one of which closes the database (main.ts): jobs in hand finish first
  app.addHook('preClose', async () => notifications.stop());
}, { name: 'notifications', dependencies: ['db', 'config', 'orders-repository'] });
