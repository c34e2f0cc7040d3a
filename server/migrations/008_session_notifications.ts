/**
 * Every server process keeps the sessions it checked for a few seconds (server/auth/
 * session-cache.ts). These triggers tell every process, at the commit of the change, which cached
 * sessions are no longer true, on the channel `portal_sessions` (PostgreSQL LISTEN/NOTIFY, which
 * PGlite has too):
 *
 *   "<schema>:s:<tokenHash>"  a session was deleted (sign-out, revocation, its vehicle deleted) or changed (vehicle switch)
 *   "<schema>:u:<userId>"     an account changed in any way (role, end date, lock, password, client…),
 *                             was deleted, or accepted / lost a terms document
 *   "<schema>:*"              the terms documents changed, or a table was truncated: drop everything
 *
 * The schema is part of the message because NOTIFY is per database and several portals (tests,
 * the bench) may share one database in different schemas. A notification is sent only when its
 * transaction commits, so a rolled-back change invalidates nothing — and needs not to.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const SESSION_CHANNEL = 'portal_sessions';

const notify = (what: string) => `perform pg_notify('${SESSION_CHANNEL}', TG_TABLE_SCHEMA || ':' || ${what});`;

export const migration008: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create function notify_session_changed() returns trigger language plpgsql as $$
       begin ${notify(`'s:' || old."tokenHash"`)} return null; end $$`,
      `create function notify_account_changed() returns trigger language plpgsql as $$
       begin ${notify(`'u:' || old."id"`)} return null; end $$`,
      `create function notify_terms_accepted() returns trigger language plpgsql as $$
       begin
         if TG_OP <> 'INSERT' then ${notify(`'u:' || old."userId"`)} end if;
         if TG_OP <> 'DELETE' then ${notify(`'u:' || new."userId"`)} end if;
         return null;
       end $$`,
      `create function notify_all_sessions() returns trigger language plpgsql as $$
       begin ${notify(`'*'`)} return null; end $$`,
      // the sliding expiry (lastSeenAt, expiresAt) changes nothing a cached session holds: no message
      `create trigger user_session_changed after delete or update of "tokenHash", "userId", "role", "pojazdId" on user_session
       for each row execute function notify_session_changed()`,
      `create trigger app_user_changed after delete or update on app_user
       for each row execute function notify_account_changed()`,
      `create trigger terms_acceptance_changed after insert or update or delete on terms_acceptance
       for each row execute function notify_terms_accepted()`,
      `create trigger terms_template_changed after insert or update or delete or truncate on terms_template
       for each statement execute function notify_all_sessions()`,
      `create trigger user_session_truncated after truncate on user_session for each statement execute function notify_all_sessions()`,
      `create trigger app_user_truncated after truncate on app_user for each statement execute function notify_all_sessions()`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      'drop trigger app_user_truncated on app_user',
      'drop trigger user_session_truncated on user_session',
      'drop trigger terms_template_changed on terms_template',
      'drop trigger terms_acceptance_changed on terms_acceptance',
      'drop trigger app_user_changed on app_user',
      'drop trigger user_session_changed on user_session',
      'drop function notify_all_sessions()',
      'drop function notify_terms_accepted()',
      'drop function notify_account_changed()',
      'drop function notify_session_changed()',
    ]);
  },
};
