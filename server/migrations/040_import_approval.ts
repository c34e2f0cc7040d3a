/**
 * 040 — what the user approves is what happens (issue 49, docs/decisions.md "Imports: the import
 * its dry run approved (issue 49)").
 *
 * `import_run`:
 * - `fileSha256`: the SHA-256 of the file as received, so an import that names its dry run is
 *   refused unless it carries the very file that dry run read;
 * - `dryRunId`: the dry run an import names (its options and file must be the dry run's, and it
 *   deactivates no more rows than that dry run counted); the history folds dry runs under it;
 * - `activeRows`: the rows of the file's clients that a deactivating dry run found active — the
 *   whole of which `countDeactivated` is a share (the screen asks for the number to be typed
 *   above the declared share).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration040: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table import_run add column "fileSha256" text`,
      `alter table import_run add column "dryRunId" bigint references import_run on delete set null`,
      `alter table import_run add column "activeRows" integer`,
      `create index import_run_dry_run_idx on import_run ("dryRunId") where "dryRunId" is not null`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `drop index import_run_dry_run_idx`,
      `alter table import_run drop column "activeRows"`,
      `alter table import_run drop column "dryRunId"`,
      `alter table import_run drop column "fileSha256"`,
    ]);
  },
};
