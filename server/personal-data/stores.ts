/**
 * Where the portal keeps rows that name a person (issue 37, RODO): each store is a table, the
 * entity whose `x-personal` declaration says which of its columns are personal (the same fields
 * the screens show), how a row is linked to the person (their account, their employee record,
 * their login), and what is never handed out (hashes, keys, file contents). The export reads every
 * store in this order; the anonymisation rewrites the personal columns of the stores that must
 * stay (business records) and deletes the rest of what only serves the account.
 *
 * The tables are the data model's business (migrations), so this list is code; which columns are
 * personal is configuration (the entity schemas), read as the configuration is now.
 */
import { sql, type RawBuilder } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { PersonalKind } from '../config/personal-fields.ts';
import type { Person } from './person.ts';

export interface Store {
  /** The file's name in the export (json/<file>.json, the sheet's name). */
  file: string;
  table: keyof DB & string;
  /** The entity schema whose `x-personal` names the table's personal columns. */
  entity?: string;
  /** Personal columns of a table no entity schema shows (its own declaration, same kinds). */
  personal?: Record<string, PersonalKind>;
  /** The rows linked to the person (besides those naming them in a personal column). */
  link: (p: Person) => RawBuilder<boolean>;
  /** Columns never exported (secrets, hashes, file contents). */
  omit?: string[];
  /** The column the rows are ordered by. */
  order: string;
  /** Business records whose personal columns are rewritten (not deleted) by the anonymisation. */
  keep?: boolean;
  /** Rows that only serve the account: deleted by the anonymisation. */
  deleteLinked?: boolean;
  /** Append-only (the audit trail): never rewritten. */
  appendOnly?: boolean;
  /** The person's own record (account, employee): found by its link alone, never a namesake's by value. */
  linkOnly?: boolean;
  /**
   * The row's client: a person of a client (a driver, a fleet manager) is matched by value only in
   * rows of that client, so that a namesake at another client is neither exported nor rewritten.
   */
  clientColumn?: string;
}

const ref = (c: string) => sql.ref(c);
/** Linked by the account (false for an employee without one). */
const byUser = (p: Person) => (p.userId === null ? sql<boolean>`false` : sql<boolean>`${ref('userId')} = ${p.userId}`);
/** The trail's entries of one record (not of its parts, `<key>/<n>`), read by audit_entry_history. */
const ownRecord = (resource: string, key: string) =>
  sql<boolean>`${ref('resource')} = ${resource} and split_part(${ref('recordKey')}, '/', 1) = ${key} and ${ref('recordKey')} = ${key}`;
/** Linked by the login (false without an account). */
const byLogin = (p: Person) => (p.login === null ? sql<boolean>`false` : sql<boolean>`${ref('login')} = ${p.login}`);
const byEmployee = (column: string) => (p: Person) => (p.pracId === null ? sql<boolean>`false` : sql<boolean>`${ref(column)} = ${p.pracId}`);

export const STORES: readonly Store[] = [
  { file: 'uzytkownik', table: 'app_user', entity: 'user', link: (p) => (p.userId === null ? sql<boolean>`false` : sql<boolean>`${ref('id')} = ${p.userId}`), omit: ['passwordHash'], order: 'id', linkOnly: true },
  { file: 'pracownik', table: 'employee', entity: 'employee', link: byEmployee('pracId'), order: 'pracId', linkOnly: true },
  { file: 'przydzialy', table: 'vehicle_assignment', entity: 'assignment', link: byEmployee('pracId'), order: 'przydzialId', keep: true, clientColumn: 'klientSymbol' },
  { file: 'odczyty-licznika', table: 'mileage_reading', link: byUser, order: 'id', keep: true },
  { file: 'zlecenia', table: 'service_order', entity: 'order', link: byUser, order: 'autId', keep: true, clientColumn: 'klientSymbol' },
  {
    file: 'zmiany-statusow-zlecen', table: 'order_transition', personal: { login: 'login' }, order: 'id', keep: true,
    link: (p) => sql<boolean>`${byUser(p)} or ${byLogin(p)}`,
  },
  {
    file: 'szkody', table: 'damage', entity: 'damage', order: 'sprawaId', keep: true, clientColumn: 'klientSymbol',
    link: (p) => (p.pracId === null ? byUser(p) : sql<boolean>`${byUser(p)} or ${ref('pracId')} = ${p.pracId} or ${ref('pracIdPrzel')} = ${p.pracId}`),
  },
  { file: 'notatki', table: 'note', entity: 'note', link: byUser, order: 'id', keep: true },
  { file: 'zalaczniki', table: 'attachment', link: byUser, omit: ['content'], order: 'zalaczId', keep: true },
  { file: 'historia-logowan', table: 'login_history', entity: 'login-history', link: byLogin, order: 'id', keep: true },
  { file: 'akceptacje', table: 'terms_acceptance', link: byUser, order: 'id', keep: true },
  { file: 'powiadomienia', table: 'notification', entity: 'notification', link: byUser, order: 'id', keep: true },
  { file: 'ustawienia-powiadomien', table: 'notification_setting', link: byUser, order: 'userId', deleteLinked: true },
  { file: 'sesje', table: 'user_session', personal: { address: 'network', userAgent: 'network' }, link: byUser, omit: ['tokenHash'], order: 'createdAt', deleteLinked: true },
  { file: 'klucze-dostepu', table: 'user_passkey', link: byUser, omit: ['publicKey', 'credentialId'], order: 'id', deleteLinked: true },
  { file: 'zapisane-filtry', table: 'user_table_filter', link: byUser, order: 'id', deleteLinked: true },
  { file: 'zapisane-widoki', table: 'user_table_view', link: byUser, order: 'id', deleteLinked: true },
  {
    file: 'dziennik-zmian', table: 'audit_entry', personal: { actorLabel: 'login', address: 'network' }, order: 'seq', appendOnly: true,
    // what the person did, what was done to their account and to their employee record; a record
    // is named by its own key as a record's history names it (audit_entry_history, migration 056)
    link: (p) => sql<boolean>`${byUser(p)}
      or (${p.userId !== null} and ${ownRecord('users', String(p.userId))})
      or (${p.pracId !== null} and ${ownRecord('employee', String(p.pracId))})`,
  },
];

/** What only serves the account and is deleted with it, beyond the stores exported (secrets, tickets). */
export const ACCOUNT_SECRETS: readonly (keyof DB & string)[] = [
  'user_totp', 'user_recovery_code', 'password_reset', 'sign_in_ticket', 'download_token', 'sso_handoff',
];
