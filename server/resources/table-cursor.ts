/**
 * The opaque cursor a table block answers for its last row (DESIGN.md §3: "a block whose
 * predecessor is known is read by keyset rather than OFFSET").
 *
 * A cursor says: "in the query with fingerprint `q`, the row at position `p - 1` had sort value
 * `s` and key `k`; the query had `n` rows when it was counted". The runtime sends it back with the
 * request for the block that starts at `p`; the server then reads `WHERE (sort, key) > (s, k)`
 * instead of skipping `p` rows. `n` lets a jump towards the end of a counted table be read from
 * the other end with a small OFFSET.
 *
 * Cursors are signed (HMAC-SHA256 with a key kept in the database, so every server process
 * accepts every other's cursors): a cursor the server did not issue is refused (400), never
 * interpreted. A genuine cursor of another query (another sort, filter, parent or caller) does
 * not fit the fingerprint and the block is read by OFFSET instead. Either way the caller's scope
 * is part of every query, so no cursor can reach rows outside it.
 *
 * Values are the database's own text form of the column (`cast(col as text)`): it reads back
 * into the column's type exactly, microseconds of a timestamptz and digits of a numeric included,
 * which a JavaScript Date or number would lose.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { sql, type Expression, type Kysely } from 'kysely';
import { jsonb } from '../db/value-types.ts';
import { TableQueryError } from '../db/table-query.ts';
import type { DB } from '../db/types.generated.ts';

export interface CursorPayload {
  /** Fingerprint of the query (see `queryFingerprint`). */
  q: string;
  /** Position of the row after the cursor: the startRow of the block it continues. */
  p: number;
  /** The query's exact row count, when it was counted (the first block); absent when unknown. */
  n?: number;
  /** Sort column value (text form; null for NULL) — only when the order is one column + key. */
  s?: string | null;
  /** Key value (text form) — absent when the order does not allow keyset reading. */
  k?: string;
}

const SETTING = 'tableCursorKey';
const MAX_LENGTH = 2000;

/** The signing key: created once per database (the first server process to need it wins), then cached. */
export function cursorKeyLoader(db: Kysely<DB>): () => Promise<Buffer> {
  let key: Promise<Buffer> | undefined;
  const load = async () => {
    await db
      .insertInto('app_setting')
      .values({ key: SETTING, value: jsonb(randomBytes(32).toString('hex')) })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    const row = await db.selectFrom('app_setting').select('value').where('key', '=', SETTING).executeTakeFirstOrThrow();
    return Buffer.from(String(row.value), 'hex');
  };
  return () => {
    key ??= load().catch((e) => {
      key = undefined; // a failed read is retried by the next request
      throw e;
    });
    return key;
  };
}

const mac = (key: Buffer, body: string) => createHmac('sha256', key).update(body).digest().subarray(0, 16);

export function encodeCursor(key: Buffer, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(key, body).toString('base64url')}`;
}

/** The payload of a cursor this server issued; anything else is a 400 naming `cursor`. */
export function decodeCursor(key: Buffer, cursor: string): CursorPayload {
  const bad = () => new TableQueryError('badCursor', 'cursor');
  if (cursor.length > MAX_LENGTH) throw bad();
  const [body, signature, ...rest] = cursor.split('.');
  if (!body || !signature || rest.length) throw bad();
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(key, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  // Signed by us, so well-formed; checked anyway so that a change of format cannot be misread.
  const p = payload as CursorPayload;
  if (typeof p?.q !== 'string' || !Number.isSafeInteger(p.p) || p.p < 0) throw bad();
  if (p.n !== undefined && (!Number.isSafeInteger(p.n) || p.n < 0)) throw bad();
  if (p.k !== undefined && typeof p.k !== 'string') throw bad();
  if (p.s !== undefined && p.s !== null && typeof p.s !== 'string') throw bad();
  return p;
}

/**
 * What a cursor must have been issued for: the resource, the full order, the filter, parent and
 * group, and the caller's scope (role and scope values). Objects are serialised with sorted keys,
 * so the same filter written in another key order still fits.
 */
export function queryFingerprint(parts: Record<string, unknown>): string {
  return createHash('sha256').update(stableJson(parts)).digest('base64url').slice(0, 22);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `cast(… as text)` of a column or of the expression a column is shown as: the exact text form a cursor carries. */
export const asText = (term: string | Expression<unknown>) => sql<string | null>`cast(${typeof term === 'string' ? sql.ref(term) : term} as text)`;
