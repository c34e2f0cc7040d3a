/**
 * Delivering one webhook message (Standard Webhooks; docs/integration.md "Receive events"):
 *
 * 1. Claim: one conditional UPDATE moves the message to sending when it is due and no earlier
 *    message of its endpoint and record (its lane) is still undelivered, so an order's events
 *    reach an endpoint in the order they happened, while other records' messages go on. Of any
 *    number of processes or jobs, one finds it claimable. A message left in sending by a process
 *    that died is claimable again after a while: delivery is at least once, and the receiver
 *    drops a repeated `webhook-id`.
 * 2. The endpoint's address is resolved and checked now (address.ts), the body signed with the
 *    endpoint's secret (and the previous one during a rotation), and posted (send.ts).
 * 3. 2xx: delivered. 410: the endpoint is disabled at once. Otherwise the next attempt is
 *    scheduled after the configured delay (or the answer's Retry-After, when longer); after the
 *    last, failed. An endpoint whose every attempt failed for `disableAfterDays` is disabled.
 *    When a message is finished (delivered or failed) the next one of its lane is queued.
 */
import DataLoader from 'dataloader';
import { sql, type Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { DB } from '../db/types.generated.ts';
import { AddressNotAllowed, resolveTarget, type AllowedHosts } from './address.ts';
import type { DeliverySettings } from './events.ts';
import type { SecretBox } from './secrets.ts';
import { postSigned, type AttemptResult } from './send.ts';

/** Reason codes kept in lastError / disabledReason (texts: locales/pl/webhooks.json `reasons`). */
export const REASON = {
  gone: 'GONE',
  failing: 'FAILING',
  endpointDisabled: 'ENDPOINT_DISABLED',
  retriesExhausted: 'RETRIES_EXHAUSTED',
  addressNotAllowed: 'ADDRESS_NOT_ALLOWED',
} as const;

export interface DeliveryDeps {
  db: Kysely<DB>;
  secrets: SecretBox;
  allowed: AllowedHosts;
  settings: () => DeliverySettings;
  /** Queues a message's job in `db` (a transaction or not), to run after `delaySeconds`. */
  enqueue(db: Kysely<DB>, messages: { id: number; endpointId: number }[], delaySeconds?: number): Promise<void>;
  /** An endpoint was disabled (410, or failing for days): the administrators are told. */
  onDisabled(endpointId: number, reason: string): Promise<void>;
  /**
   * Runs a request to an endpoint when it may be sent: at most `concurrencyPerEndpoint` at once to
   * one endpoint (service.ts EndpointLimiter). Only the HTTP exchange holds the turn: the claim
   * and the end of a message are the database's, and a receiver waits for neither.
   */
  limit?<T>(endpointId: number, send: () => Promise<T>): Promise<T>;
}

export type Outcome = 'delivered' | 'retrying' | 'failed' | 'nothing';

interface AttemptRow {
  attemptedAt: Date;
  status: number | null;
  durationMs: number;
  response: string | null;
  error: string | null;
}

/** A message in sending longer than this belonged to a process that died (the attempt's time-out, with a margin). */
const stuckSeconds = (settings: DeliverySettings) => settings.timeoutSeconds * 2 + 30;

export function signatureHeaders(secrets: string[], eventId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    // one signature per secret, space-separated: a receiver with either secret verifies (rotation)
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(eventId, at, body)).join(' '),
  };
}

interface ClaimedMessage {
  id: string; eventId: string; endpointId: string; lane: string; payload: unknown; attempts: number;
  url: string; secret: string; previousSecret: string | null; previousSecretUntil: Date | null; enabled: boolean; failingSince: Date | null;
}

interface Finishing {
  id: number;
  state: 'delivered' | 'failed';
  status: number | null;
  error: string | null;
  attempt?: AttemptRow;
}

/**
 * The claims and the ends of the messages one process delivers side by side, each a statement for
 * all of them (DataLoader: the calls made in one turn of the event loop, or within a few
 * milliseconds for the ends, which arrive as the receivers answer). A delivery's own steps and its
 * outcome stay its own; what it saves is two statements per message on the database the receivers'
 * answers wait for (docs/benchmarks.md "Webhooks"). One pair per `db` and settings' stuck time.
 */
class DeliveryStatements {
  readonly claim: DataLoader<number, ClaimedMessage | null>;
  readonly finish: DataLoader<Finishing, void>;

  constructor(deps: DeliveryDeps) {
    const { db } = deps;
    this.claim = new DataLoader(async (ids) => {
      // one statement claims each message that is due and whose lane is free: of any number of
      // processes or jobs, one finds a message claimable; two of one lane in a batch: the earlier only
      const { rows } = await sql<ClaimedMessage>`
        update webhook_message m set "state" = 'sending', "claimedAt" = now(), "attempts" = m."attempts" + 1
        from webhook_endpoint e
        where m."id" = any(${[...ids]}::bigint[]) and e."id" = m."endpointId"
          and (m."state" = 'pending' or (m."state" = 'sending' and m."claimedAt" < now() - make_interval(secs => ${stuckSeconds(deps.settings())})))
          and m."nextAttemptAt" <= now() + interval '1 second'
          and not exists (
            select 1 from webhook_message p
            where p."endpointId" = m."endpointId" and p."lane" = m."lane" and p."id" < m."id" and p."state" in ('pending', 'sending'))
        returning m."id", m."eventId", m."endpointId", m."lane", m."payload", m."attempts",
                  e."url", e."secret", e."previousSecret", e."previousSecretUntil", e."enabled", e."failingSince"`.execute(db);
      // two jobs of one message fetched together (its own, and the one the end of the message before
      // it in its lane queued) load the same id twice: the claimed row goes to the first, the other
      // finds nothing, as it would have in a statement of its own
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      return ids.map((id) => {
        const claimed = byId.get(id) ?? null;
        byId.delete(id);
        return claimed;
      });
    }, { cache: false });

    this.finish = new DataLoader(async (items) => {
      // the messages end (with their attempts, when there were), and the next of each lane is
      // found: one statement. The select reads the rows as before the update, so the ended
      // messages (still sending there) are left out by id.
      const input = JSON.stringify(items.map((f) => ({
        id: f.id, state: f.state, status: f.status, error: f.error, attempted: Boolean(f.attempt),
        attemptedAt: f.attempt?.attemptedAt ?? null, attemptStatus: f.attempt?.status ?? null, durationMs: f.attempt?.durationMs ?? null,
        response: f.attempt?.response ?? null, attemptError: f.attempt?.error ?? null,
      })));
      const { rows } = await sql<{ id: string; endpointId: string; nextAttemptAt: Date }>`
        with input as (
          select * from jsonb_to_recordset(${input}::jsonb) as x("id" bigint, "state" text, "status" integer, "error" text, "attempted" boolean,
            "attemptedAt" timestamptz, "attemptStatus" integer, "durationMs" integer, "response" text, "attemptError" text)),
        done as (
          update webhook_message m set "state" = i."state", "claimedAt" = null, "lastStatus" = i."status", "lastError" = i."error",
            "deliveredAt" = case when i."state" = 'delivered' then now() else m."deliveredAt" end
          from input i where m."id" = i."id" and m."state" = 'sending' returning m."id", m."endpointId", m."lane"),
        attempt as (
          insert into webhook_attempt ("messageId", "attemptedAt", "status", "durationMs", "response", "error")
          select i."id", i."attemptedAt", i."attemptStatus", i."durationMs", i."response", i."attemptError" from input i where i."attempted")
        select distinct on (n."endpointId", n."lane") n."id", n."endpointId", n."nextAttemptAt"
        from webhook_message n join (select distinct "endpointId", "lane" from done) d on n."endpointId" = d."endpointId" and n."lane" = d."lane"
        where n."state" in ('pending', 'sending') and n."id" not in (select "id" from input)
        order by n."endpointId", n."lane", n."id"`.execute(db);
      // the next of each lane is queued, due when it is due (most at once)
      const byDelay = new Map<number, { id: number; endpointId: number }[]>();
      for (const next of rows) {
        const delay = Math.max(0, Math.ceil((new Date(next.nextAttemptAt).getTime() - Date.now()) / 1000));
        byDelay.set(delay, [...(byDelay.get(delay) ?? []), { id: Number(next.id), endpointId: Number(next.endpointId) }]);
      }
      for (const [delay, messages] of byDelay) await deps.enqueue(db, messages, delay);
      return items.map(() => undefined);
    }, { cache: false, batchScheduleFn: (run) => setTimeout(run, FINISH_GATHER_MS) });
  }
}

/** How long the end of a delivery waits for others to share its statement (receivers answer a few ms apart). */
const FINISH_GATHER_MS = 2;

const statements = new WeakMap<DeliveryDeps, DeliveryStatements>();
const statementsOf = (deps: DeliveryDeps) => {
  let found = statements.get(deps);
  if (!found) statements.set(deps, (found = new DeliveryStatements(deps)));
  return found;
};

export async function deliverMessage(deps: DeliveryDeps, id: number): Promise<Outcome> {
  const { db } = deps;
  const settings = deps.settings();
  const batched = statementsOf(deps);
  const message = await batched.claim.load(id);
  if (!message) return 'nothing';
  const endpointId = Number(message.endpointId);
  const endpoint = message;

  /** Ends the message (with its attempt, when there was one) and queues the next of its lane. */
  const finish = (state: 'delivered' | 'failed', status: number | null, error: string | null, attempt?: AttemptRow) =>
    batched.finish.load({ id, state, status, error, attempt });

  if (!endpoint.enabled) return (await finish('failed', null, REASON.endpointDisabled), 'failed');

  const body = JSON.stringify(message.payload);
  // when the request goes out (after its turn at the endpoint): the attempt's time and the signed timestamp
  let at = new Date();
  let result: AttemptResult;
  try {
    const url = new URL(endpoint.url);
    const target = await resolveTarget(url, deps.allowed);
    // during a rotation the previous secret signs too: a receiver verifies with either
    const rotating = endpoint.previousSecret && endpoint.previousSecretUntil && new Date(endpoint.previousSecretUntil) > at;
    const secrets = [endpoint.secret, ...(rotating ? [endpoint.previousSecret!] : [])].map((s) => deps.secrets.open(s));
    const send = () => postSigned({
      url, target, body, headers: signatureHeaders(secrets, message.eventId, (at = new Date()), body),
      timeoutMs: settings.timeoutSeconds * 1000, responseBytes: settings.responseBytes, maxSockets: settings.concurrencyPerEndpoint,
    });
    result = await (deps.limit ? deps.limit(endpointId, send) : send());
  } catch (error) {
    const refused = error instanceof AddressNotAllowed;
    result = { body: '', durationMs: 0, error: refused ? `${REASON.addressNotAllowed}: ${error.message}` : `${(error as Error).name}: ${(error as Error).message}` };
  }
  const attempt: AttemptRow = {
    attemptedAt: at, status: result.status ?? null, durationMs: result.durationMs, response: result.body || null, error: result.error ?? null,
  };
  const status = result.status ?? null;
  if (status !== null && status >= 200 && status < 300) {
    if (endpoint.failingSince) await db.updateTable('webhook_endpoint').set({ failingSince: null }).where('id', '=', endpointId).execute();
    await finish('delivered', status, null, attempt);
    return 'delivered';
  }
  const error = result.error ?? `HTTP ${status}`;
  if (status === 410) {
    await disable(deps, endpointId, REASON.gone);
    await finish('failed', status, REASON.gone, attempt);
    return 'failed';
  }
  // every attempt failing for days: the endpoint is disabled
  const failing = await db.updateTable('webhook_endpoint')
    .set({ failingSince: sql<Date>`coalesce("failingSince", now())` })
    .where('id', '=', endpointId)
    .returning(sql<boolean>`"failingSince" < now() - make_interval(secs => ${Math.round(settings.disableAfterDays * 86400)})`.as('tooLong'))
    .executeTakeFirst();
  if (failing?.tooLong) {
    await disable(deps, endpointId, REASON.failing);
    await finish('failed', status, error, attempt);
    return 'failed';
  }
  const schedule = settings.scheduleSeconds;
  if (message.attempts > schedule.length) {
    await finish('failed', status, `${REASON.retriesExhausted}: ${error}`.slice(0, 1000), attempt);
    return 'failed';
  }
  const delay = Math.max(schedule[message.attempts - 1], Math.min(result.retryAfterSeconds ?? 0, schedule[schedule.length - 1]));
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('webhook_attempt').values({ messageId: id, ...attempt }).execute();
    await trx.updateTable('webhook_message')
      .set({ state: 'pending', claimedAt: null, lastStatus: status, lastError: error.slice(0, 1000), nextAttemptAt: sql<Date>`now() + make_interval(secs => ${delay})` })
      .where('id', '=', id).where('state', '=', 'sending').execute();
    await deps.enqueue(trx, [{ id, endpointId }], delay);
  });
  return 'retrying';
}

async function disable(deps: DeliveryDeps, endpointId: number, reason: string) {
  const changed = await deps.db.updateTable('webhook_endpoint').set({ enabled: false, disabledReason: reason, updatedAt: new Date() })
    .where('id', '=', endpointId).where('enabled', '=', true).executeTakeFirst();
  if (Number(changed.numUpdatedRows) > 0) await deps.onDisabled(endpointId, reason);
}

/**
 * The sweep (every minute, once across processes): messages due whose job was lost, or left in
 * sending by a process that died, are queued again; the log older than `keepDays` is removed.
 */
export async function sweepMessages(deps: DeliveryDeps, limit: number): Promise<number> {
  const settings = deps.settings();
  await deps.db.deleteFrom('webhook_message').where('state', 'in', ['delivered', 'failed'])
    .where('createdAt', '<', sql<Date>`now() - make_interval(days => ${settings.keepDays})`).execute();
  const due = await deps.db.selectFrom('webhook_message').select(['id', 'endpointId'])
    .where((eb) => eb.or([
      eb.and([eb('state', '=', 'pending'), eb('nextAttemptAt', '<', sql<Date>`now() - interval '1 minute'`)]),
      eb.and([eb('state', '=', 'sending'), eb('claimedAt', '<', sql<Date>`now() - make_interval(secs => ${stuckSeconds(settings)})`)]),
    ]))
    .orderBy('id').limit(limit).execute();
  if (due.length) await deps.enqueue(deps.db, due.map((m) => ({ id: Number(m.id), endpointId: Number(m.endpointId) })));
  return due.length;
}
