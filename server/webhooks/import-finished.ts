/**
 * `import.finished` (issue 35): an import run ended, succeeded or failed. Written by the imports
 * (server/imports/service.ts) in the transaction that gives the run its final state, on whatever
 * connection that is: the run's own (its staging tables and lock live there; on PGlite the one
 * connection) or the pool's. So this works on a plain query function, not on kysely.
 *
 * The record is the run as the import API answers it (schemas/api/import-run.schema.json), with
 * the first errors only. Who gets it: endpoints taking every client's events, and endpoints whose
 * clients include every client the run was limited to (an integration key's run); a run not
 * limited to clients (an administrator's, possibly touching any client) reaches only the former,
 * so a client's endpoint never learns of another client's import.
 */
import type { Selectable } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { webhookEvent, type WebhooksFile } from './events.ts';
import { newEventId, payloadOf, type OutboxMessage } from './outbox.ts';

export const IMPORT_FINISHED = 'import.finished';
/** Errors carried in the payload (the rest: GET /api/import/runs/{id}/errors). */
const ERRORS_CARRIED = 20;

export type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const iso = (value: unknown) => (value ? new Date(value as string).toISOString() : null);

export async function writeImportFinished(query: Query, fileOf: (variant: string) => WebhooksFile, runId: number): Promise<OutboxMessage[]> {
  const run = (await query('select * from import_run where "id" = $1', [runId])).rows[0] as Selectable<DB['import_run']> | undefined;
  if (!run || run.mode !== 'import' || !['succeeded', 'failed'].includes(run.state)) return [];
  const file = fileOf(run.variant);
  const event = webhookEvent(file, IMPORT_FINISHED);
  if (!event) return [];
  const clients = (run.clients as string[] | null)?.length ? (run.clients as string[]) : null;
  const endpoints = (await query(
    `select "id" from webhook_endpoint where "enabled" and "events" @> $1::jsonb
       and ("clients" is null or ($2::jsonb is not null and "clients" @> $2::jsonb))`,
    [JSON.stringify([event.id]), clients ? JSON.stringify(clients) : null],
  )).rows;
  if (endpoints.length === 0) return [];
  const errors = (await query('select "rowNo", "column", "message" from import_error where "runId" = $1 order by "rowNo", "seq" limit $2', [runId, ERRORS_CARRIED])).rows;
  const record = {
    id: Number(run.id), declaration: run.declaration, fileName: run.fileName, mode: run.mode, onError: run.onError, missing: run.missing,
    state: run.state, createdAt: iso(run.createdAt), startedAt: iso(run.startedAt), finishedAt: iso(run.finishedAt),
    createdBy: { name: run.createdByName },
    progress: { rows: run.progressRows, total: run.progressTotal },
    counts: { new: run.countNew, changed: run.countChanged, unchanged: run.countUnchanged, deactivated: run.countDeactivated, errors: run.countErrors },
    message: run.message,
    errors: errors.map((e) => ({ row: e.rowNo, column: e.column, message: e.message })),
    unknownColumns: run.unknownColumns ?? [],
  };
  const facts = { clients, integrationKeyId: run.integrationKeyId ?? null };
  const payload = payloadOf(file, event.id, { [event.resource]: record, ...facts }, () => ({ [event.resource]: { id: record.id }, ...facts }));
  const eventId = newEventId();
  const values: unknown[] = [];
  const tuples = endpoints.map((e) => {
    values.push(eventId, e.id, event.id, clients?.length === 1 ? clients[0] : null, `${event.resource}:${runId}`, JSON.stringify(payload));
    const n = values.length;
    return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::jsonb)`;
  });
  const rows = (await query(
    `insert into webhook_message ("eventId", "endpointId", "event", "klientSymbol", "lane", "payload") values ${tuples.join(', ')} returning "id", "endpointId"`,
    values,
  )).rows;
  return rows.map((r) => ({ id: Number(r.id), endpointId: Number(r.endpointId) }));
}
