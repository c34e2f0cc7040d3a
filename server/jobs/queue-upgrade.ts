/**
 * From a job queue pg-boss 10 made to pg-boss 12's (issue 33). pg-boss 12 migrates only from the
 * schema of pg-boss 11 (version 25) on; the schema 10 left (version 24) makes its start() fail, so
 * an installation upgraded in place would stop sending e-mail. Nothing in the queue is the only
 * copy of anything: an e-mail job holds just its notification's id, the schedules are made again at
 * every start, and a digest job is only a nudge. So the old schema is set aside under a name of its
 * own before pg-boss starts (pg-boss then creates its schema afresh), and once it has started the
 * e-mail jobs that were still to run (created, retry, active) are queued again and the old schema is
 * dropped, in one transaction: a process that dies in between leaves the old schema for the next
 * start to finish. Processes starting at once take turns under an advisory lock.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';

/** The oldest schema version pg-boss 12 migrates from (pg-boss 11's). */
const FIRST_MIGRATABLE_VERSION = 25;

/** Where a schema of an older pg-boss is kept until its jobs are queued again. */
export function retiredSchemaOf(schema: string): string {
  return `${schema}_retired`;
}

async function schemaExists(db: Kysely<DB> | Transaction<DB>, schema: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from information_schema.schemata where schema_name = ${schema}) as found`.execute(db);
  return rows[0].found;
}

/** The version in pg-boss's own bookkeeping table, or undefined when there is none. */
async function queueSchemaVersion(db: Kysely<DB> | Transaction<DB>, schema: string): Promise<number | undefined> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from information_schema.tables where table_schema = ${schema} and table_name = 'version') as found`.execute(db);
  if (!rows[0].found) return undefined;
  const version = await sql<{ version: number }>`select version from ${sql.table(`${schema}.version`)}`.execute(db);
  return version.rows[0]?.version;
}

/** An advisory lock of this upgrade, per queue schema, held to the end of the transaction. */
async function lockUpgrade(trx: Transaction<DB>, schema: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`portal.job-queue-upgrade.${schema}`}))`.execute(trx);
}

/**
 * Before pg-boss starts: a schema older than pg-boss 12 migrates from is renamed aside.
 * Returns whether one was (the caller then finishes with `requeueRetiredJobs`).
 */
export async function setAsideOldQueueSchema(db: Kysely<DB>, schema: string): Promise<boolean> {
  const version = await queueSchemaVersion(db, schema);
  if (version === undefined || version >= FIRST_MIGRATABLE_VERSION) return schemaExists(db, retiredSchemaOf(schema));
  return db.transaction().execute(async (trx) => {
    await lockUpgrade(trx, schema);
    const now = await queueSchemaVersion(trx, schema); // another process may have done it meanwhile
    if (now !== undefined && now < FIRST_MIGRATABLE_VERSION && !(await schemaExists(trx, retiredSchemaOf(schema)))) {
      await sql`alter schema ${sql.id(schema)} rename to ${sql.id(retiredSchemaOf(schema))}`.execute(trx);
    }
    return schemaExists(trx, retiredSchemaOf(schema));
  });
}

/**
 * After pg-boss has started: the jobs of `queueName` that the old schema still had to run are given
 * to `requeue` (inside the transaction that then drops the old schema), once across processes.
 * Returns the ids it gave.
 */
export async function requeueRetiredJobs(
  db: Kysely<DB>,
  schema: string,
  queueName: string,
  requeue: (trx: Transaction<DB>, ids: number[]) => Promise<void>,
): Promise<number[]> {
  const retired = retiredSchemaOf(schema);
  return db.transaction().execute(async (trx) => {
    await lockUpgrade(trx, schema);
    if (!(await schemaExists(trx, retired))) return [];
    const { rows } = await sql<{ id: number }>`
      select distinct (data->>'id')::int as id from ${sql.table(`${retired}.job`)}
      where name = ${queueName} and state in ('created', 'retry', 'active') and data ? 'id'
      order by 1`.execute(trx);
    const ids = rows.map((r) => r.id);
    await requeue(trx, ids);
    await sql`drop schema ${sql.id(retired)} cascade`.execute(trx);
    return ids;
  });
}
