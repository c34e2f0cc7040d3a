/**
 * The audit trail's one writer (issue 37, docs/decisions.md "Audit trail (issue 37)").
 *
 * `recordChange(trx, entry)` appends an entry in the caller's transaction: the change and its entry
 * commit together or not at all. The chain's head (audit_head, migration 029) is locked with
 * `select … for update`, so writers on any number of processes form one gap-free chain; the lock is
 * held until the caller commits, so call it as the transaction's last statement.
 */
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { canonical, entryCanonicalOf, entryHash, hashOf, type ChainedFields, type VaryingMember } from './chain.ts';
import { maskSecrets } from './secrets.ts';
import type { Actor } from './actor.ts';

export type Changes = Record<string, [unknown, unknown]>;

export interface AuditEntry {
  actor: Actor;
  /** The resource as the configuration names it (users, email-settings, integration-accounts …). */
  resource: string;
  recordKey?: string | number | null;
  /** create, update, delete, password-reset, publish, rollback … */
  action: string;
  changes?: Changes;
}

/** Whether a value reads back from jsonb as it is: strings, finite numbers, booleans, null, and plain arrays and objects of them. */
function jsonSafe(value: unknown): boolean {
  if (value === null) return true;
  switch (typeof value) {
    case 'string': case 'boolean': return true;
    case 'number': return Number.isFinite(value);
    case 'object': {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (!jsonSafe(value[i])) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in value) if (!jsonSafe((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default: return false;
  }
}

/**
 * JSON-safe values (dates as ISO strings), so the hash reads back the same from jsonb. Changes that
 * are already so (an import's, read from jsonb) are taken as they are: the round trip through JSON
 * text was a tenth of a million entries' making.
 */
function plain(changes: Changes): Changes {
  return jsonSafe(changes) ? changes : JSON.parse(JSON.stringify(changes)) as Changes;
}

/** The members an entry takes from its author, resource and action. */
function sharedFields(entry: Pick<AuditEntry, 'actor' | 'resource' | 'action'>): Omit<ChainedFields, VaryingMember> {
  const { actor } = entry;
  return {
    actorKind: actor.kind,
    userId: actor.kind === 'user' ? actor.userId : null,
    role: actor.kind === 'user' ? actor.role : null,
    keyId: actor.kind === 'integration' ? actor.keyId : null,
    accountId: actor.kind === 'integration' ? actor.accountId : null,
    job: actor.kind === 'system' ? actor.job : null,
    actorLabel: actor.label ?? null,
    address: actor.address ?? null,
    session: actor.session ?? null,
    resource: entry.resource,
    action: entry.action,
  };
}

/** The entry's chained fields after the previous head: everything the hash covers. */
function chained(entry: AuditEntry, previous: { seq: string | number; hash: string }): ChainedFields {
  return {
    ...sharedFields(entry),
    seq: Number(previous.seq) + 1,
    at: new Date().toISOString(),
    recordKey: entry.recordKey === undefined || entry.recordKey === null ? null : String(entry.recordKey),
    changes: plain(maskSecrets(entry.changes ?? {})),
    prevHash: previous.hash,
  };
}

export async function recordChange(trx: Transaction<DB>, entry: AuditEntry): Promise<number> {
  const head = await sql<{ seq: string | number; hash: string }>`select "seq", "hash" from audit_head where "id" = 1 for update`
    .execute(trx);
  const previous = head.rows[0];
  if (!previous) throw new Error('audit_head has no row (migration 029)');
  const fields = chained(entry, previous);
  const hash = entryHash(fields);
  await trx.insertInto('audit_entry').values({ ...fields, changes: JSON.stringify(fields.changes), hash }).execute();
  await trx.updateTable('audit_head').set({ seq: fields.seq, hash }).where('id', '=', 1).execute();
  return fields.seq;
}

/** A connection's raw query, as an import run's own connection offers it (server/imports/session.ts). */
export type RawQuery = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const INSERT_ROWS = 1_000;
const COLUMNS = ['seq', 'at', 'actorKind', 'userId', 'role', 'keyId', 'accountId', 'job', 'actorLabel', 'address', 'session',
  'resource', 'recordKey', 'action', 'changes', 'prevHash', 'hash'] as const;

/** Appends rows to a table in bulk: COPY text on PostgreSQL, values on PGlite (an import run's `stage`, imports/session.ts). */
export type BulkAppend = (table: string, columns: string[], copyText: string, values: unknown[][]) => Promise<void>;

const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** A value as a COPY text field (the same escaping as the import's staging: imports/copy-text.ts). */
function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  // most fields have nothing to escape: one test instead of four replacements
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** A chain's head: the last entry's number and hash (audit_head). */
export type ChainHead = { seq: string | number; hash: string };

/** Entries chained after a head, ready to append: their values (multi-row inserts, PGlite's staging), with `copy` also COPY text lines (PostgreSQL), and the new head. */
export interface ChainedRows { copyText: string; values: unknown[][]; count: number; head: ChainHead }

/**
 * Chains `entries` in order after `head`: each one's canonical changes and hash, as COPY text when
 * `copy` (one line an entry), and as values in COLUMNS' order unless `withValues` is false. Pure arithmetic, no database: an
 * import's trail thread runs it for its chunks (imports/trail-thread.ts) and recordChangesVia here.
 */
export function chainEntries(head: ChainHead, entries: AuditEntry[], copy: boolean, withValues = !copy): ChainedRows {
  let copyText = '';
  const values: unknown[][] = [];
  for (const entry of entries) {
    const fields = chained(entry, head);
    // the changes' canonical text is hashed and stored (jsonb keeps no key order, so it is the same value)
    const changes = canonical(fields.changes);
    const hash = entryHash(fields, changes);
    if (copy) {
      // one string per line, field after field: a million entries' lines were the largest allocation of their writing
      let line = copyField(fields[COLUMNS[0]]);
      for (let i = 1; i < COLUMNS.length; i++) {
        const c = COLUMNS[i];
        line += `\t${copyField(c === 'hash' ? hash : c === 'changes' ? changes : fields[c])}`;
      }
      copyText += `${line}\n`;
    }
    if (withValues) values.push(COLUMNS.map((c) => (c === 'hash' ? hash : c === 'changes' ? changes : fields[c])));
    head = { seq: fields.seq, hash };
  }
  return { copyText, values, count: entries.length, head };
}

/** A record's part of an entry whose author, resource and action it shares with the others of its write: its key, and its changes' canonical text (secrets masked). */
export interface SharedEntryRecord { recordKey: string | null; changes: string }

/**
 * `chainEntries` for the entries of one bulk write (an import's records): one author, resource and
 * action, each record's changes already as canonical text. The same rows and hashes, with what the
 * entries share (their canonical text, their COPY fields) made once rather than per entry, and
 * one time for the chunk (its entries are made within the same milliseconds).
 */
export function chainSharing(head: ChainHead, entry: Pick<AuditEntry, 'actor' | 'resource' | 'action'>, records: SharedEntryRecord[], copy: boolean, withValues = !copy): ChainedRows {
  const shared = sharedFields(entry);
  const canonicalOf = entryCanonicalOf(shared);
  const at = new Date().toISOString();
  // a COPY line: the shared columns' text, with each entry's own fields put in between
  const texts: string[] = [];
  const slots: (VaryingMember | 'hash')[] = [];
  let text = '';
  for (let i = 0; i < COLUMNS.length; i++) {
    const c = COLUMNS[i];
    if (i) text += '\t';
    if (c in shared) {
      text += copyField(shared[c as keyof typeof shared]);
      continue;
    }
    texts.push(text);
    slots.push(c as VaryingMember | 'hash');
    text = '';
  }
  const last = `${text}\n`;
  let copyText = '';
  const values: unknown[][] = [];
  for (const record of records) {
    const own = { seq: Number(head.seq) + 1, at, recordKey: record.recordKey, prevHash: head.hash };
    const hash = hashOf(canonicalOf(own, record.changes));
    if (copy) {
      let line = '';
      for (let i = 0; i < slots.length; i++) {
        const slot = slots[i];
        line += texts[i] + copyField(slot === 'hash' ? hash : slot === 'changes' ? record.changes : own[slot]);
      }
      copyText += line + last;
    }
    if (withValues) {
      const fields: Record<string, unknown> = { ...shared, ...own, changes: record.changes, hash };
      values.push(COLUMNS.map((c) => fields[c]));
    }
    head = { seq: own.seq, hash };
  }
  return { copyText, values, count: records.length, head };
}

/** Locks the chain's head for the rest of the caller's transaction and reads it. */
export async function lockHead(query: RawQuery): Promise<ChainHead> {
  const head = (await query('select "seq", "hash" from audit_head where "id" = 1 for update')).rows[0] as ChainHead | undefined;
  if (!head) throw new Error('audit_head has no row (migration 029)');
  return head;
}

/** Appends chained rows: through `append` when given (COPY on PostgreSQL), else by multi-row inserts. */
export async function appendChained(query: RawQuery, rows: ChainedRows, append?: BulkAppend): Promise<void> {
  if (!rows.count) return;
  if (append) {
    await append('audit_entry', [...COLUMNS], rows.copyText, rows.values);
    return;
  }
  // multi-row inserts of INSERT_ROWS entries each: PostgreSQL takes at most 65,535 parameters a statement
  for (let from = 0; from < rows.values.length; from += INSERT_ROWS) {
    const params: unknown[] = [];
    const tuples = rows.values.slice(from, from + INSERT_ROWS)
      .map((row) => `(${row.map((v, i) => { params.push(v); return `$${params.length}${COLUMNS[i] === 'changes' ? '::jsonb' : COLUMNS[i] === 'at' ? '::timestamptz' : ''}`; }).join(', ')})`);
    await query(`insert into audit_entry (${COLUMNS.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`, params);
  }
}

/** Moves the chain's head to the last appended entry (its lock is held to the commit). */
export async function moveHead(query: RawQuery, head: ChainHead): Promise<void> {
  await query('update audit_head set "seq" = $1, "hash" = $2 where "id" = 1', [head.seq, head.hash]);
}

/**
 * recordChange for a transaction kysely does not hold (an import run's own connection, inside its
 * `begin … commit`); several entries are chained in order under one head lock and written in bulk:
 * with `append`, through it (an import's 100,000 records: COPY on PostgreSQL), else by multi-row
 * inserts (1,000 entries a statement). Same rule: the transaction's last statements.
 */
export async function recordChangesVia(query: RawQuery, entries: AuditEntry[], append?: BulkAppend): Promise<void> {
  if (!entries.length) return;
  // an `append` takes COPY text (PostgreSQL) or values (PGlite): both are made, as the caller's kind is not known here
  const rows = chainEntries(await lockHead(query), entries, Boolean(append), true);
  await appendChained(query, rows, append);
  await moveHead(query, rows.head);
}
