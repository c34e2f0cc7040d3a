/**
 * One contract for the JavaScript values that come out of the database, whatever the backend.
 *
 * node-postgres and PGlite disagree by default (pg: numeric and bigint as strings, `date` as a
 * Date at local midnight; PGlite: bigint as number, bytea as Uint8Array). Code and tests above
 * this layer must not care which one runs, so both are configured to return:
 *
 * | SQL type           | JS value                                                         |
 * |--------------------|------------------------------------------------------------------|
 * | date               | string 'YYYY-MM-DD' (a calendar day has no time zone; a Date would shift it) |
 * | timestamptz        | Date                                                             |
 * | numeric            | number (money is numeric(12,2) ≤ 1 000 000: exact in a double)   |
 * | bigint (count(*))  | number (counts and ids stay far below 2^53)                      |
 * | bytea              | Buffer                                                           |
 * | json / jsonb       | parsed value                                                     |
 *
 * Arrays of these types are not normalised; aggregate to json instead when you need them.
 *
 * Writing jsonb: node-postgres turns a JS array parameter into a PostgreSQL array literal, which
 * a jsonb column rejects (PGlite accepts it, so the bug would only show on PostgreSQL). Pass
 * jsonb values through `jsonb(value)` (or JSON.stringify) and both backends behave the same.
 */
import { sql, type RawBuilder } from 'kysely';
import type { JsonValue } from './types.generated.ts';
import pg from 'pg';

/** A jsonb parameter that works on both backends: `values({ columnOrder: jsonb(['a', 'b']) })`. */
export function jsonb(value: unknown): RawBuilder<JsonValue> {
  return sql<JsonValue>`${JSON.stringify(value)}::jsonb`;
}

export const OID = { INT8: 20, BYTEA: 17, DATE: 1082, NUMERIC: 1700 } as const;

const parseNumber = (v: string) => Number(v);

/** Parsers for PGlite's `parsers` option (text format in, JS value out). */
export const pgliteParsers: Record<number, (value: string) => unknown> = {
  [OID.DATE]: (v) => v,
  [OID.NUMERIC]: parseNumber,
  [OID.INT8]: parseNumber,
  // PGlite would return a Uint8Array; Buffer is a Uint8Array too, and what pg returns.
  [OID.BYTEA]: (v) => Buffer.from(v.startsWith('\\x') ? v.slice(2) : v, 'hex'),
};

const pgOverrides: Record<number, (value: string) => unknown> = {
  [OID.DATE]: (v) => v,
  [OID.NUMERIC]: parseNumber,
  [OID.INT8]: parseNumber,
};

/** A per-pool `types` object for node-postgres (leaves pg's global parsers untouched). */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if ((format ?? 'text') === 'text' && pgOverrides[oid]) return pgOverrides[oid];
    return (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format);
  },
} as unknown as pg.CustomTypesConfig;
