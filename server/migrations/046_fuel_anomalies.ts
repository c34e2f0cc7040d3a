/**
 * 046 — the fuel anomalies found and announced (issue 46; server/anomalies/).
 *
 * The table came with 043 (one row per rule and finding, `klucz` unique: `<rule>:<transId>`, a
 * card's month for the monthly limit). Added here:
 * - `runId`: the import run whose batch found it (null: the seed, or found before this column);
 * - `announcedAt`: when its notification and webhook event were written (server/anomalies/
 *   announce.ts, in the transaction that sets it, so each anomaly is announced once); rows there
 *   before this migration count as announced;
 * - a partial index of the anomalies not yet announced (the announcement's queue), and one of the
 *   unexplained anomalies per vehicle, newest first (the Pulpit's section reads only those).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration046: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table fuel_anomaly add column "runId" bigint references import_run on delete set null, add column "announcedAt" timestamptz`,
      `update fuel_anomaly set "announcedAt" = "createdAt"`,
      `create index fuel_anomaly_unannounced_idx on fuel_anomaly ("id") where "announcedAt" is null`,
      `create index fuel_anomaly_open_idx on fuel_anomaly ("pojazdId", "data" desc) where not "wyjasniona"`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      'drop index fuel_anomaly_open_idx',
      'drop index fuel_anomaly_unannounced_idx',
      'alter table fuel_anomaly drop column "announcedAt", drop column "runId"',
    ]);
  },
};
