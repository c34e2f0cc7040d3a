/**
 * A person's data on request (RODO art. 15, 20) and forgetting them (art. 17), issue 37;
 * docs/decisions.md "RODO: export and anonymisation (issue 37)".
 *
 * - `personRows` reads every store (stores.ts) for the person: the rows linked to them and the
 *   rows naming them in a column their entity declares personal.
 * - `exportArchive` packs them as a zip: indeks.txt (Polish: what each file is), json/<file>.json
 *   and dane-osobowe.xlsx with a sheet per file.
 * - `anonymise` rewrites, in the caller's transaction, every personal column that holds one of the
 *   person's values by a pseudonym (names, logins) or nothing (e-mails, phones, addresses), closes
 *   the account and deletes what only served it (sessions, passkeys, second factor, settings). An
 *   employee (driver) without an account is the same person without those: the employee record
 *   and the business records naming them are rewritten, nothing else.
 */
import JSZip from 'jszip';
import { sql, type Kysely, type Transaction } from 'kysely';
import type * as XLSXTypes from 'xlsx';
import { lazyModule } from '../lazy-module.ts';
import type { Bundle } from '../config/bundle.ts';
import { personalFields, type PersonalKind } from '../config/personal-fields.ts';
import type { DB } from '../db/types.generated.ts';
import { matches, type Person } from './person.ts';
import { ACCOUNT_SECRETS, STORES, type Store } from './stores.ts';

type Db = Kysely<DB> | Transaction<DB>;
type Row = Record<string, unknown>;

interface Column { nullable: boolean }
/** The columns of the stores' tables, as the database has them now (a view column is not one). */
async function tableColumns(db: Db): Promise<Map<string, Map<string, Column>>> {
  const tables = STORES.map((s) => s.table);
  const rows = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    select table_name, column_name, is_nullable from information_schema.columns
    where table_schema = current_schema() and table_name in (${sql.join(tables)})`.execute(db);
  const out = new Map<string, Map<string, Column>>();
  for (const r of rows.rows) {
    if (!out.has(r.table_name)) out.set(r.table_name, new Map());
    out.get(r.table_name)!.set(r.column_name, { nullable: r.is_nullable === 'YES' });
  }
  return out;
}

/** The store's personal columns that are columns of its table, with their kinds. */
function personalColumns(store: Store, bundle: Bundle, columns: Map<string, Column> | undefined): [string, PersonalKind][] {
  const declared = { ...(store.entity ? personalFields(bundle.schemas[store.entity]) : {}), ...store.personal };
  return Object.entries(declared).filter(([c]) => columns?.has(c));
}

/** A person's value in the column, within the person's client where the store has one. */
function valueMatch(store: Store, person: Person, column: string, kind: PersonalKind) {
  const match = matches(person, column, kind);
  return store.clientColumn && person.client !== null ? sql<boolean>`(${match} and ${sql.ref(store.clientColumn)} = ${person.client})` : match;
}

/** "Linked to the person, or naming them in a personal column". */
function personCondition(store: Store, person: Person, personal: [string, PersonalKind][]) {
  if (store.linkOnly || !personal.length) return sql<boolean>`(${store.link(person)})`;
  return sql<boolean>`(${store.link(person)}) or ${sql.join(personal.map(([c, kind]) => valueMatch(store, person, c, kind)), sql` or `)}`;
}

export interface PersonFile { store: Store; rows: Row[] }

export async function personRows(db: Db, bundle: Bundle, person: Person): Promise<PersonFile[]> {
  const columns = await tableColumns(db);
  const out: PersonFile[] = [];
  for (const store of STORES) {
    const cols = columns.get(store.table);
    if (!cols) continue;
    const shown = [...cols.keys()].filter((c) => !store.omit?.includes(c));
    const personal = personalColumns(store, bundle, cols);
    const result = await sql<Row>`select ${sql.join(shown.map((c) => sql.ref(c)))} from ${sql.table(store.table)}
      where ${personCondition(store, person, personal)} order by ${sql.ref(store.order)}`.execute(db);
    out.push({ store, rows: result.rows });
  }
  return out;
}

const plain = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : Buffer.isBuffer(v) ? `(${v.length} B)` : v);
const plainRow = (row: Row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)]));
/** A cell's value in the sheet: objects (JSON columns) as their JSON text. */
const cell = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : v);

export interface ArchiveTexts {
  /** The index's heading lines (who, when). */
  heading: string[];
  /** What a file is, by the store's file name. */
  describe: (file: string) => string;
  /** "N wierszy". */
  rows: (n: number) => string;
  /** The paragraph about the xlsx and the JSON files. */
  formats: string[];
  /** A sheet's name (at most 31 characters), by the store's file name; else the file name. */
  sheet?: (file: string) => string;
}

/** How the sheets name a column and write a value: as the screens do (server/audit/labels.ts's namer). */
export interface SheetNames {
  label(entity: string, column: string): string;
  value(entity: string, column: string, value: unknown): string;
}

/** A DATE the driver read as local midnight, back to its calendar day (as server/db/rows.ts does). */
const dayOf = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/**
 * One store's sheet, for the person to read (issue 49): a header of the fields' labels ("Nazwisko",
 * not `nazwisko`; a column no screen names keeps its name), values as the screens show them (dates
 * by the reader's date pattern, codes by their labels). The JSON files stay as stored: the machine-readable copy.
 */
function readableSheet(XLSX: typeof XLSXTypes, store: Store, rows: Row[], names: SheetNames, bundle?: Bundle): XLSXTypes.WorkSheet {
  const entity = store.entity ?? store.table;
  const columns = Object.keys(rows[0] ?? {});
  const properties = (store.entity ? bundle?.schemas[store.entity]?.properties : undefined) as Record<string, { format?: string }> | undefined;
  const shown = (column: string, v: unknown) => {
    if (v instanceof Date && properties?.[column]?.format === 'date') return names.value(entity, column, dayOf(v));
    const value = plain(v);
    if (typeof value === 'number') return value;
    return names.value(entity, column, value);
  };
  return XLSX.utils.aoa_to_sheet([columns.map((c) => names.label(entity, c)), ...rows.map((r) => columns.map((c) => shown(c, r[c])))]);
}

/** The xlsx library, loaded for the first export (server/lazy-module.ts). */
const xlsxLibrary = lazyModule(() => import('xlsx'));

/**
 * The zip: indeks.txt, json/<file>.json per store, dane-osobowe.xlsx with a sheet per store that
 * holds rows (a sheet saying "0 wierszy" told the person nothing; the index still lists the store).
 */
export async function exportArchive(files: PersonFile[], texts: ArchiveTexts, names?: SheetNames, bundle?: Bundle): Promise<Buffer> {
  const XLSX = await xlsxLibrary();
  const zip = new JSZip();
  const book = XLSX.utils.book_new();
  const index = [...texts.heading, '', ...texts.formats, ''];
  for (const { store, rows } of files) {
    const data = rows.map(plainRow);
    zip.file(`json/${store.file}.json`, `${JSON.stringify(data, null, 2)}\n`);
    if (data.length) {
      const sheet = names
        ? readableSheet(XLSX, store, rows, names, bundle)
        : XLSX.utils.json_to_sheet(data.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, cell(v)]))));
      XLSX.utils.book_append_sheet(book, sheet, texts.sheet?.(store.file) ?? store.file.slice(0, 31));
    }
    index.push(`json/${store.file}.json — ${texts.describe(store.file)} (${texts.rows(rows.length)})`);
  }
  if (!book.SheetNames.length) XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([[texts.rows(0)]]), 'dane');
  zip.file('dane-osobowe.xlsx', XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
  // CRLF: the index opens as it should in Notepad too
  zip.file('indeks.txt', `\ufeff${index.join('\r\n')}\r\n`);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', platform: 'DOS' });
}

/** What the tables outside the export are called in the trail's count of an anonymisation. */
const OTHER_NAMES: Record<string, string> = {
  webhook_message: 'wiadomosci-webhookow', user_totp: 'drugi-skladnik', user_recovery_code: 'kody-odzyskiwania',
  password_reset: 'kody-resetu-hasla', sign_in_ticket: 'bilety-logowania', download_token: 'linki-pobierania',
  sso_handoff: 'logowanie-jednokrotne', sign_in_failure: 'nieudane-logowania', idempotency_key: 'odpowiedzi-zgloszen',
};

export interface Pseudonym { login: string; firstName: string; lastName: string; fullName: string }

/** What an anonymisation changed, per table: the rows rewritten or deleted. */
export type AnonymisedCounts = Record<string, number>;

const replaceIn = (value: unknown, targets: { from: string; to: string }[]): unknown => {
  if (typeof value === 'string') return targets.reduce((s, t) => s.split(t.from).join(t.to), value);
  if (Array.isArray(value)) return value.map((v) => replaceIn(v, targets));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceIn(v, targets)]));
  return value;
};

/**
 * Forgets the person in `trx`: see the module's comment. The audit trail is append-only and is not
 * touched (its entries keep the login of their time; docs/decisions.md says why that is lawful).
 */
export async function anonymise(trx: Transaction<DB>, bundle: Bundle, person: Person, pseudonym: Pseudonym): Promise<AnonymisedCounts> {
  const counts: AnonymisedCounts = {};
  // counted under the export's file names (the trail's reader knows them from the index), else the table's
  const count = (table: string, n: bigint | number | undefined) => {
    const k = Number(n ?? 0);
    const name = STORES.find((st) => st.table === table)?.file ?? OTHER_NAMES[table] ?? table;
    if (k) counts[name] = (counts[name] ?? 0) + k;
  };
  const columns = await tableColumns(trx);
  const replacement = (kind: PersonalKind, column: Column) => {
    if (kind === 'name') return pseudonym.fullName;
    if (kind === 'login') return pseudonym.login;
    return column.nullable ? null : '-';
  };

  // the business records stay, each personal column holding one of the person's values rewritten
  for (const store of STORES) {
    if (!store.keep) continue;
    const cols = columns.get(store.table);
    const personal = personalColumns(store, bundle, cols);
    if (!personal.length) continue;
    // one statement per table: each column rewritten where it holds the person's value, each row counted once
    const sets = personal.map(([column, kind]) =>
      sql`${sql.ref(column)} = case when ${valueMatch(store, person, column, kind)} then ${replacement(kind, cols!.get(column)!)} else ${sql.ref(column)} end`);
    const any = sql.join(personal.map(([column, kind]) => valueMatch(store, person, column, kind)), sql` or `);
    const result = await sql`update ${sql.table(store.table)} set ${sql.join(sets)} where ${any}`.execute(trx);
    count(store.table, result.numAffectedRows);
  }

  // what names the person in the text of notifications and webhook messages (a resend sends it as
  // stored): their names as written, e-mails and phones
  const user = person.userId === null ? undefined : await trx.selectFrom('app_user').selectAll().where('id', '=', person.userId).executeTakeFirstOrThrow();
  const employee = person.pracId === null ? undefined : await trx.selectFrom('employee').selectAll().where('pracId', '=', person.pracId).executeTakeFirst();
  const written = new Set<string>();
  for (const [first, last] of [[user?.firstName, user?.lastName], [employee?.imie, employee?.nazwisko]]) {
    if (first?.trim() && last?.trim()) { written.add(`${last.trim()} ${first.trim()}`); written.add(`${first.trim()} ${last.trim()}`); }
  }
  const erased = new Set([user?.email, user?.telefon, user?.telefonKom, employee?.email, employee?.telefon, employee?.telefonKom].filter((v): v is string => !!v?.trim() && v.trim().length >= 5).map((v) => v.trim()));
  const targets = [...[...written].map((from) => ({ from, to: pseudonym.fullName })), ...[...erased].map((from) => ({ from, to: '' }))]
    // the longer first, so "Jan Kowalski" goes before a shorter value inside it
    .sort((a, b) => b.from.length - a.from.length);
  if (targets.length) {
    for (const table of ['notification', 'webhook_message'] as const) {
      const like = sql.join(targets.map((t) => sql`${sql.ref('payload')}::text like ${`%${t.from.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`), sql` or `);
      const rows = await sql<{ id: number; payload: unknown }>`select "id", "payload" from ${sql.table(table)} where ${like}`.execute(trx);
      for (const row of rows.rows) {
        const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload;
        await sql`update ${sql.table(table)} set "payload" = ${JSON.stringify(replaceIn(payload, targets))}::jsonb where "id" = ${row.id}`.execute(trx);
        count(table, 1);
      }
    }
  }
  // the employee record stays (assignments, damages and cards point to it), named by the pseudonym
  if (person.pracId !== null) {
    const result = await trx.updateTable('employee').set({
      imie: pseudonym.firstName, nazwisko: pseudonym.lastName, email: null, telefon: null, telefonKom: null,
      ulica: null, kodPoczt: null, miejscow: null, nrPrac: null,
    }).where('pracId', '=', person.pracId).executeTakeFirst();
    count('employee', result.numUpdatedRows);
  }
  // an employee without an account: nothing more is theirs
  if (person.userId === null || person.login === null) return counts;

  // the person's own notifications: no address kept, nothing more sent
  count('notification', (await trx.updateTable('notification').set({ email: null }).where('userId', '=', person.userId).where('email', 'is not', null).executeTakeFirst()).numUpdatedRows);
  await trx.updateTable('notification').set({ state: 'skipped' }).where('userId', '=', person.userId).where('state', 'in', ['queued', 'sending']).execute();

  // what served only the account goes
  for (const store of STORES) {
    if (!store.deleteLinked || !columns.has(store.table)) continue;
    const result = await sql`delete from ${sql.table(store.table)} where ${store.link(person)}`.execute(trx);
    count(store.table, result.numAffectedRows);
  }
  for (const table of ACCOUNT_SECRETS) {
    const result = await sql`delete from ${sql.table(table)} where "userId" = ${person.userId}`.execute(trx);
    count(table, result.numAffectedRows);
  }
  count('sign_in_failure', (await trx.deleteFrom('sign_in_failure').where('login', '=', person.login).executeTakeFirst()).numDeletedRows);
  // the kept answers of the account's submissions (issue 47: a damage's answer names its reporter)
  count('idempotency_key', (await trx.deleteFrom('idempotency_key').where('principal', '=', `user:${person.userId}`).executeTakeFirst()).numDeletedRows);

  // the account: closed (as a deleted one), named by the pseudonym, no way in left
  await trx.updateTable('app_user').set({
    login: pseudonym.login, firstName: pseudonym.firstName, lastName: pseudonym.lastName,
    email: null, telefon: null, telefonKom: null, ssoSubject: null, passwordHash: null,
    deletedAt: sql`coalesce("deletedAt", now())`, dataDo: sql<string>`least(coalesce("dataDo", current_date - 1), current_date - 1)`,
    firstLogin: true, lockedUntil: null, failedLogins: 0,
  }).where('id', '=', person.userId).execute();
  count('app_user', 1);
  return counts;
}
