/**
 * A person as the portal holds them (issue 37, RODO art. 15, 17, 20): the account, the employee
 * (driver) it is linked to, and the values that identify them anywhere else — names in both orders
 * ("Kowalski Jan", "Jan Kowalski"), e-mails, phone numbers, the login. Orders, damages and notes
 * name people by such values (the reporter, the vehicle's user, the author), not only by a link,
 * so both the export and the anonymisation find a person's rows by link OR by these values, in
 * the fields each entity declares personal (`x-personal`, server/config/personal-fields.ts).
 */
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { PersonalKind } from '../config/personal-fields.ts';

export interface Person {
  /** The account, or null for an employee (driver) who has none. */
  userId: number | null;
  login: string | null;
  pracId: number | null;
  firstName: string;
  lastName: string;
  /** Lower-cased, trimmed full names in both orders (account and employee). */
  names: string[];
  /** Lower-cased e-mails. */
  emails: string[];
  /** Phone numbers as their digits, the last nine (how a Polish number is written with or without +48). */
  phones: string[];
  /** The employee number at the client, if the person is an employee. */
  identifiers: string[];
  deletedAt: Date | null;
  /** The client the person belongs to (a driver's employer, a fleet manager's client), or null (administrators, advisors). */
  client: string | null;
}

type Db = Kysely<DB> | Transaction<DB>;

const clean = (v: string | null | undefined) => (v ?? '').trim().replace(/\s+/g, ' ');
const digits = (v: string | null | undefined) => (v ?? '').replace(/\D/g, '').slice(-9);

/** The account (deleted ones too: a deleted account's rows still name the person) or null. */
export async function findPerson(db: Db, userId: number): Promise<Person | null> {
  const user = await db.selectFrom('app_user').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) return null;
  const employee = user.pracId === null ? undefined : await db.selectFrom('employee').selectAll().where('pracId', '=', user.pracId).executeTakeFirst();
  const fullNames = (first: string, last: string) => (clean(first) && clean(last) ? [`${clean(last)} ${clean(first)}`, `${clean(first)} ${clean(last)}`] : []);
  const names = [...fullNames(user.firstName, user.lastName), ...(employee ? fullNames(employee.imie, employee.nazwisko) : [])];
  const emails = [user.email, employee?.email].map((e) => clean(e).toLowerCase()).filter(Boolean);
  const phones = [user.telefon, user.telefonKom, employee?.telefon, employee?.telefonKom].map(digits).filter((d) => d.length === 9);
  return {
    userId: user.id, login: user.login, pracId: user.pracId, firstName: user.firstName, lastName: user.lastName,
    names: [...new Set(names.map((n) => n.toLowerCase()))],
    emails: [...new Set(emails)],
    phones: [...new Set(phones)],
    identifiers: employee?.nrPrac ? [clean(employee.nrPrac)] : [],
    deletedAt: user.deletedAt ? new Date(user.deletedAt) : null,
    client: employee?.klient ?? user.klientSymbol ?? null,
  };
}

/**
 * The person an employee (driver) is: the account linked to the employee record when there is one
 * (the same person as from the users' table), else the employee alone, with no account, login or
 * sign-ins. Null when there is no such employee.
 */
export async function findPersonByEmployee(db: Db, pracId: number): Promise<Person | null> {
  const employee = await db.selectFrom('employee').selectAll().where('pracId', '=', pracId).executeTakeFirst();
  if (!employee) return null;
  // a live account before a deleted one, then the newest
  const account = await db.selectFrom('app_user').select('id').where('pracId', '=', pracId)
    .orderBy(sql`"deletedAt" is not null`).orderBy('id', 'desc').executeTakeFirst();
  if (account) return findPerson(db, account.id);
  const names = clean(employee.imie) && clean(employee.nazwisko)
    ? [`${clean(employee.nazwisko)} ${clean(employee.imie)}`, `${clean(employee.imie)} ${clean(employee.nazwisko)}`] : [];
  return {
    userId: null, login: null, pracId, firstName: employee.imie ?? '', lastName: employee.nazwisko ?? '',
    names: [...new Set(names.map((n) => n.toLowerCase()))],
    emails: [clean(employee.email).toLowerCase()].filter(Boolean),
    phones: [...new Set([employee.telefon, employee.telefonKom].map(digits).filter((d) => d.length === 9))],
    identifiers: employee.nrPrac ? [clean(employee.nrPrac)] : [],
    deletedAt: null,
    client: employee.klient ?? null,
  };
}

/**
 * The SQL condition "column `column` of the current row holds one of the person's values of
 * `kind`" (false when the person has none of that kind). Addresses and network data are never
 * matched by value: a town or an address is shared by many; they are a person's only in the rows
 * linked to them.
 */
export function matches(person: Person, column: string, kind: PersonalKind): RawBuilder<boolean> {
  const col = sql.ref(column);
  const list = (values: string[]) => sql.join(values);
  switch (kind) {
    case 'name':
      return person.names.length ? sql<boolean>`lower(regexp_replace(trim(${col}), '\\s+', ' ', 'g')) in (${list(person.names)})` : sql<boolean>`false`;
    case 'email':
      return person.emails.length ? sql<boolean>`lower(trim(${col})) in (${list(person.emails)})` : sql<boolean>`false`;
    case 'phone':
      return person.phones.length ? sql<boolean>`right(regexp_replace(${col}, '[^0-9]', '', 'g'), 9) in (${list(person.phones)})` : sql<boolean>`false`;
    case 'login':
      return person.login === null ? sql<boolean>`false` : sql<boolean>`${col} = ${person.login}`;
    case 'identifier':
      return person.identifiers.length ? sql<boolean>`trim(${col}) in (${list(person.identifiers)})` : sql<boolean>`false`;
    default:
      return sql<boolean>`false`;
  }
}
