/**
 * 015 — what is due, kept per rule and record (issue 24's speed).
 *
 * Computing every reminder rule over every vehicle at each cockpit read cost an administrator of
 * the bench's 100 000 vehicles 0.7 s (counts) and 1.6 s (first page). `reminder_due` holds instead,
 * per rule definition and record, everything about the item that does not depend on the day — its
 * due day, km left, projection — and the three days from which it is soon, urgent and past due.
 * "Today" then only compares days: a read counts and pages rows by index, and the table needs no
 * nightly pass when the day turns (server/reminders/due-table.ts; docs/decisions.md).
 *
 * - `reminder_rule`: the rule definitions the rows were computed with, by key (rule id + a hash
 *   of everything its SQL depends on), so that a variant that moves a threshold has rows of its
 *   own and every process can refresh every definition, whatever bundle it serves.
 * - `reminder_count`: the rows of reminder_due counted by rule, client and their days (triggers on
 *   reminder_due keep it): an administrator's or a manager's counts add up a few thousand sums
 *   instead of counting a third of a million rows.
 * - `reminder_dirty`: the vehicles whose rows must be computed again. Statement-level triggers on
 *   every table with a "pojazdId" column mark the vehicles a write touched, in the writer's own
 *   transaction; a reader refreshes them before it counts (and a write is therefore never missed:
 *   either the reader sees the mark or the write has not committed).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const OWN_TABLES = ['reminder_due', 'reminder_dirty', 'reminder_rule', 'reminder_count'];

/**
 * The tables of the current schema with a "pojazdId" column: every write to them may change what is
 * due. Read from the catalogue tables (information_schema's views evaluate privilege functions on
 * every schema's columns, and fail on a schema another process drops meanwhile).
 */
async function vehicleTables(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    select c.relname as "table" from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and a.attname = 'pojazdId' and not a.attisdropped
    order by 1`.execute(db);
  return rows.map((r) => r.table).filter((t) => !OWN_TABLES.includes(t));
}

/** The triggers marking the vehicles a statement on `table` touched; a migration adding such a table calls it too. */
export function dirtyTriggers(table: string): string[] {
  return [
    `create trigger ${table}_reminder_insert after insert on ${table}
      referencing new table as new_rows for each statement execute function reminder_mark_new()`,
    `create trigger ${table}_reminder_delete after delete on ${table}
      referencing old table as old_rows for each statement execute function reminder_mark_old()`,
    `create trigger ${table}_reminder_update after update on ${table}
      referencing old table as old_rows new table as new_rows for each statement execute function reminder_mark_both()`,
  ];
}

const MARK = (rows: string) => `
  insert into reminder_dirty ("pojazdId")
    select distinct "pojazdId" from ${rows} as touched where "pojazdId" is not null
    on conflict do nothing;`;

/** Adds (or takes away) the counted rows of a statement; zeros are swept by the drain. */
const COUNT = (rows: string, sign: '+' | '-') => `
  insert into reminder_count ("ruleKey", "scopeClient", "soonFrom", "urgentFrom", "pastFrom", "until", "n")
    select "ruleKey", "scopeClient", "soonFrom", "urgentFrom", "pastFrom", "until", ${sign === '+' ? '' : '-'}count(*) from ${rows}
    group by "ruleKey", "scopeClient", "soonFrom", "urgentFrom", "pastFrom", "until"
    on conflict on constraint reminder_count_key do update set "n" = reminder_count."n" + excluded."n";`;

export const migration015: Migration = {
  async up(db) {
    const tables = await vehicleTables(db);
    await runStatements(db, [
      `create table reminder_rule (
        "ruleKey" text primary key,
        "definition" jsonb not null,
        "builtAt" timestamptz,
        "seenAt" timestamptz not null default now()
      )`,
      `create table reminder_due (
        "ruleKey" text not null references reminder_rule on delete cascade,
        "recordId" text not null,
        "openId" text not null,
        "pojazdId" integer not null,
        "scopeClient" text,
        "scopeVehicle" integer,
        "scopeStation" text,
        "scopeUser" integer,
        "recordLabel" text,
        "dueDate" date,
        "kmLeft" integer,
        "projectedKm" integer,
        "limitKm" integer,
        "excessKm" integer,
        "excessCost" numeric(14, 2),
        "tooFewReadings" boolean,
        "soonFrom" date not null,
        "urgentFrom" date,
        "pastFrom" date,
        "until" date,
        primary key ("ruleKey", "recordId")
      )`,
      // counts and pages of an administrator (every row of the shown rules), a manager (a client),
      // a driver (a vehicle), an advisor (a station or the vehicle): each an index range per rule,
      // answered from the index alone
      `create index reminder_due_rule on reminder_due ("ruleKey", "soonFrom") include ("urgentFrom", "pastFrom", "until")`,
      `create index reminder_due_client on reminder_due ("scopeClient", "ruleKey", "soonFrom") include ("urgentFrom", "pastFrom", "until")`,
      `create index reminder_due_scope_vehicle on reminder_due ("scopeVehicle", "ruleKey")`,
      `create index reminder_due_station on reminder_due ("scopeStation", "ruleKey")`,
      // a refresh replaces the rows of its vehicles
      `create index reminder_due_vehicle on reminder_due ("pojazdId")`,
      // a page of items of one urgency, in the order they are listed (all rows, a client's)
      `create index reminder_due_order on reminder_due ("dueDate", "kmLeft", "ruleKey", "recordId")`,
      `create index reminder_due_client_order on reminder_due ("scopeClient", "dueDate", "kmLeft", "ruleKey", "recordId")`,
      `create table reminder_count (
        "ruleKey" text not null,
        "scopeClient" text,
        "soonFrom" date not null,
        "urgentFrom" date,
        "pastFrom" date,
        "until" date,
        "n" integer not null,
        constraint reminder_count_key unique nulls not distinct ("ruleKey", "scopeClient", "soonFrom", "urgentFrom", "pastFrom", "until")
      )`,
      `create function reminder_count_add() returns trigger language plpgsql as $$ begin ${COUNT('new_rows', '+')} return null; end $$`,
      `create function reminder_count_remove() returns trigger language plpgsql as $$ begin ${COUNT('old_rows', '-')} return null; end $$`,
      `create trigger reminder_due_count_insert after insert on reminder_due
        referencing new table as new_rows for each statement execute function reminder_count_add()`,
      `create trigger reminder_due_count_delete after delete on reminder_due
        referencing old table as old_rows for each statement execute function reminder_count_remove()`,
      `create trigger reminder_due_count_update_old after update on reminder_due
        referencing old table as old_rows for each statement execute function reminder_count_remove()`,
      `create trigger reminder_due_count_update_new after update on reminder_due
        referencing new table as new_rows for each statement execute function reminder_count_add()`,
      `create table reminder_dirty ("pojazdId" integer primary key)`,
      `create function reminder_mark_new() returns trigger language plpgsql as $$ begin ${MARK('new_rows')} return null; end $$`,
      `create function reminder_mark_old() returns trigger language plpgsql as $$ begin ${MARK('old_rows')} return null; end $$`,
      `create function reminder_mark_both() returns trigger language plpgsql as $$
        begin ${MARK('(select "pojazdId" from old_rows union select "pojazdId" from new_rows)')} return null; end $$`,
      ...tables.flatMap(dirtyTriggers),
    ]);
  },
  async down(db) {
    const tables = await vehicleTables(db);
    await runStatements(db, [
      ...tables.flatMap((t) => ['insert', 'delete', 'update'].map((op) => `drop trigger if exists ${t}_reminder_${op} on ${t}`)),
      'drop function reminder_mark_both()',
      'drop function reminder_mark_old()',
      'drop function reminder_mark_new()',
      'drop table reminder_dirty',
      'drop table reminder_due',
      'drop table reminder_count',
      'drop function reminder_count_add()',
      'drop function reminder_count_remove()',
      'drop table reminder_rule',
    ]);
  },
};
