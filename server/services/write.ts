/**
 * The one write path's side effects (issue 45): whatever a business write changed is recorded in
 * the caller's transaction by one call, `app.writes.record(trx, write)`, which
 *
 * 1. writes the notifications of the write's occurrence (screens/notifications.json triggers),
 * 2. writes the webhook events declared for it (screens/webhooks.json: an event whose `resource`
 *    is the write's resource and whose `on` is the write's action) into the outbox,
 * 3. records the trail entry, field by field (before and after), as the transaction's last
 *    statement (the audit head stays locked until the commit; server/audit/record.ts).
 *
 * A write whose diff is empty changed nothing: it leaves no entry and raises nothing. The caller
 * (a service or repository) has already checked the caller's right to the row and validated the
 * input, inside the same transaction; routes only parse, call the service and answer.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { diffRows, recordChange, type Actor, type Changes } from '../audit/index.ts';
import type { DB } from '../db/types.generated.ts';
import type { EventFacts } from '../notifications/outbox.ts';
import { webhooksFile } from '../webhooks/events.ts';

type Row = Record<string, unknown> | null | undefined;

export interface Write {
  actor: Actor;
  /** The resource as the configuration names it (order, damage, car, assignment …). */
  resource: string;
  /** The record's key: the trail's recordKey and the webhook event's record id. */
  key: string | number;
  /** create, update, delete, or the declared name of a state change (pickup, transition …). */
  action: string;
  /** The record before and after the write; `fields` names what is compared (all of after's by default). */
  before?: Row;
  after?: Row;
  fields?: readonly string[];
  /** Changes beside the diff (a fact of the write, a secret set alongside as CHANGED). */
  extra?: Changes;
  /** The webhook events' own facts (from, to …, as their declaration lists them). */
  facts?: Record<string, unknown>;
  /** The notifications' occurrence, with the facts its recipients are found by. */
  notify?: EventFacts;
}

/** The field-by-field change a write makes: the diff of before and after, plus its extra facts. */
export function changesOf(write: Pick<Write, 'before' | 'after' | 'fields' | 'extra'>): Changes {
  const fields = write.fields ?? Object.keys({ ...write.before, ...write.after });
  return { ...diffRows(write.before, write.after, fields), ...write.extra };
}

/** The declared webhook events a write of `resource` by `action` raises (screens/webhooks.json `on`). */
export function declaredEvents(app: FastifyInstance, resource: string, action: string): string[] {
  return webhooksFile(app.config.bundle).events.filter((e) => e.resource === resource && e.on === action).map((e) => e.id);
}

export function writeService(app: FastifyInstance) {
  return {
    /** Records a write in its transaction: notifications, declared webhook events, the trail entry (last). Answers false when it changed nothing. */
    async record(trx: Transaction<DB>, write: Write): Promise<boolean> {
      const changes = changesOf(write);
      if (Object.keys(changes).length === 0) return false;
      if (write.notify) await app.notifications.record(trx, write.notify);
      for (const event of declaredEvents(app, write.resource, write.action)) {
        await app.webhooks.emit(trx, { event, id: write.key, ...(write.facts ? { facts: write.facts } : {}) });
      }
      await recordChange(trx, { actor: write.actor, resource: write.resource, recordKey: write.key, action: write.action, changes });
      return true;
    },
  };
}

export type WriteService = ReturnType<typeof writeService>;

declare module 'fastify' {
  interface FastifyInstance {
    writes: WriteService;
  }
}

export default fp(
  async (app) => {
    app.decorate('writes', writeService(app));
  },
  // notifications and webhooks are read when a write is recorded, not at registration
  { name: 'write-service', dependencies: ['config', 'db'] },
);
