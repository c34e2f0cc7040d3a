/**
 * 031 — the audit trail's record histories and retention (issue 37, docs/decisions.md "Audit trail
 * (issue 37)", "Record history" and "Retention").
 *
 * Indexes: a record's history (`resource`, the record's own key — the part of `recordKey` before a
 * slash, so a child's entry `<order>/<position>` is found with its order — newest first), and the
 * "Dziennik zmian" first page filtered by what or by whom, newest first.
 *
 * Retention: `audit_retention`, one row, the checkpoint — the sequence number, hash and time of the
 * last entry removed (0 and 64 zeros while none was), from which `--verify` starts. The DELETE
 * trigger of 029 is replaced by a guard that lets a row go only
 *   - inside `audit_remove_expired(cutoff, max)` (which sets the transaction-local flag
 *     `audit.retention`), and
 *   - when it is the oldest entry left (seq = checkpoint + 1) and older than 30 days,
 * and that moves the checkpoint to the row in the same statement: entries leave from the start of
 * the chain only, in order, and the chain's start is always known. UPDATE and TRUNCATE stay refused;
 * the checkpoint row cannot be added, removed or changed outside the function.
 *
 * What it protects against: the portal's ordinary statements (a bug, an injected DELETE) removing
 * or rewriting entries, a removal that leaves no trace. What not: the tables' owner can drop the
 * triggers and a superuser can switch them off; the chain and the retention entries (recorded in
 * the trail, checked against the checkpoint by --verify) are what shows such an edit.
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration031: Migration = {
  async up(db) {
    await runStatements(db, [
      `create index audit_entry_history on audit_entry ("resource", (split_part("recordKey", '/', 1)), "at" desc, "id" desc)`,
      `create index audit_entry_resource_at on audit_entry ("resource", "at" desc, "id" desc)`,
      `create index audit_entry_actor_at on audit_entry ("actorLabel", "at" desc, "id" desc)`,
      `create table audit_retention (
        "id" integer primary key check ("id" = 1),
        "seq" bigint not null,
        "hash" text not null,
        "at" timestamptz
      )`,
      `insert into audit_retention ("id", "seq", "hash") values (1, 0, repeat('0', 64))`,
      `create function audit_guard_delete() returns trigger language plpgsql as $$
        declare
          checkpoint bigint;
        begin
          if coalesce(current_setting('audit.retention', true), '') <> 'on' then
            raise exception 'audit trail is append-only: % on % refused', tg_op, tg_table_name
              using errcode = 'insufficient_privilege';
          end if;
          select "seq" into checkpoint from audit_retention where "id" = 1 for update;
          if old."seq" <> checkpoint + 1 then
            raise exception 'audit retention removes the oldest entry first: % is not next after %', old."seq", checkpoint
              using errcode = 'insufficient_privilege';
          end if;
          if old."at" >= now() - interval '30 days' then
            raise exception 'audit retention keeps every entry younger than 30 days (entry %)', old."seq"
              using errcode = 'insufficient_privilege';
          end if;
          update audit_retention set "seq" = old."seq", "hash" = old."hash", "at" = old."at" where "id" = 1;
          return old;
        end
      $$`,
      `drop trigger audit_entry_append_only on audit_entry`,
      `create trigger audit_entry_no_update before update on audit_entry
        for each row execute function audit_refuse_change()`,
      `create trigger audit_entry_delete_guard before delete on audit_entry
        for each row execute function audit_guard_delete()`,
      `create function audit_guard_checkpoint() returns trigger language plpgsql as $$
        begin
          if tg_op = 'UPDATE' and coalesce(current_setting('audit.retention', true), '') = 'on' then
            return new;
          end if;
          raise exception 'audit trail is append-only: % on % refused', tg_op, tg_table_name
            using errcode = 'insufficient_privilege';
        end
      $$`,
      `create trigger audit_retention_keep before insert or update or delete on audit_retention
        for each row execute function audit_guard_checkpoint()`,
      `create trigger audit_retention_no_truncate before truncate on audit_retention
        for each statement execute function audit_refuse_change()`,
      // the one way entries leave: the oldest first, while older than the cutoff, at most max_rows
      `create function audit_remove_expired(cutoff timestamptz, max_rows integer) returns bigint language plpgsql as $$
        declare
          entry record;
          removed bigint := 0;
        begin
          perform set_config('audit.retention', 'on', true);
          for entry in select "id", "at" from audit_entry order by "seq" limit max_rows loop
            exit when entry."at" >= cutoff;
            delete from audit_entry where "id" = entry."id";
            removed := removed + 1;
          end loop;
          perform set_config('audit.retention', 'off', true);
          return removed;
        end
      $$`,
    ]);
  },
  async down(db) {
    await runStatements(db, [
      `drop function audit_remove_expired(timestamptz, integer)`,
      `drop table audit_retention`,
      `drop function audit_guard_checkpoint()`,
      `drop trigger audit_entry_delete_guard on audit_entry`,
      `drop trigger audit_entry_no_update on audit_entry`,
      `drop function audit_guard_delete()`,
      `create trigger audit_entry_append_only before update or delete on audit_entry
        for each row execute function audit_refuse_change()`,
      `drop index audit_entry_actor_at`,
      `drop index audit_entry_resource_at`,
      `drop index audit_entry_history`,
    ]);
  },
};
