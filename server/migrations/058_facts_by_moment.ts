/**
 * 058 — whether anything is dated after a moment, answered at once (issue 46, docs/decisions.md
 * "A period that ends today is read from the running totals").
 *
 * A report's period that ends today (this month, quarter or year on the Raporty screen) has days of
 * its last month before its end; the running totals' element for that month equals those days'
 * rows when nothing of the month is dated after the period's end — no fuel transaction, no
 * odometer reading. Neither table has an index on the moment alone, and a B-tree on it would be
 * one more index for every import to write. A BRIN index keeps the lowest and highest moment of each
 * range of 128 pages: a few dozen kilobytes for ten million transactions, next to nothing to keep
 * up as rows are appended, and enough to answer "is any row dated after X" by reading only the
 * ranges whose highest moment is after X (none, usually). `autosummarize` asks autovacuum to
 * summarise each range as it fills, so an import's new pages are not read whole by the next check.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration058: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      'create index fuel_transaction_data_brin on fuel_transaction using brin ("data") with (autosummarize = on)',
      'create index mileage_reading_data_brin on mileage_reading using brin ("data") with (autosummarize = on)',
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, ['drop index fuel_transaction_data_brin', 'drop index mileage_reading_data_brin']);
  },
};
