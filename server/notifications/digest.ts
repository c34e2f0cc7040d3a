/**
 * The daily digest and the administrators' failure summary (issue 25, events 5 and 6): scheduled
 * messages, queued through the outbox like every other notification and delivered by its worker.
 *
 * - Each user whose digest is on gets, once a day at his hour (the portal's time zone), the
 *   reminders that are new or got worse since his last digest (`app.reminders.changes`: a soon,
 *   urgent or past-due day passed, or a write made an item appear or worse). Nothing changed:
 *   no message at all. The first digest lists what is due.
 * - Each administrator who keeps the failure summary on gets, once a day, the deliveries that
 *   failed since his last summary; none: no message.
 * - "Once a day across every process": the run is a row of digest_run (kind, user, day) inserted
 *   in the transaction that queues the message; a second process inserting the same row waits for
 *   the first and then finds it. The schedule (pg-boss cron, every 15 minutes) only decides when
 *   to look; `run({ now: true })` (the administrators' button, `npm run digest -- --now`) ignores
 *   the hour and the day's row, and still sends only what changed since the last one.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import fp from 'fastify-plugin';
import { timeZoneOf } from '../config/locale.ts';
import { dayIn, hourIn } from '../reminders/today.ts';
import type { ReminderItem } from '../reminders/service.ts';
import { eventsFor, notificationsFile, type Role } from './events.ts';
import { appNameOf, linkTo, type Rendered, type Renderer } from './render.ts';

/** A scheduled message's link (the cockpit, the log) and its button, for the recipient. */
const linked = (context: Parameters<Renderer>[0]): Pick<Rendered, 'link' | 'linkLabel'> => {
  const link = linkTo(context, {});
  return { link: link?.path ?? null, ...(link?.label ? { linkLabel: link.label } : {}) };
};
import { effectiveSettings, storedSettings } from './settings.ts';
import { recipientAccount } from './visibility.ts';
import { runJob } from '../jobs/job-log.ts';
import { recordChange, type Actor } from '../audit/index.ts';
import { JOB_HISTORY_SECONDS } from '../jobs/queue.ts';

export const DIGEST_QUEUE = 'notification-digest';
/** Items a digest names one by one; the rest are counted ("… and 120 more"). */
const DIGEST_ITEMS = 30;
/** Items a push of reminders carries (its text names the first, counts the rest). */
const PUSH_ITEMS = 3;
/** Failed deliveries a summary names one by one. */
const SUMMARY_ITEMS = 30;
/** A first failure summary looks this far back. */
const FIRST_SUMMARY_HOURS = 24;

type Kind = 'digest' | 'failures' | 'reminders';

/** Who the reader was when the digest was made: a different reader at sending time gets nothing. */
interface ReaderScope {
  role: string;
  klientSymbol: string | null;
  stacjaSerw: string | null;
  pojazdId: number | null;
}

interface DigestLine {
  urgency: string;
  rejestr: string | null;
  markaModel: string | null;
  label: string;
  text: string;
}

export interface DigestResult {
  /** Users whose digest (or summary) was looked at. */
  users: number;
  /** Messages queued. */
  queued: number;
}

const lineOf = (item: ReminderItem): DigestLine => ({ urgency: item.urgency, rejestr: item.rejestr, markaModel: item.markaModel, label: item.label, text: item.text });

function createDigest(app: FastifyInstance) {
  /** The last run of `kind` for a user: where the next one starts. */
  async function lastRun(db: typeof app.db, kind: Kind, userId: number) {
    const last = await db.selectFrom('digest_run').select(['day', 'at']).where('kind', '=', kind).where('userId', '=', userId)
      .orderBy('at', 'desc').limit(1).executeTakeFirst();
    // a date column is read as YYYY-MM-DD (connect.ts's parsers)
    return last ? { day: last.day, at: new Date(last.at) } : null;
  }

  /**
   * Takes the day's run of `kind` for a user in `trx`, if the last run is still `last` (nobody ran
   * since it was read): one process at a time per user (a transaction lock), then the day's row
   * (a second run of the day inserts nothing, unless `now`). Answers the run's time, or undefined.
   */
  async function claim(trx: typeof app.db, kind: Kind, userId: number, day: string, now: boolean, last: { at: Date } | null) {
    await sql`select pg_advisory_xact_lock(hashtext(${`digest:${kind}:${userId}`}))`.execute(trx);
    const current = await lastRun(trx, kind, userId);
    if ((current?.at.getTime() ?? null) !== (last?.at.getTime() ?? null)) return undefined;
    const insert = trx.insertInto('digest_run').values({ kind, userId, day });
    const taken = await (now
      ? insert.onConflict((oc) => oc.columns(['kind', 'userId', 'day']).doUpdateSet({ at: sql<Date>`now()` }))
      : insert.onConflict((oc) => oc.doNothing())
    ).returning('at').executeTakeFirst();
    return taken ? new Date(taken.at) : undefined;
  }

  /**
   * The digest of one user: queued when something is new or worse; answers whether it was. What
   * changed is read before the transaction (the reminders refresh and read on their own; PGlite
   * has one connection), and the run is taken only if no other run came in between.
   */
  async function digestOf(userId: number, day: string, now: boolean): Promise<boolean> {
    const account = await recipientAccount(app.db, userId);
    if (!account) return false;
    const last = await lastRun(app.db, 'digest', userId);
    if (!now && last?.day === day) return false;
    const variant = app.config.forClient(account.session.klientSymbol, account.session.language);
    const { total, items } = await app.reminders.changes(account.session, last, DIGEST_ITEMS, variant);
    return app.db.transaction().execute(async (trx) => {
      const at = await claim(trx, 'digest', userId, day, now, last);
      if (!at) return false;
      await trx.updateTable('digest_run').set({ items: total }).where('kind', '=', 'digest').where('userId', '=', userId).where('day', '=', day).execute();
      if (total === 0) return false;
      const { role, klientSymbol, stacjaSerw, pojazdId } = account.session;
      const scope: ReaderScope = { role, klientSymbol, stacjaSerw, pojazdId };
      const queued = await app.notifications.record(trx, {
        occurrence: { kind: 'dailyDigest' }, self: userId, seq: `${day}@${at.getTime()}`,
        record: { klientSymbol }, payload: { total, more: total - items.length, lines: items.map(lineOf), scope },
      });
      return queued.length > 0;
    });
  }

  /** The failure summary of one administrator: the deliveries that failed since his last one. */
  async function failuresOf(userId: number, day: string, now: boolean): Promise<boolean> {
    const last = await lastRun(app.db, 'failures', userId);
    if (!now && last?.day === day) return false;
    return app.db.transaction().execute(async (trx) => {
      const at = await claim(trx, 'failures', userId, day, now, last);
      if (!at) return false;
      const since = last?.at ?? new Date(at.getTime() - FIRST_SUMMARY_HOURS * 3600_000);
      const failed = trx.selectFrom('notification as n').innerJoin('app_user as u', 'u.id', 'n.userId')
        .where('n.state', '=', 'failed').where(sql<Date>`coalesce(n."claimedAt", n."createdAt")`, '>', since);
      const { total } = await failed.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow();
      const count = Number(total);
      await trx.updateTable('digest_run').set({ items: count }).where('kind', '=', 'failures').where('userId', '=', userId).where('day', '=', day).execute();
      if (count === 0) return false;
      const rows = await failed.select(['n.id', 'n.event', 'n.email', 'n.lastError', 'n.attempts', 'u.login'])
        .orderBy('n.id', 'desc').limit(SUMMARY_ITEMS).execute();
      const queued = await app.notifications.record(trx, {
        occurrence: { kind: 'failureSummary' }, self: userId, seq: `${day}@${at.getTime()}`, record: {},
        payload: { total: count, more: count - rows.length, failures: rows.map((r) => ({ id: Number(r.id), event: r.event, login: r.login, email: r.email, reason: r.lastError, attempts: r.attempts })) },
      });
      return queued.length > 0;
    });
  }

  /**
   * The reminders pushed to a person's devices (issue 47, event trigger `remindersDue`): what is
   * new or worse on his vehicle since the last time, once a day at his digest hour, the same way
   * as the digest (its own run kind), only for a person with a device; nothing changed: nothing.
   */
  async function remindersOf(userId: number, day: string, now: boolean): Promise<boolean> {
    const device = await app.db.selectFrom('push_subscription').select('id').where('userId', '=', userId).limit(1).executeTakeFirst();
    if (!device) return false;
    const account = await recipientAccount(app.db, userId);
    if (!account) return false;
    const last = await lastRun(app.db, 'reminders', userId);
    if (!now && last?.day === day) return false;
    const variant = app.config.forClient(account.session.klientSymbol, account.session.language);
    const { total, items } = await app.reminders.changes(account.session, last, PUSH_ITEMS, variant);
    return app.db.transaction().execute(async (trx) => {
      const at = await claim(trx, 'reminders', userId, day, now, last);
      if (!at) return false;
      await trx.updateTable('digest_run').set({ items: total }).where('kind', '=', 'reminders').where('userId', '=', userId).where('day', '=', day).execute();
      if (total === 0) return false;
      const { role, klientSymbol, stacjaSerw, pojazdId } = account.session;
      const scope: ReaderScope = { role, klientSymbol, stacjaSerw, pojazdId };
      const queued = await app.notifications.record(trx, {
        occurrence: { kind: 'remindersDue' }, self: userId, seq: `${day}@${at.getTime()}`,
        record: { klientSymbol }, payload: { total, lines: items.map(lineOf), scope },
      });
      return queued.length > 0;
    });
  }

  /**
   * Looks at every user whose digest (or summary) is due now, or at all of them with `now`. `actor`:
   * who ran it by hand (the administrators' button), named in the trail when the run queued anything.
   */
  async function run(options: { now?: boolean; actor?: Actor } = {}): Promise<DigestResult> {
    const now = options.now === true;
    const zone = timeZoneOf(app.config.bundle.config);
    const clock = app.clock();
    const day = dayIn(clock, zone);
    const hour = hourIn(clock, zone);
    // every open account: the e-mails need an address, the push of reminders a device (remindersOf)
    const users = await app.db.selectFrom('app_user').select(['id', 'rola', 'klientSymbol', 'email'])
      .where('deletedAt', 'is', null)
      .where((eb) => eb.or([eb('dataDo', 'is', null), eb('dataDo', '>=', sql<string>`current_date`)]))
      .orderBy('id').execute();
    const stored = await storedSettings(app.db, users.map((u) => u.id));
    const result: DigestResult = { users: 0, queued: 0 };
    for (const user of users) {
      const file = notificationsFile(app.config.forClient(user.klientSymbol).bundle);
      const settings = effectiveSettings(file, user.rola as Role, stored.get(user.id));
      const due = now || hour >= settings.digestHour;
      const digest = eventsFor(file, { kind: 'dailyDigest' }).some((e) => e.roles.includes(user.rola as Role));
      const mail = Boolean(user.email?.trim());
      if (mail && digest && settings.digest && due) {
        result.users++;
        if (await digestOf(user.id, day, now)) result.queued++;
      }
      const summaries = eventsFor(file, { kind: 'failureSummary' }).filter((e) => e.roles.includes(user.rola as Role) && settings.events[e.id] !== false);
      if (mail && summaries.length && due) {
        result.users++;
        if (await failuresOf(user.id, day, now)) result.queued++;
      }
      const reminders = eventsFor(file, { kind: 'remindersDue' }).filter((e) => e.roles.includes(user.rola as Role) && settings.events[e.id] !== false);
      if (reminders.length && due && (await remindersOf(user.id, day, now))) result.queued++;
    }
    // the trail (issue 45): an administrator's run by hand, once it is over (each user's messages
    // committed in a transaction of their own above); a run that queued nothing changed nothing
    if (options.actor && result.queued > 0) {
      const actor = options.actor;
      await app.db.transaction().execute((trx) => recordChange(trx, {
        actor, resource: 'notification', recordKey: null, action: 'digest-run', changes: { users: [null, result.users], queued: [null, result.queued] },
      }));
    }
    return result;
  }

  return { run };
}

/** The reader is still who the digest was made for (role, client, station, vehicle): else nothing is said. */
function sameReader(scope: ReaderScope | undefined, session: ReaderScope): boolean {
  return Boolean(scope) && scope!.role === session.role && scope!.klientSymbol === session.klientSymbol
    && scope!.stacjaSerw === session.stacjaSerw && scope!.pojazdId === session.pojazdId;
}

/** The digest's message: its lines by urgency, in the recipient's variant's words. */
const renderDigest: Renderer = async (context) => {
  const { event, variant, recipient, notification } = context;
  const payload = notification.payload as { total?: number; more?: number; lines?: DigestLine[]; scope?: ReaderScope };
  if (!sameReader(payload.scope, recipient.session)) return undefined;
  const t = variant.t;
  const lines = (payload.lines ?? []).map((l) => t('notifications:digest.line', {
    urgency: t(`notifications:digest.urgency.${l.urgency}`), vehicle: [l.rejestr, l.markaModel].filter(Boolean).join(' '), label: l.label, text: l.text,
  }));
  const vars = { appName: appNameOf(variant.bundle), total: payload.total ?? 0, more: payload.more ?? 0 };
  const paragraphs = [t(event.body, vars), lines.join('\n')];
  if ((payload.more ?? 0) > 0) paragraphs.push(t('notifications:digest.more', vars));
  return { subject: t(event.subject, vars), paragraphs, title: t(event.title, vars), text: t(event.text, vars), ...linked(context) };
};

/** The failure summary's message: each failed delivery with its recipient and reason. */
const renderFailures: Renderer = async (context) => {
  const { event, variant, recipient, notification } = context;
  if (recipient.session.role !== 'ADMIN') return undefined;
  const t = variant.t;
  const payload = notification.payload as { total?: number; more?: number; failures?: { id: number; event: string; login: string; email: string | null; reason: string | null; attempts: number }[] };
  const label = (id: string) => {
    const found = notificationsFile(variant.bundle).events.find((e) => e.id === id);
    return found ? t(found.label) : id;
  };
  const lines = (payload.failures ?? []).map((f) => t('notifications:failures.line', {
    id: f.id, event: label(f.event), login: f.login, email: f.email ?? '', attempts: f.attempts,
    reason: f.reason ? t(`notifications:reasons.${f.reason}`, { defaultValue: f.reason }) : '',
  }));
  const vars = { appName: appNameOf(variant.bundle), total: payload.total ?? 0, more: payload.more ?? 0 };
  const paragraphs = [t(event.body, vars), lines.join('\n')];
  if ((payload.more ?? 0) > 0) paragraphs.push(t('notifications:failures.more', vars));
  return { subject: t(event.subject, vars), paragraphs, title: t(event.title, vars), text: t(event.text, vars), ...linked(context) };
};

/** The push of reminders: how many, and the most urgent one (vehicle and what is due), in the recipient's words. */
const renderReminders: Renderer = async (context) => {
  const { event, variant, recipient, notification } = context;
  const payload = notification.payload as { total?: number; lines?: DigestLine[]; scope?: ReaderScope };
  if (!sameReader(payload.scope, recipient.session)) return undefined;
  const t = variant.t;
  const [head] = payload.lines ?? [];
  const total = payload.total ?? 0;
  const first = head ? t('notifications:digest.line', {
    urgency: t(`notifications:digest.urgency.${head.urgency}`), vehicle: [head.rejestr, head.markaModel].filter(Boolean).join(' '), label: head.label, text: head.text,
  }).replace(/^•\s*/, '') : '';
  const vars = { appName: appNameOf(variant.bundle), total, more: Math.max(0, total - 1), first };
  const text = total > 1 ? t('notifications:events.remindersDue.more', vars) : t(event.text, vars);
  return { subject: t(event.subject, vars), paragraphs: [t(event.body, vars)], title: t(event.title, vars), text, ...linked(context) };
};

export type Digest = ReturnType<typeof createDigest>;

declare module 'fastify' {
  interface FastifyInstance {
    digest: Digest;
  }
}

export default fp(async (app) => {
  const digest = createDigest(app);
  app.decorate('digest', digest);
  app.notifications.renderers.register('dailyDigest', renderDigest);
  app.notifications.renderers.register('failureSummary', renderFailures);
  app.notifications.renderers.register('remindersDue', renderReminders);
  // each time the notifications' queue starts (at start-up, or later when the database was away)
  app.notifications.whenStarted(async (queue) => {
    await queue.boss.createQueue(DIGEST_QUEUE, { policy: 'singleton', deleteAfterSeconds: JOB_HISTORY_SECONDS });
    await queue.boss.schedule(DIGEST_QUEUE, '*/15 * * * *');
    await queue.boss.work(DIGEST_QUEUE, async ([job]) => {
      await runJob(app.log, DIGEST_QUEUE, job, () => digest.run());
    });
  });
}, { name: 'digest', dependencies: ['notifications', 'reminders'] });
