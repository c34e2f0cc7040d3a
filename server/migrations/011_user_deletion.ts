/**
 * 011 — deleting a portal account keeps its history (issue 13, docs/decisions.md "Deleting a user").
 *
 * An account with a past (sign-ins in login_history, accepted terms, orders, notes, attachments it
 * wrote) is not removed: DELETE /api/users/{id} marks it "deletedAt", clears its password hash and
 * e-mail use, and ends its sessions. The acceptance history (v_terms_acceptance joins app_user) and
 * the login history (by login text) stay readable with the person's name; the login stays taken,
 * so a history row can never be mistaken for a later account's. The users table (v_users) no
 * longer lists the account.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const USER_COLUMNS = ['id', 'login', 'rola', 'firstName', 'lastName', 'email', 'telefon', 'telefonKom', 'dataOd', 'dataDo', 'pwdDo', 'klientSymbol', 'stacjaSerw', 'pracId', 'firstLogin', 'failedLogins', 'lockedUntil', 'createdAt']
  .map((c) => `u."${c}"`).join(', ');

const usersView = (withoutDeleted: boolean) => `create or replace view v_users as
  select ${USER_COLUMNS},
    cl."klientNazwa",
    st."nazwa" as "stacjaNazwa"
  from app_user u
  left join client cl on cl."klient" = u."klientSymbol"
  left join service_station st on st."stacjaSerw" = u."stacjaSerw"${withoutDeleted ? `
  where u."deletedAt" is null` : ''}`;

export const migration011: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table app_user add column "deletedAt" timestamptz`,
      usersView(true),
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [usersView(false), `alter table app_user drop column "deletedAt"`]);
  },
};
