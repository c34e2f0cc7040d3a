/**
 * The webhooks' outbox: an event is written in the transaction of the change that raises it (an
 * order created, a status changed …), one message per endpoint that takes it, with the delivery
 * jobs in the same transaction; a change that rolls back takes its events with it.
 *
 * The payload (Standard Webhooks' recommended shape): `{ type, timestamp, data }`, `data` holding
 * the record under its resource's name, read in the transaction with the field names of its
 * entity schema (the API's names), and the event's facts. A payload larger than the configured
 * limit carries the record's key instead of the record, with `truncated: true`: the receiver
 * fetches the record through the API.
 *
 * An endpoint with `clients` gets only the events of records of those clients; one without
 * (an administrator's) gets every client's.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Bundle } from '../config/bundle.ts';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import { deliverySettings, webhookEvent, webhooksFile, type WebhooksFile } from './events.ts';

export interface RaisedEvent {
  /** The event's id as declared (order.status_changed). */
  event: string;
  /** The key of the record of the event's resource. */
  id: number | string;
  /** The event's own facts (from, to …). */
  facts?: Record<string, unknown>;
}

export interface OutboxMessage {
  id: number;
  endpointId: number;
}

/** The Standard Webhooks message id: the same for every endpoint and every retry of one event. */
export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/** The record as its resource's entity schema names it, read in `trx`; undefined when not there. */
export async function readRecord(trx: Kysely<DB>, bundle: Bundle, resourceName: string, id: number | string) {
  const resource = bundle.resources[resourceName];
  if (!resource) return undefined;
  const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(resource.source)} where ${sql.ref(resource.key)} = ${id}`.execute(trx);
  const row = rows[0];
  if (!row) return undefined;
  const properties = Object.keys(bundle.schemas[resource.entity]?.properties ?? row);
  const record = Object.fromEntries(properties.filter((p) => p in row).map((p) => [p, row[p] instanceof Date ? (row[p] as Date).toISOString() : row[p]]));
  return { record, key: resource.key, klientSymbol: (row.klientSymbol as string | null | undefined) ?? null };
}

export function payloadOf(file: WebhooksFile, type: string, data: Record<string, unknown>, shrunk: () => Record<string, unknown>, at = new Date()) {
  const payload = { type, timestamp: at.toISOString(), data };
  if (Buffer.byteLength(JSON.stringify(payload)) <= deliverySettings(file).maxPayloadBytes) return payload;
  return { type, timestamp: at.toISOString(), data: { ...shrunk(), truncated: true } };
}

/**
 * Writes the messages of an event in `trx`, for the variant of the record's client; answers them
 * (the caller queues their jobs in the same transaction). An undeclared event, or one nobody
 * takes, writes nothing.
 */
export async function writeEvent(trx: Kysely<DB>, bundleFor: (klientSymbol: string | null) => Bundle, base: Bundle, raised: RaisedEvent): Promise<OutboxMessage[]> {
  const declared = webhookEvent(webhooksFile(base), raised.event);
  if (!declared) return [];
  const found = await readRecord(trx, base, declared.resource, raised.id);
  if (!found) return [];
  const file = webhooksFile(bundleFor(found.klientSymbol));
  const event = webhookEvent(file, raised.event);
  if (!event) return []; // the client's variant leaves it out
  const endpoints = await trx.selectFrom('webhook_endpoint').select('id')
    .where('enabled', '=', true)
    .where(sql<boolean>`"events" @> ${jsonb([event.id])}`)
    .where((eb) => eb.or([eb('clients', 'is', null), ...(found.klientSymbol ? [sql<boolean>`"clients" @> ${jsonb([found.klientSymbol])}`] : [])]))
    .execute();
  if (endpoints.length === 0) return [];
  const payload = payloadOf(file, event.id, { [event.resource]: found.record, ...raised.facts },
    () => ({ [event.resource]: { [found.key]: found.record[found.key] }, ...raised.facts }));
  const eventId = newEventId();
  const rows = await trx.insertInto('webhook_message').values(endpoints.map((e) => ({
    eventId, endpointId: e.id, event: event.id, klientSymbol: found.klientSymbol,
    lane: `${event.resource}:${raised.id}`, payload: jsonb(payload),
  }))).returning(['id', 'endpointId']).execute();
  return rows.map((r) => ({ id: Number(r.id), endpointId: Number(r.endpointId) }));
}
