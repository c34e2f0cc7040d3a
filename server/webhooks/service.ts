/**
 * `app.webhooks` (issue 35): the outbox writer the changes call in their transactions, the
 * delivery worker on the notifications' job queue (pg-boss), and the administrators' endpoints,
 * log, resend and recovery. The pieces are the modules beside this one.
 *
 * Queue `webhook-delivery`: one job per message attempt, queued in the transaction that writes the
 * message (or schedules its next attempt, with pg-boss `startAfter`), so a due message is picked
 * up when it becomes due, not by a sweep. Jobs carry their endpoint: a process sends at most
 * `concurrencyPerEndpoint` messages at once to one endpoint (EndpointLimiter), `concurrency` in all.
 * `webhook-sweep` (pg-boss cron, once across processes) queues what a lost job left and trims the log.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Kysely, type Selectable, type SelectQueryBuilder, type Transaction } from 'kysely';
import { diffRows, recordChange, type Actor } from '../audit/index.ts';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import { HttpError } from '../http-error.ts';
import { JOB_HISTORY_SECONDS, executorOf, workInBatches, type JobQueue } from '../jobs/queue.ts';
import { closeAgents } from './send.ts';
import { jobLogger, queuedBy, runJob } from '../jobs/job-log.ts';
import { AllowedHosts, urlProblem } from './address.ts';
import { deliverMessage, REASON, sweepMessages, type DeliveryDeps } from './delivery.ts';
import { deliverySettings, TEST_EVENT, webhooksFile } from './events.ts';
import { newEventId, payloadOf, writeEvent, type RaisedEvent } from './outbox.ts';
import { newEndpointSecret, SecretBox } from './secrets.ts';
import { testOutcome } from './test-outcome.ts';
import { writeImportFinished, type Query } from './import-finished.ts';
import { patternText } from '../../runtime/core/date-text.ts';
import type { Db } from 'pg-boss';

export const WEBHOOK_QUEUE = 'webhook-delivery';
export const WEBHOOK_SWEEP_QUEUE = 'webhook-sweep';
/** A rotated-out secret still signs for this long, so receivers can switch without losing a message. */
const ROTATION_HOURS = 24;
const SWEEP_LIMIT = 1000;

export interface WebhookOptions {
  /** WEBHOOK_SECRET_KEY: the operator's secret the endpoints' secrets are encrypted under. */
  secretKey?: string;
  /** WEBHOOK_ALLOW_HOSTS: hosts (or host:port) exempt from the address check, and the only ones allowed over http. */
  allowHosts?: string;
  /** Deliver in this process (default: when the notifications' worker runs). */
  worker?: boolean;
  /** How often an idle worker asks for jobs (seconds, at least 0.5). */
  pollingIntervalSeconds?: number;
  /** Overrides of screens/webhooks.json `delivery` (tests shorten the schedule). */
  delivery?: Partial<import('./events.ts').DeliverySettings>;
}

/** Who manages endpoints: every client (an administrator), or an integration account's clients. */
/** Who manages endpoints: the clients whose endpoints they are, and the actor the trail names (issue 37). */
export type Manager = ({ clients: 'all' } | { clients: string[] }) & { actor?: Actor };
/** The endpoint fields the trail records; the signing secrets only as "zmieniono". */
const AUDITED_FIELDS = ['url', 'description', 'events', 'clients', 'enabled', 'secret', 'previousSecret'];
const auditEndpoint = async (trx: Kysely<DB>, manager: Manager, id: number, action: string, before: unknown, after: unknown) => {
  if (!manager.actor) return;
  await recordChange(trx as Transaction<DB>, {
    actor: manager.actor, resource: 'webhook-endpoint', recordKey: id, action,
    changes: diffRows(before as Record<string, unknown> | null, after as Record<string, unknown> | null, AUDITED_FIELDS),
  });
};
/** Messages of an endpoint sent again by hand (resend, recover): in the endpoint's history, as the manager's. */
const auditSending = async (trx: Transaction<DB>, manager: Manager, endpointId: number, action: 'send-again' | 'recover', changes: Record<string, [unknown, unknown]>) => {
  if (!manager.actor) return;
  await recordChange(trx, { actor: manager.actor, resource: 'webhook-endpoint', recordKey: endpointId, action, changes });
};

export interface EndpointInput {
  url: string;
  description?: string | null;
  events: string[];
  clients?: string[] | null;
  enabled?: boolean;
}

type EndpointRow = Selectable<DB['webhook_endpoint']>;

export function createWebhooks(app: FastifyInstance, options: WebhookOptions) {
  const secrets = new SecretBox(options.secretKey);
  const allowed = new AllowedHosts(options.allowHosts);
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const settings = () => ({ ...deliverySettings(webhooksFile(app.config.bundle)), ...options.delivery });
  let queue: JobQueue | undefined;

  async function enqueue(db: Kysely<DB>, messages: { id: number; endpointId: number }[], delaySeconds = 0) {
    await enqueueOn(executorOf(db), messages, delaySeconds);
  }

  /** The jobs of `messages` written through `executor` (a transaction's connection, or not). */
  async function enqueueOn(executor: Db, messages: { id: number; endpointId: number }[], delaySeconds = 0) {
    if (!queue?.started) return;
    for (const m of messages) {
      await queue.boss.send(WEBHOOK_QUEUE, { id: m.id, endpointId: m.endpointId, ...queuedBy() }, {
        db: executor, ...(delaySeconds > 0 ? { startAfter: delaySeconds } : {}),
      });
    }
  }

  // per endpoint: a counter in this process (pg-boss's localGroupConcurrency halved the rate in the bench)
  let perEndpoint = new EndpointLimiter(settings().concurrencyPerEndpoint);
  const deps: DeliveryDeps = {
    db: app.db, secrets, allowed, settings, enqueue,
    limit: (endpointId, send) => perEndpoint.run(String(endpointId), send),
    async onDisabled(endpointId, reason) {
      jobLogger(app.log).warn({ endpoint: endpointId, reason }, 'webhook endpoint disabled');
      await app.notifications.record(app.db, {
        occurrence: { kind: 'webhookDisabled' }, entityId: endpointId, seq: `${reason}:${Date.now()}`,
        record: { klientSymbol: null }, payload: { endpointId, url: (await app.db.selectFrom('webhook_endpoint').select('url').where('id', '=', endpointId).executeTakeFirst())?.url ?? '', reason: t(`webhooks:reasons.${reason}`) },
      }).catch((error) => jobLogger(app.log).error({ err: error }, 'the administrators could not be told of a disabled webhook'));
    },
  };

  const notFound = () => new HttpError(404, t('webhooks:messages.notFound'));
  // the message says what is wrong in words; which field is the `errors` entry's (the form puts it there)
  const badField = (field: string, key: string, vars?: Record<string, unknown>) => new HttpError(400, t(key, vars), { code: 'VALIDATION', errors: [{ field, message: t(key, vars) }] });

  /** The endpoints a manager may see: all, or those whose clients are all theirs. */
  const ofManager = (manager: Manager) => <O>(qb: SelectQueryBuilder<DB, 'webhook_endpoint', O>): SelectQueryBuilder<DB, 'webhook_endpoint', O> => manager.clients === 'all' ? qb
    : qb.where('clients', 'is not', null).where(sql<boolean>`"clients" <@ ${jsonb(manager.clients)}`);

  function shape(row: EndpointRow) {
    return {
      id: Number(row.id), url: row.url, description: row.description ?? null, events: row.events as string[],
      clients: (row.clients as string[] | null) ?? null, enabled: row.enabled, disabledReason: row.disabledReason ?? null,
      disabledReasonText: row.disabledReason ? t(`webhooks:reasons.${row.disabledReason}`) : null,
      rotating: Boolean(row.previousSecret && row.previousSecretUntil && new Date(row.previousSecretUntil) > new Date()),
      createdAt: new Date(row.createdAt).toISOString(), updatedAt: new Date(row.updatedAt).toISOString(),
    };
  }

  async function endpointOf(manager: Manager, id: number, db: Kysely<DB> = app.db) {
    const row = await db.selectFrom('webhook_endpoint').selectAll().where('id', '=', id).$call(ofManager(manager)).executeTakeFirst();
    if (!row) throw notFound();
    return row as EndpointRow;
  }

  async function validate(manager: Manager, input: EndpointInput): Promise<{ clients: string[] | null }> {
    const problem = urlProblem(input.url, allowed);
    if (problem) throw badField('url', problem === 'httpNotAllowed' ? 'webhooks:messages.httpNotAllowed' : 'webhooks:messages.urlInvalid');
    const declared = new Set(webhooksFile(app.config.bundle).events.map((e) => e.id));
    const unknown = input.events.findIndex((e) => !declared.has(e));
    if (unknown >= 0) throw badField(`events.${unknown}`, 'webhooks:messages.eventUnknown');
    const clients = input.clients?.length ? [...new Set(input.clients)] : null;
    if (manager.clients !== 'all') {
      // an integration account's endpoint gets its own clients' events, never another's
      if (!clients) throw badField('clients', 'webhooks:messages.clientsRequired');
      const foreign = clients.findIndex((c) => !(manager.clients as string[]).includes(c));
      if (foreign >= 0) throw badField(`clients.${foreign}`, 'webhooks:messages.clientUnknown');
    }
    if (clients) {
      const known = new Set((await app.db.selectFrom('client').select('klient').where('klient', 'in', clients).execute()).map((r: { klient: string }) => r.klient));
      const missing = clients.findIndex((c) => !known.has(c));
      if (missing >= 0) throw badField(`clients.${missing}`, 'webhooks:messages.clientUnknown');
    }
    return { clients };
  }

  /** The message's first attempt once recorded (by whichever process sends it), or undefined after `withinMs`. */
  async function firstAttempt(messageId: number, withinMs: number) {
    const until = Date.now() + withinMs;
    for (;;) {
      const attempt = await app.db.selectFrom('webhook_attempt').select(['status', 'error']).where('messageId', '=', messageId).orderBy('id').executeTakeFirst();
      if (attempt || Date.now() >= until) return attempt && { status: attempt.status ?? null, error: attempt.error ?? null };
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const service = {
    secrets,
    /**
     * Writes an event's messages in the caller's transaction `trx`, with their delivery jobs:
     * they commit with the change or not at all.
     */
    async emit(trx: Kysely<DB>, raised: RaisedEvent): Promise<number> {
      const written = await writeEvent(trx, (k) => app.config.forClient(k).bundle, app.config.bundle, raised);
      await enqueue(trx, written);
      return written.length;
    },

    /**
     * `import.finished`: the messages of an ended run and their jobs, written through `query` — the
     * connection (in its transaction) that gives the run its final state (server/imports/service.ts).
     */
    async importFinished(query: Query, runId: number): Promise<number> {
      const written = await writeImportFinished(query, (variant) => webhooksFile(app.config.forVariant(variant).bundle), runId);
      await enqueueOn({ executeSql: async (text, values) => ({ rows: (await query(text, values)).rows }) }, written);
      return written.length;
    },

    /** Delivers one message now if it is due (the job's work; tests call it too). */
    deliver: (id: number) => deliverMessage(deps, id),
    sweep: () => sweepMessages(deps, SWEEP_LIMIT),

    events() {
      return webhooksFile(app.config.bundle).events.map((e) => ({ id: e.id, label: t(e.label), resource: e.resource, description: e.description }));
    },

    /** The clients an endpoint of this manager may name (the form's choices). */
    async clients(manager: Manager) {
      // by name, as people look for a client; the code after the name tells two of a name apart
      let q = app.db.selectFrom('client').select(['klient', 'klientNazwa']).orderBy('klientNazwa').orderBy('klient');
      if (manager.clients !== 'all') q = q.where('klient', 'in', manager.clients.length ? manager.clients : ['']);
      return (await q.execute()).map((c: { klient: string; klientNazwa: string | null }) => ({ klient: c.klient, klientNazwa: c.klientNazwa ? `${c.klientNazwa} (${c.klient})` : c.klient }));
    },

    async list(manager: Manager, page: { offset: number; limit: number }) {
      const base = app.db.selectFrom('webhook_endpoint').$call(ofManager(manager));
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow() as Promise<{ total: unknown }>,
        base.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      ]);
      return { rows: rows.map((r: unknown) => shape(r as EndpointRow)), total: Number(total) };
    },

    async get(manager: Manager, id: number) {
      return shape(await endpointOf(manager, id));
    },

    /** A new endpoint; its secret is answered now and never again. */
    async create(manager: Manager, input: EndpointInput) {
      const { clients } = await validate(manager, input);
      const secret = newEndpointSecret();
      const row = await app.db.transaction().execute(async (trx) => {
        const made = await trx.insertInto('webhook_endpoint').values({
          url: input.url, description: input.description ?? null, events: jsonb([...new Set(input.events)]),
          clients: clients ? jsonb(clients) : null, secret: secrets.seal(secret), enabled: input.enabled ?? true,
        }).returningAll().executeTakeFirstOrThrow();
        await auditEndpoint(trx, manager, Number(made.id), 'create', null, made);
        return made;
      });
      return { endpoint: shape(row as EndpointRow), secret, message: t('webhooks:messages.created') };
    },

    /** Saves the endpoint whole; enabling it again forgets why it was disabled and its failures. */
    async update(manager: Manager, id: number, input: EndpointInput) {
      const before = await endpointOf(manager, id);
      const { clients } = await validate(manager, input);
      const enabled = input.enabled ?? before.enabled;
      const row = await app.db.transaction().execute(async (trx) => {
        const saved = await trx.updateTable('webhook_endpoint').set({
          url: input.url, description: input.description ?? null, events: jsonb([...new Set(input.events)]),
          clients: clients ? jsonb(clients) : null, enabled, updatedAt: new Date(),
          ...(enabled && !before.enabled ? { disabledReason: null, failingSince: null } : {}),
          ...(!enabled && before.enabled ? { disabledReason: null } : {}),
        }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
        await auditEndpoint(trx, manager, id, 'update', before, saved);
        return saved;
      });
      return { endpoint: shape(row as EndpointRow), message: t('webhooks:messages.saved') };
    },

    async remove(manager: Manager, id: number) {
      const before = await endpointOf(manager, id);
      await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('webhook_endpoint').where('id', '=', id).execute();
        await auditEndpoint(trx, manager, id, 'delete', before, null);
      });
      return { message: t('webhooks:messages.deleted') };
    },

    /** A new secret, answered once; the current one keeps signing beside it for ROTATION_HOURS. */
    async rotate(manager: Manager, id: number) {
      const before = await endpointOf(manager, id);
      const secret = newEndpointSecret();
      await app.db.transaction().execute(async (trx) => {
        const after = await trx.updateTable('webhook_endpoint').set({
          secret: secrets.seal(secret), previousSecret: before.secret,
          previousSecretUntil: sql<Date>`now() + make_interval(hours => ${ROTATION_HOURS})`, updatedAt: new Date(),
        }).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
        await auditEndpoint(trx, manager, id, 'rotate-secret', before, after);
      });
      return { secret, message: t('webhooks:messages.rotated') };
    },

    /**
     * "Send a test event": one message to this endpoint only, delivered like any other. With
     * `wait` (the screen's button) the answer waits for the first attempt, at most as long as a
     * delivery may take, and says what happened (test-outcome.ts); without it, that it was queued.
     */
    async test(manager: Manager, id: number, options: { wait?: boolean } = {}) {
      const endpoint = await endpointOf(manager, id);
      const eventId = newEventId();
      const queued = await app.db.transaction().execute(async (trx) => {
        const payload = payloadOf(webhooksFile(app.config.bundle), TEST_EVENT, { endpointId: Number(endpoint.id), text: t('webhooks:events.test') }, () => ({}));
        const row = await trx.insertInto('webhook_message').values({
          eventId, endpointId: endpoint.id, event: TEST_EVENT, lane: `test:${eventId}`, payload: jsonb(payload),
        }).returning(['id']).executeTakeFirstOrThrow();
        await enqueue(trx, [{ id: Number(row.id), endpointId: Number(endpoint.id) }]);
        return { id: Number(row.id), eventId };
      });
      if (!options.wait) return { ...queued, outcome: 'pending' as const, message: t('webhooks:messages.testPending') };
      const attempt = await firstAttempt(queued.id, (settings().timeoutSeconds + 3) * 1000);
      return { ...queued, ...testOutcome(attempt, t) };
    },

    /** The endpoint's log: its messages, newest first, with their last answer. */
    async messages(manager: Manager, id: number, page: { offset: number; limit: number }) {
      await endpointOf(manager, id);
      const base = app.db.selectFrom('webhook_message').where('endpointId', '=', id);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
        base.select(['id', 'eventId', 'event', 'state', 'attempts', 'lastStatus', 'lastError', 'createdAt', 'deliveredAt', 'nextAttemptAt'])
          .orderBy('createdAt', 'desc').orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      ]);
      return {
        total: Number(total),
        rows: rows.map((r) => ({
          id: Number(r.id), eventId: r.eventId, event: r.event, state: r.state, attempts: r.attempts,
          lastStatus: r.lastStatus ?? null, lastError: r.lastError ?? null,
          createdAt: new Date(r.createdAt).toISOString(), deliveredAt: r.deliveredAt ? new Date(r.deliveredAt).toISOString() : null,
          nextAttemptAt: r.state === 'pending' ? new Date(r.nextAttemptAt).toISOString() : null,
        })),
      };
    },

    /** One message with its payload and every attempt (time, status, duration, answer). */
    async message(manager: Manager, messageId: number) {
      const row = await app.db.selectFrom('webhook_message').selectAll().where('id', '=', messageId).executeTakeFirst();
      if (!row) throw new HttpError(404, t('webhooks:messages.messageNotFound'));
      await endpointOf(manager, Number(row.endpointId)).catch(() => {
        throw new HttpError(404, t('webhooks:messages.messageNotFound'));
      });
      const attempts = await app.db.selectFrom('webhook_attempt').selectAll().where('messageId', '=', messageId).orderBy('id').execute();
      return {
        id: Number(row.id), eventId: row.eventId, endpointId: Number(row.endpointId), event: row.event, state: row.state,
        attempts: attempts.map((a) => ({
          attemptedAt: new Date(a.attemptedAt).toISOString(), status: a.status ?? null, durationMs: a.durationMs,
          response: a.response ?? null, error: a.error ?? null,
        })),
        payload: row.payload as Record<string, unknown>,
        createdAt: new Date(row.createdAt).toISOString(),
      };
    },

    /** Sends one message again (same webhook-id), now. */
    async resend(manager: Manager, messageId: number) {
      const row = await app.db.selectFrom('webhook_message').select(['id', 'endpointId', 'state', 'event']).where('id', '=', messageId).executeTakeFirst();
      if (!row) throw new HttpError(404, t('webhooks:messages.messageNotFound'));
      await endpointOf(manager, Number(row.endpointId)).catch(() => {
        throw new HttpError(404, t('webhooks:messages.messageNotFound'));
      });
      if (row.state === 'sending') throw new HttpError(409, t('webhooks:messages.sending'), { code: 'SENDING' });
      await app.db.transaction().execute(async (trx) => {
        await trx.updateTable('webhook_message').set({ state: 'pending', nextAttemptAt: new Date(), claimedAt: null })
          .where('id', '=', messageId).where('state', '<>', 'sending').execute();
        await enqueue(trx, [{ id: messageId, endpointId: Number(row.endpointId) }]);
        // the trail (issue 45): who sent which message again, in the endpoint's history
        await auditSending(trx, manager, Number(row.endpointId), 'send-again', { messageId: [null, messageId], event: [null, row.event] });
      });
      return { message: t('webhooks:messages.resent') };
    },

    /**
     * Every message of the endpoint failed since `since`, sent again (same webhook-ids). `since` is
     * an instant, or a wall-clock time without an offset (the screen's day and HH:mm), read in
     * the portal's time zone — the database session's (server/db/connect.ts).
     */
    async recover(manager: Manager, id: number, since: string | Date) {
      await endpointOf(manager, id);
      const text = since instanceof Date ? since.toISOString() : since;
      // a date the pattern lets through but the calendar does not (2026-02-30, 25:00): 400, not the database's error
      const [, y, mo, d, h, mi, sec] = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?/.exec(text) ?? [];
      const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec ?? 0)));
      const offsetHours = Number(/[+-](\d{2})(:?\d{2})?$/.exec(text.slice(16))?.[1] ?? 0);
      if (!y || Number.isNaN(at.getTime()) || at.getUTCMonth() !== Number(mo) - 1 || at.getUTCDate() !== Number(d)
        || at.getUTCHours() !== Number(h) || at.getUTCMinutes() !== Number(mi) || offsetHours > 14) {
        // the form's field reads the reader's pattern: the message names it in his letters (DD/MM/YYYY HH:MM)
        throw badField('since', 'webhooks:messages.sinceInvalid', { pattern: patternText(app.config.language.datePattern, (key) => t(key), true) });
      }
      return app.db.transaction().execute(async (trx) => {
        const rows = await trx.updateTable('webhook_message').set({ state: 'pending', nextAttemptAt: new Date(), claimedAt: null })
          .where('endpointId', '=', id).where('state', '=', 'failed').where('createdAt', '>=', sql<Date>`${text}::timestamptz`)
          .returning(['id']).execute();
        await enqueue(trx, rows.map((r) => ({ id: Number(r.id), endpointId: id })));
        // the trail (issue 45): who sent the failed messages again, from when and how many; none found changed nothing
        if (rows.length) await auditSending(trx, manager, id, 'recover', { since: [null, text], messages: [null, rows.length] });
        return { count: rows.length, message: t('webhooks:messages.recovered', { count: rows.length }) };
      });
    },

    /** The worker and the sweep on the notifications' queue (called each time that queue starts). */
    async start(started: JobQueue) {
      queue = started;
      const s = settings();
      await started.boss.createQueue(WEBHOOK_QUEUE, {
        // a job whose process died is run again after a minute; the message itself is claimable again too (delivery.ts)
        retryLimit: 5, retryDelay: 30, expireInSeconds: Math.max(60, s.timeoutSeconds * 2 + 30), deleteAfterSeconds: JOB_HISTORY_SECONDS,
      });
      await started.boss.createQueue(WEBHOOK_SWEEP_QUEUE, { policy: 'singleton', deleteAfterSeconds: JOB_HISTORY_SECONDS });
      await started.boss.schedule(WEBHOOK_SWEEP_QUEUE, '* * * * *');
      if (options.worker === false) return;
      const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1, batchSize: 1 };
      perEndpoint = new EndpointLimiter(s.concurrencyPerEndpoint);
      // fetched and settled in batches (queue.ts workInBatches): two statements per batch, not per
      // message; the batch's claims and ends share statements too (delivery.ts DeliveryStatements)
      await workInBatches<{ id: number; endpointId?: number }>(started.boss, WEBHOOK_QUEUE, { concurrency: s.concurrency, pollingIntervalSeconds: polling.pollingIntervalSeconds }, (job) =>
        runJob(app.log, WEBHOOK_QUEUE, job, () => deliverMessage(deps, Number(job.data.id)), { webhookMessageId: Number(job.data.id) }));
      await started.boss.work(WEBHOOK_SWEEP_QUEUE, polling, async ([job]) => runJob(app.log, WEBHOOK_SWEEP_QUEUE, job, () => sweepMessages(deps, SWEEP_LIMIT)));
    },

    stop() {
      queue = undefined;
      closeAgents();
    },
  };
  return service;
}

/** At most `limit` deliveries at once to one endpoint in this process; the others wait their turn. */
export class EndpointLimiter {
  readonly #running = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();

  constructor(private readonly limit: number) {}

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    if ((this.#running.get(key) ?? 0) >= this.limit) {
      await new Promise<void>((resolve) => this.#waiting.set(key, [...(this.#waiting.get(key) ?? []), resolve]));
    } else {
      this.#running.set(key, (this.#running.get(key) ?? 0) + 1);
    }
    try {
      return await work();
    } finally {
      const next = this.#waiting.get(key)?.shift();
      // the slot passes to the next waiting delivery, or is given back
      if (next) next();
      else this.#running.set(key, (this.#running.get(key) ?? 1) - 1);
    }
  }
}

export type Webhooks = ReturnType<typeof createWebhooks>;

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export default fp<WebhookOptions>(async (app, options) => {
  const webhooks = createWebhooks(app, options);
  if (webhooks.secrets.development) app.log.warn('WEBHOOK_SECRET_KEY is not set: webhook secrets are encrypted under the development key');
  app.decorate('webhooks', webhooks);
  app.notifications.whenStarted(async (queue) => webhooks.start(queue));
  app.addHook('preClose', async () => webhooks.stop());
}, { name: 'webhooks', dependencies: ['db', 'config', 'notifications'] });
