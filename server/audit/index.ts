/**
 * The audit trail (issue 37): recordChange in the write's transaction, the actor of a request, the
 * diff of two rows by an entity's fields. Services and routes import from here.
 */
import type { FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { actorOf, type Actor } from './actor.ts';
import { diffRows } from './diff.ts';
import { recordChange, type Changes } from './record.ts';

export { recordChange, recordChangesVia, type AuditEntry, type Changes, type RawQuery } from './record.ts';
export { actorOf, systemActor, type Actor } from './actor.ts';
export { diffRows, entityFields } from './diff.ts';
export { CHANGED, SECRET_FIELDS } from './secrets.ts';

/** One record's change as a service records it: before and after, compared on `fields`, plus `extra`. */
export interface RowChange {
  resource: string; recordKey: string | number; action: string;
  before?: Record<string, unknown> | null; after?: Record<string, unknown> | null; fields: readonly string[]; extra?: Changes;
}

/**
 * Records what `actor` changed in one record: the fields of `fields` that differ between
 * `before` and `after`, plus `extra` (a secret set alongside, as `{ password: [null, 'x'] }`).
 * An update that changed nothing is not recorded.
 */
export async function recordRowChange(trx: Transaction<DB>, actor: Actor, entry: RowChange): Promise<void> {
  const changes = { ...diffRows(entry.before, entry.after, entry.fields), ...entry.extra };
  if (Object.keys(changes).length === 0 && entry.action === 'update') return;
  await recordChange(trx, { actor, resource: entry.resource, recordKey: entry.recordKey, action: entry.action, changes });
}

/** recordRowChange with the actor of a request (the signed-in user or integration key). */
export function recordRequestChange(trx: Transaction<DB>, request: FastifyRequest, entry: RowChange): Promise<void> {
  return recordRowChange(trx, actorOf(request), entry);
}
