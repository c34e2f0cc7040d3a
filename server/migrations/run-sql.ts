/**
 * Runs DDL statements one by one. PGlite's extended protocol accepts a single statement per
 * query, so migrations list their statements instead of sending one big script. Kysely runs each
 * migration inside a transaction, so a failing statement leaves nothing half-created.
 */
import { sql, type Kysely } from 'kysely';

export async function runStatements(db: Kysely<any>, statements: readonly string[]): Promise<void> {
  for (const statement of statements) {
    try {
      await sql.raw(statement).execute(db);
    } catch (err) {
      const head = statement.trim().split('\n')[0].slice(0, 120);
      throw new Error(`${(err as Error).message}\n  in statement: ${head}`, { cause: err });
    }
  }
}
