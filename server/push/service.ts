/**
 * `app.push` (issue 47): Web Push as one more channel of the notifications (DESIGN §9). The
 * caller's devices (subscribe, list, remove, a test message), the VAPID keys (keys.ts), and the
 * delivery of the outbox's push rows on the job queue (delivery.ts, registered with
 * `app.notifications.usePushChannel`). ACCESS.md "push subscriptions, push test | self" for every
 * role: each person sees and removes only his own devices; another's is answered 404.
 *
 * A device's endpoint must be https on a public address (the webhooks' guard, server/webhooks/
 * address.ts), except the hosts of PUSH_ALLOW_HOSTS, which may also be plain http (tests, a push
 * service inside the network).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../audit/index.ts';
import type { Session } from '../auth/session.ts';
import { HttpError } from '../http-error.ts';
import { AddressNotAllowed, AllowedHosts, resolveTarget, urlProblem } from '../webhooks/address.ts';
import { deviceLabel } from './device-label.ts';
import { deliverPush, sweepPush } from './delivery.ts';
import { loadVapidKeys, type VapidKeys } from './keys.ts';
import { sendPush, type PushOutcome } from './send.ts';

export interface PushOptions {
  /** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (both or neither; neither: made once and stored sealed). */
  publicKey?: string;
  privateKey?: string;
  /** VAPID_SUBJECT: mailto: or https: (default: PUBLIC_URL when https). */
  subject?: string;
  /** WEBHOOK_SECRET_KEY: the stored private key is sealed under a key derived from it. */
  secretKey?: string;
  /** PUSH_ALLOW_HOSTS: comma-separated host or host:port exempt from the public-address rule, and the only ones over http. */
  allowHosts?: string;
  /** PUBLIC_URL (the default VAPID subject when https). */
  publicUrl?: string;
}

/** The browser's PushSubscription, as `subscription.toJSON()` gives it. */
export interface SubscriptionBody {
  endpoint: string;
  expirationTime?: number | null;
  keys: { p256dh: string; auth: string };
}

const bytes = (text: string) => Buffer.from(text, 'base64url');
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** 400 naming the field, in the caller's language. */
function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });
}

function createPush(app: FastifyInstance, options: PushOptions) {
  const allowed = new AllowedHosts(options.allowHosts);
  let keys: Promise<VapidKeys> | undefined;
  /** The key pair, read (or made) once; a failure (the database away) is tried again at the next use. */
  const vapid = (): Promise<VapidKeys> => {
    keys ??= loadVapidKeys(app.db, {
      publicKey: options.publicKey, privateKey: options.privateKey, subject: options.subject,
      secretKey: options.secretKey, publicUrl: options.publicUrl ?? 'http://localhost:3000',
    }).then((loaded) => {
      app.log.info({ vapidKeys: loaded.source, vapidPublicKey: loaded.publicKey }, 'web push: VAPID keys in use');
      return loaded;
    }).catch((error) => {
      keys = undefined;
      throw error;
    });
    return keys;
  };
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);

  /** The endpoint as the guard judges it: https and a public address, or a host of PUSH_ALLOW_HOSTS. */
  async function checkEndpoint(endpoint: string): Promise<URL> {
    const problem = urlProblem(endpoint, allowed);
    if (problem === 'invalid') throw invalid('endpoint', t('push:errors.endpointInvalid'));
    if (problem === 'httpNotAllowed') throw invalid('endpoint', t('push:errors.endpointNotHttps'));
    const url = new URL(endpoint);
    try {
      await resolveTarget(url, allowed);
    } catch (error) {
      if (error instanceof AddressNotAllowed || (error as NodeJS.ErrnoException).code) throw invalid('endpoint', t('push:errors.endpointNotPublic'));
      throw error;
    }
    return url;
  }

  function checkKeys(body: SubscriptionBody) {
    const p256dh = bytes(body.keys.p256dh);
    // an uncompressed P-256 point (RFC 8291 §3.1) and a 16-byte authentication secret (§3.2)
    if (p256dh.length !== 65 || p256dh[0] !== 4) throw invalid('keys.p256dh', t('push:errors.p256dh'));
    if (bytes(body.keys.auth).length !== 16) throw invalid('keys.auth', t('push:errors.auth'));
  }

  /** What the trail keeps of a device: whose, which, at which push service; never its endpoint's secret path or its keys. */
  const trailOf = (row: { userId: number; device: string | null; endpoint: string }) => ({
    userId: row.userId, device: row.device, pushService: new URL(row.endpoint).host,
  });

  async function subscribe(session: Session, actor: Actor, body: SubscriptionBody, userAgent: string | undefined) {
    await checkEndpoint(body.endpoint);
    checkKeys(body);
    const device = deviceLabel(userAgent);
    const values = {
      userId: session.userId, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth,
      expirationTime: typeof body.expirationTime === 'number' ? new Date(body.expirationTime) : null,
      userAgent: userAgent?.slice(0, 500) ?? null, device,
    };
    return app.db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('push_subscription').selectAll().where('endpoint', '=', body.endpoint).forUpdate().executeTakeFirst();
      // the same browser subscribing again (or another person signed in on it now): one row, his
      const row = await trx.insertInto('push_subscription').values(values)
        .onConflict((oc) => oc.column('endpoint').doUpdateSet({ ...values, lastError: null, lastFailureAt: null, ...(before && before.userId !== session.userId ? { createdAt: new Date(), lastSuccessAt: null } : {}) }))
        .returningAll().executeTakeFirstOrThrow();
      await app.writes.record(trx, {
        actor, resource: 'push-subscription', key: row.id, action: before ? 'update' : 'create',
        before: before ? trailOf(before) : undefined, after: trailOf(row),
      });
      return { id: row.id, created: !before };
    });
  }

  async function list(session: Session) {
    const rows = await app.db.selectFrom('push_subscription')
      .select(['id', 'endpoint', 'device', 'createdAt', 'lastSuccessAt', 'lastFailureAt', 'lastError'])
      .where('userId', '=', session.userId).orderBy('createdAt').orderBy('id').execute();
    return rows.map((r) => ({
      id: r.id, endpoint: r.endpoint, device: r.device, createdAt: iso(r.createdAt)!, lastSuccessAt: iso(r.lastSuccessAt),
      lastFailureAt: iso(r.lastFailureAt), lastError: r.lastError,
    }));
  }

  async function remove(session: Session, actor: Actor, id: number) {
    await app.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('push_subscription').selectAll().where('id', '=', id).where('userId', '=', session.userId).forUpdate().executeTakeFirst();
      if (!row) throw new HttpError(404, t('push:errors.notFound'));
      await trx.deleteFrom('push_subscription').where('id', '=', id).execute();
      await app.writes.record(trx, { actor, resource: 'push-subscription', key: id, action: 'delete', before: trailOf(row) });
    });
  }

  /** Records a device's answer: its last success or failure; a device the push service no longer knows is removed. */
  async function noteOutcome(id: number, outcome: PushOutcome) {
    if (outcome.kind === 'sent') await app.db.updateTable('push_subscription').set({ lastSuccessAt: new Date() }).where('id', '=', id).execute();
    else if (outcome.kind === 'gone') await app.db.deleteFrom('push_subscription').where('id', '=', id).execute();
    else await app.db.updateTable('push_subscription').set({ lastFailureAt: new Date(), lastError: `PUSH: ${outcome.error}`.slice(0, 1000) }).where('id', '=', id).execute();
  }

  /** "Wyślij powiadomienie testowe": a message to each of the caller's devices (or the one named) now, in his language. */
  async function test(session: Session, only?: number) {
    let query = app.db.selectFrom('push_subscription').select(['id', 'endpoint', 'p256dh', 'auth', 'device']).where('userId', '=', session.userId);
    if (only !== undefined) query = query.where('id', '=', only);
    const devices = await query.orderBy('id').execute();
    if (only !== undefined && devices.length === 0) throw new HttpError(404, t('push:errors.notFound'));
    if (devices.length === 0) throw new HttpError(409, t('push:errors.noDevices'), { code: 'NO_DEVICES' });
    const key = await vapid();
    const results: { id: number; device: string | null; outcome: PushOutcome['kind']; error?: string }[] = [];
    for (const device of devices) {
      const outcome = await sendPush(device, {
        title: t('push:test.title'), body: t('push:test.body'), url: '/app/account/notifications', tag: 'push-test', lang: session.language ?? undefined,
      }, key, allowed, { urgency: 'high' });
      await noteOutcome(device.id, outcome);
      results.push({ id: device.id, device: device.device, outcome: outcome.kind, ...(outcome.kind === 'failed' ? { error: outcome.error } : {}) });
    }
    const count = (kind: string) => results.filter((r) => r.outcome === kind).length;
    const sent = count('sent');
    const gone = count('gone');
    const failed = count('failed');
    const parts = [t('push:test.sent', { count: sent })];
    if (gone) parts.push(t('push:test.gone', { count: gone }));
    if (failed) parts.push(t('push:test.failed', { count: failed }));
    return { message: parts.join(' '), sent, gone, failed, devices: results };
  }

  return {
    /** The VAPID public key (base64url) browsers subscribe with. */
    async publicKey(): Promise<string> {
      return (await vapid()).publicKey;
    },
    keys: vapid,
    allowed,
    subscribe, list, remove, test,
    deliver: (id: number) => deliverPush({ app, renderers: app.notifications.renderers, keys: vapid, allowed }, id),
  };
}

export type Push = ReturnType<typeof createPush>;

declare module 'fastify' {
  interface FastifyInstance {
    push: Push;
  }
}

export default fp<PushOptions>(async (app, options) => {
  const push = createPush(app, options);
  app.decorate('push', push);
  app.notifications.usePushChannel({
    deliver: (id) => push.deliver(id),
    sweep: (sweepOptions) => sweepPush(app, sweepOptions),
  });
}, { name: 'push', dependencies: ['db', 'config', 'notifications', 'write-service'] });
