/**
 * Small helpers for the seed's generated SQL. Only constants of the seed itself and validated
 * numbers/dates are inlined into SQL text; nothing here ever sees user input.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';

/** A SQL string literal ('' escaping). */
export function lit(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** A text[] literal of constants. */
export function textArray(values: readonly string[]): string {
  return `ARRAY[${values.map(lit).join(',')}]::text[]`;
}

/** Picks from a constant list by a non-negative integer SQL expression: list[1 + expr % n]. */
export function pick(values: readonly string[], expr: string): string {
  return `(${textArray(values)})[1 + (${expr}) % ${values.length}]`;
}

export function int(n: number): string {
  if (!Number.isSafeInteger(n)) throw new Error(`Not an integer: ${n}`);
  return String(n);
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A timestamptz for a calendar day and a Warsaw wall-clock time (the session time zone). */
export function at(isoDate: string, time = '09:00'): string {
  return `${isoDate} ${time}`;
}

export async function exec(db: Kysely<DB>, text: string): Promise<number> {
  const result = await sql.raw(text).execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function maxId(db: Kysely<DB>, table: string, column: string): Promise<number> {
  const { rows } = await sql.raw<{ m: number }>(`select coalesce(max("${column}"), 0)::integer as m from ${table}`).execute(db);
  return rows[0].m;
}

/** After inserting explicit ids into an identity column, move its sequence past them. */
export async function syncIdentity(db: Kysely<DB>, table: string, column: string): Promise<void> {
  await sql.raw(
    `select setval(pg_get_serial_sequence('${table}', '${column}'), coalesce(max("${column}"), 0) + 1, false) from ${table}`,
  ).execute(db);
}

/** Digits of the number part of a damage case number (SZK/2026/0000048): one format for the demo and bulk data. */
export const CASE_NUMBER_DIGITS = 7;

/** A damage case number SZK/<year>/<order id on CASE_NUMBER_DIGITS digits>. */
export function caseNumber(year: string, orderId: number): string {
  return `SZK/${year}/${String(orderId).padStart(CASE_NUMBER_DIGITS, '0')}`;
}
