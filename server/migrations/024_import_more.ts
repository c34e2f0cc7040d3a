/**
 * 024 — more importable resources (issue 34, the remaining declarations):
 *
 * - `tire."nrOpony"`: the back office's own number of a tyre set, the key its import matches rows
 *   by (the table had only its generated id). Unique per client where given; the portal's own
 *   rows (seed, typed in) have none.
 * - `import_run.format` also takes 'zip' and 'pdf': an invoice's files are imported from a zip of
 *   PDFs or one PDF at a time, as runs like every other (kept, counted, their errors per file).
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

/** v_tire of migration 002, and the same with the set's number (the tyre table lists the entity's properties). */
const TIRE_VIEW = `select
    t."oponaId", t."statusOp", t."miejscow", c."rejestr",
    t."rodzajOp", t."markaOp", t."rozmiarOp", t."bieznikOp", t."stanBieznika", t."dataZmianyOp", t."magazynSkladOpis", t."firmaSkladNazwa", t."pojazdId", t."klientSymbol"`;
const TIRE_FROM = `from tire t
  left join car c on c."pojazdId" = t."pojazdId"`;

export const migration024: Migration = {
  async up(db) {
    await runStatements(db, [
      `alter table tire add column "nrOpony" text`,
      `create unique index tire_nr_opony_idx on tire ("klientSymbol", "nrOpony") where "nrOpony" is not null`,
      `create or replace view v_tire as ${TIRE_VIEW}, t."nrOpony" ${TIRE_FROM}`,
      `alter table import_run drop constraint import_run_format_check`,
      `alter table import_run add constraint import_run_format_check check ("format" in ('csv', 'xlsx', 'ndjson', 'zip', 'pdf'))`,
    ]);
  },
  async down(db) {
    await runStatements(db, [
      `alter table import_run drop constraint import_run_format_check`,
      `alter table import_run add constraint import_run_format_check check ("format" in ('csv', 'xlsx', 'ndjson'))`,
      'drop view v_tire',
      `create view v_tire as ${TIRE_VIEW} ${TIRE_FROM}`,
      'drop index tire_nr_opony_idx',
      'alter table tire drop column "nrOpony"',
    ]);
  },
};
