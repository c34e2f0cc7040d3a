/**
 * Work that the processes of one portal must not do side by side, on any machine: migrating and
 * seeding at start-up. The database is the one thing they all share, so it holds the turn: a
 * PostgreSQL advisory lock named after the portal's schema and the work. The first process does
 * the work; the others wait for the lock and then find it done (migrations up to date, demo data
 * present). On PGlite, which belongs to one process, the lock is taken and given back at once.
 *
 * `db` must be one connection (kysely's `connection()`, as withoutStatementTimeout gives): a
 * session-level lock belongs to the connection that took it.
 */
import { sql, type Kysely } from 'kysely';

export async function oneProcessAtATime<D, T>(db: Kysely<D>, work: string, fn: () => Promise<T>): Promise<T> {
  const key = sql`hashtext(current_schema() || ':' || ${work})`;
  await sql`select pg_advisory_lock(${key})`.execute(db);
  try {
    return await fn();
  } finally {
    // a lost connection has given the lock back already
    await sql`select pg_advisory_unlock(${key})`.execute(db).catch(() => undefined);
  }
}
