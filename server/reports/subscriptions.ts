/**
 * Report subscriptions (issue 46): a user's report, with his grouping and filters, e-mailed weekly
 * or monthly as xlsx or PDF through the outbox (server/notifications/), once per period.
 *
 * - Period: weekly → the previous Monday–Sunday; monthly → the previous calendar month, both in
 *   the portal's time zone. "Wyślij teraz" sends the last complete period at once.
 * - When: a scheduled job (pg-boss cron, every 15 minutes, once across processes) looks at every
 *   subscription; one is due once its moment in the current week or month (its day and hour) has
 *   passed and came after it was made. The send is a row of report_send whose (subscription,
 *   period) is unique, inserted in the transaction that writes the notification: a second process,
 *   a second run or a restart inserts nothing and sends nothing.
 * - Whose rights: the owner's when the mail is rendered (the outbox's delivery): his account must
 *   be open and his role one that may run the report, and the rows are his row scope then. A send
 *   refused before it was queued is kept as skipped with the reason; one refused at delivery is the
 *   notification's skipped state with its reason.
 * - Subscribing and unsubscribing are business writes (the trail); a send is a log, not the trail.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Actor } from '../audit/index.ts';
import type { Session } from '../auth/session.ts';
import { timeZoneOf } from '../config/locale.ts';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import { HttpError } from '../http-error.ts';
import { runJob } from '../jobs/job-log.ts';
import { JOB_HISTORY_SECONDS } from '../jobs/queue.ts';
import { appNameOf, linkTo, type Renderer } from '../notifications/render.ts';
import { recipientAccount } from '../notifications/visibility.ts';
import { dayIn, hourIn } from '../reminders/today.ts';
import type { ReportDecl } from '../config/report-declaration.ts';
import type { RunParams } from './engine.ts';
import { reportFile, runFor } from './file.ts';
import { datePatternFor } from '../config/languages.ts';
import { isoDayText } from '../../runtime/core/date-text.ts';

export const SUBSCRIPTION_QUEUE = 'report-subscriptions';
/** Sends listed with each subscription. */
const LAST_SENDS = 5;
/** Sends a subscription's log answers. */
const LOG_SENDS = 100;

export type Frequency = 'weekly' | 'monthly';
export type Format = 'xlsx' | 'pdf';
export interface Selection { groupBy?: string[]; filters?: Record<string, (string | number)[]> }

export interface SubscriptionInput {
  report: string;
  frequency: Frequency;
  format: Format;
  params: Selection;
  day: number;
  hour: number;
}

/** Reasons a send was refused before its e-mail was queued (their texts: locales/<lang>/reports.json `subscriptions.reasons`). */
export const SEND_REASON = {
  accountClosed: 'ACCOUNT_CLOSED',
  notAllowed: 'NOT_ALLOWED',
  noEmail: 'NO_EMAIL',
} as const;

const DAY_MS = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const pad = (n: number) => String(n).padStart(2, '0');

/** The Monday (YYYY-MM-DD) of the week of a day. */
function mondayOf(day: string): number {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS;
}

/** The last complete period before `today`: the previous Monday–Sunday, or the previous calendar month. */
export function lastPeriod(frequency: Frequency, today: string): { from: string; to: string } {
  if (frequency === 'weekly') {
    const monday = mondayOf(today);
    return { from: iso(monday - 7 * DAY_MS), to: iso(monday - DAY_MS) };
  }
  const [y, m] = today.split('-').map(Number);
  const first = Date.UTC(y, m - 1, 1);
  return { from: iso(Date.UTC(y, m - 2, 1)), to: iso(first - DAY_MS) };
}

/** The moment ("YYYY-MM-DD HH", the portal's zone) a subscription sends in the week or month of `today`. */
export function momentOf(sub: { frequency: Frequency; day: number; hour: number }, today: string): string {
  const day = sub.frequency === 'weekly' ? iso(mondayOf(today) + (sub.day - 1) * DAY_MS) : `${today.slice(0, 8)}${pad(sub.day)}`;
  return `${day} ${pad(sub.hour)}`;
}

interface SubscriptionRow {
  id: number; userId: number; report: string; frequency: string; day: number; hour: number; format: string;
  params: unknown; createdAt: Date | string;
}

function createService(app: FastifyInstance) {
  const zone = () => timeZoneOf(app.config.bundle.config);
  const now = () => new Date(app.clock());
  const localKey = (at: Date) => `${dayIn(at, zone())} ${pad(hourIn(at, zone()))}`;

  const notFound = () => new HttpError(404, app.config.t('reports:subscriptions.errors.notFound'));

  /** A subscription the caller may act on: his own, or any for an administrator; else 404 (ACCESS.md: as if absent). */
  async function visible(session: Session, id: number, db: Kysely<DB> = app.db): Promise<SubscriptionRow> {
    let query = db.selectFrom('report_subscription').selectAll().where('id', '=', id);
    if (session.role !== 'ADMIN') query = query.where('userId', '=', session.userId);
    const row = await query.executeTakeFirst();
    if (!row) throw notFound();
    return row as SubscriptionRow;
  }

  /** The trail's view of a subscription (what a reader of Dziennik zmian needs to know which one it was). */
  const trailOf = (row: SubscriptionRow) => ({
    userId: row.userId, report: row.report, frequency: row.frequency, day: row.day, hour: row.hour, format: row.format,
    params: JSON.stringify(row.params ?? {}),
  });

  async function create(session: Session, actor: Actor, input: SubscriptionInput): Promise<number> {
    return app.db.transaction().execute(async (trx) => {
      const row = await trx.insertInto('report_subscription').values({
        userId: session.userId, report: input.report, frequency: input.frequency, day: input.day, hour: input.hour,
        format: input.format, params: jsonb(input.params),
      }).returningAll().executeTakeFirstOrThrow();
      await app.writes.record(trx, { actor, resource: 'report-subscription', key: row.id, action: 'create', after: trailOf(row as SubscriptionRow) });
      return row.id;
    });
  }

  async function remove(session: Session, actor: Actor, id: number): Promise<void> {
    await app.db.transaction().execute(async (trx) => {
      const row = await visible(session, id, trx);
      await trx.deleteFrom('report_subscription').where('id', '=', id).execute();
      await app.writes.record(trx, { actor, resource: 'report-subscription', key: id, action: 'delete', before: trailOf(row) });
    });
  }

  /** The sends of some subscriptions, newest first, their state the e-mail's (the outbox's) once queued, reasons in `t`'s language. */
  async function sendsOf(ids: number[], t: Translate, limit: number) {
    if (ids.length === 0) return new Map<number, ReturnType<typeof shown>[]>();
    const rows = await app.db.selectFrom('report_send as s').leftJoin('notification as n', 'n.id', 's.notificationId')
      .select(['s.id', 's.subscriptionId', 's.periodFrom', 's.periodTo', 's.at', 's.scheduled', 's.state', 's.reason', 'n.state as mailState', 'n.lastError'])
      .select(sql<number>`row_number() over (partition by s."subscriptionId" order by s."at" desc, s."id" desc)`.as('nth'))
      .where('s.subscriptionId', 'in', ids).orderBy('s.at', 'desc').orderBy('s.id', 'desc').execute();
    const out = new Map<number, ReturnType<typeof shown>[]>();
    for (const row of rows) {
      if (Number(row.nth) > limit) continue;
      const list = out.get(row.subscriptionId) ?? [];
      list.push(shown(row, t));
      out.set(row.subscriptionId, list);
    }
    return out;
  }

  function shown(row: { id: number; periodFrom: string; periodTo: string; at: Date | string; scheduled: string | null; state: string; reason: string | null; mailState: string | null; lastError: string | null }, t: Translate) {
    const state = row.state === 'skipped' ? 'skipped' : (row.mailState ?? 'queued');
    const code = row.state === 'skipped' ? row.reason : row.lastError;
    let reason: string | null = null;
    if (code) {
      const [head, ...rest] = code.split(': ');
      reason = head === 'SMTP' ? t('notifications:reasons.SMTP', { detail: rest.join(': ') })
        : t(`reports:subscriptions.reasons.${code}`, { defaultValue: t(`notifications:reasons.${code}`, { defaultValue: code }) });
    }
    return {
      id: row.id, periodFrom: String(row.periodFrom), periodTo: String(row.periodTo), at: new Date(row.at).toISOString(),
      manual: row.scheduled === null, state: state as 'queued' | 'sending' | 'sent' | 'failed' | 'skipped', reason,
    };
  }

  /** The caller's subscriptions (an administrator's: everyone's), each with its owner and last sends. */
  async function list(session: Session, t: Translate, only?: number) {
    let query = app.db.selectFrom('report_subscription as r').innerJoin('app_user as u', 'u.id', 'r.userId')
      .select(['r.id', 'r.userId', 'r.report', 'r.frequency', 'r.day', 'r.hour', 'r.format', 'r.params', 'r.createdAt', 'u.login', 'u.firstName', 'u.lastName'])
      .orderBy('r.id');
    if (session.role !== 'ADMIN') query = query.where('r.userId', '=', session.userId);
    if (only !== undefined) query = query.where('r.id', '=', only);
    const rows = await query.execute();
    const sends = await sendsOf(rows.map((r) => r.id), t, LAST_SENDS);
    const reports = app.config.bundle.reports;
    return rows.map((r) => ({
      id: r.id, report: r.report, reportLabel: reports[r.report] ? t(reports[r.report].label) : r.report,
      frequency: r.frequency as Frequency, day: r.day, hour: r.hour, format: r.format as Format,
      params: (r.params ?? {}) as Selection, createdAt: new Date(r.createdAt).toISOString(),
      owner: { id: r.userId, login: r.login, name: [r.firstName, r.lastName].filter(Boolean).join(' ') || r.login },
      sends: sends.get(r.id) ?? [],
    }));
  }

  async function log(session: Session, t: Translate, id: number) {
    await visible(session, id);
    return (await sendsOf([id], t, LOG_SENDS)).get(id) ?? [];
  }

  /**
   * One send of a subscription's period, in `trx`: its row (for a scheduled one, unique per
   * subscription and period: a second attempt inserts nothing and answers undefined), judged by
   * the owner's rights now, and the e-mail queued through the outbox.
   */
  async function queueSend(trx: Transaction<DB>, sub: SubscriptionRow, period: { from: string; to: string }, manual?: { by: number }) {
    const insert = trx.insertInto('report_send').values({
      subscriptionId: sub.id, periodFrom: period.from, periodTo: period.to, scheduled: manual ? null : period.from,
      requestedBy: manual?.by ?? null, state: 'queued',
    });
    const send = await (manual ? insert : insert.onConflict((oc) => oc.columns(['subscriptionId', 'scheduled']).doNothing()))
      .returning('id').executeTakeFirst();
    if (!send) return undefined;
    const skip = async (reason: string) => {
      await trx.updateTable('report_send').set({ state: 'skipped', reason }).where('id', '=', send.id).execute();
      return send.id;
    };
    const owner = await recipientAccount(trx, sub.userId);
    if (!owner) return skip(SEND_REASON.accountClosed);
    const report = app.config.forClient(owner.session.klientSymbol).bundle.reports[sub.report];
    if (!report || !(report.roles as string[]).includes(owner.session.role)) return skip(SEND_REASON.notAllowed);
    if (!owner.email) return skip(SEND_REASON.noEmail);
    const queued = await app.notifications.record(trx, {
      occurrence: { kind: 'reportSubscription' }, self: sub.userId, entityId: sub.id,
      seq: manual ? `send-${send.id}` : `period-${period.from}`, record: { klientSymbol: owner.session.klientSymbol },
      payload: { sendId: send.id, report: sub.report, format: sub.format, params: (sub.params ?? {}) as Record<string, unknown>, from: period.from, to: period.to },
    });
    const mail = queued.find((q) => q.channel === 'email');
    if (!mail) return skip(SEND_REASON.notAllowed); // the owner's variant sends no such e-mail to his role
    await trx.updateTable('report_send').set({ notificationId: mail.id }).where('id', '=', send.id).execute();
    return send.id;
  }

  /** "Wyślij teraz": the last complete period, at once (the owner's e-mail, judged by his rights). */
  async function sendNow(session: Session, id: number, t: Translate) {
    const sub = await visible(session, id);
    const period = lastPeriod(sub.frequency as Frequency, dayIn(now(), zone()));
    const sendId = await app.db.transaction().execute((trx) => queueSend(trx, sub, period, { by: session.userId }));
    const send = (await sendsOf([id], t, LOG_SENDS)).get(id)!.find((s) => s.id === sendId)!;
    return send;
  }

  /** The scheduled run: every subscription whose moment in this week or month has passed sends its last period, once. Answers the sends made. */
  async function schedule(): Promise<number> {
    const at = now();
    const today = dayIn(at, zone());
    const current = localKey(at);
    const subs = await app.db.selectFrom('report_subscription').selectAll().orderBy('id').execute() as SubscriptionRow[];
    let made = 0;
    for (const sub of subs) {
      const moment = momentOf(sub as { frequency: Frequency; day: number; hour: number }, today);
      // its moment passed, and came after the subscription was made (no send for a period before it)
      if (current < moment || localKey(new Date(sub.createdAt)) >= moment) continue;
      const period = lastPeriod(sub.frequency as Frequency, today);
      const done = await app.db.selectFrom('report_send').select('id').where('subscriptionId', '=', sub.id).where('scheduled', '=', period.from).executeTakeFirst();
      if (done) continue;
      if (await app.db.transaction().execute((trx) => queueSend(trx, sub, period))) made++;
    }
    return made;
  }

  return { create, remove, list, log, sendNow, schedule };
}

/** The e-mail of a send: the report run for the owner as he is now, attached as its file, in his language. */
const renderSubscription: Renderer = async (context) => {
  const { app, event, variant, recipient, notification } = context;
  const payload = notification.payload as { report?: string; format?: Format; params?: Selection; from?: string; to?: string };
  // unsubscribed meanwhile: nothing is sent
  const still = notification.entityId !== null && await app.db.selectFrom('report_subscription').select('id').where('id', '=', notification.entityId).executeTakeFirst();
  if (!still || !payload.report || !payload.from || !payload.to) return undefined;
  const report: ReportDecl | undefined = variant.bundle.reports[payload.report];
  if (!report || !(report.roles as string[]).includes(recipient.session.role)) return undefined;
  const t = variant.t;
  const params: RunParams = {
    from: payload.from, to: payload.to,
    groupBy: (payload.params?.groupBy as RunParams['groupBy'] | undefined) ?? report.defaults.groupBy,
    filters: (payload.params?.filters ?? {}) as RunParams['filters'],
  };
  const reader = { db: app.db, bundle: variant.bundle, t, session: recipient.session, locale: variant.language?.locale, datePattern: variant.language?.datePattern, root: app.config.root };
  const result = await runFor(reader, report, params);
  const file = await reportFile(reader, report, params, result, payload.format === 'pdf' ? 'pdf' : 'xlsx', new Date(app.clock()));
  const dateText = (d: string) => isoDayText(d, variant.language?.datePattern ?? datePatternFor(variant.bundle));
  const vars = { appName: appNameOf(variant.bundle), report: t(report.label), from: dateText(params.from), to: dateText(params.to), file: file.filename };
  const link = linkTo(context, {});
  return {
    subject: t(event.subject, vars),
    paragraphs: t(event.body, vars).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean),
    facts: [
      { label: t('reports:subscriptions.mail.report'), value: vars.report },
      { label: t('reports:subscriptions.mail.period'), value: `${vars.from} – ${vars.to}` },
      { label: t('reports:subscriptions.mail.rows'), value: String(result.rows.length) },
    ],
    title: t(event.title, vars),
    text: t(event.text, vars),
    link: link?.path ?? null,
    ...(link?.label ? { linkLabel: link.label } : {}),
    attachments: [{ filename: file.filename, content: file.content, contentType: file.mime }],
  };
};

export type ReportSubscriptions = ReturnType<typeof createService>;

declare module 'fastify' {
  interface FastifyInstance {
    reportSubscriptions: ReportSubscriptions;
  }
}

export default fp(async (app) => {
  const service = createService(app);
  app.decorate('reportSubscriptions', service);
  app.notifications.renderers.register('reportSubscription', renderSubscription);
  app.notifications.whenStarted(async (queue) => {
    await queue.boss.createQueue(SUBSCRIPTION_QUEUE, { policy: 'singleton', deleteAfterSeconds: JOB_HISTORY_SECONDS });
    await queue.boss.schedule(SUBSCRIPTION_QUEUE, '*/15 * * * *');
    await queue.boss.work(SUBSCRIPTION_QUEUE, async ([job]) => {
      await runJob(app.log, SUBSCRIPTION_QUEUE, job, () => service.schedule());
    });
  });
}, { name: 'report-subscriptions', dependencies: ['notifications'] });
