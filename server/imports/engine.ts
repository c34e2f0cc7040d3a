/**
 * One import run, from the stored file to the counts (docs/decisions.md "Imports (issue 34)"):
 *
 * 1. the file streams out of import_file_chunk to the run's row thread (rows-thread.ts), which
 *    parses it (read-file.ts) and checks each row (types, Polish formats, the entity schema's rules:
 *    row-check.ts); rows in error go to import_error, good ones to a temporary staging table (COPY
 *    on PostgreSQL);
 * 2. set-based, in SQL: the typed rows (jsonb_populate_record over the target table's row type) and
 *    their references looked up, a staged batch at a time while the row thread checks the next ones;
 *    then the checks that need the database (a reference that does not
 *    exist, the same key twice in the file, a key of another client's row, the readings' rules);
 * 3. one transaction: UPDATE … WHERE … IS DISTINCT FROM (an unchanged row is not even rewritten),
 *    INSERT of the new keys, the deactivation of the missing ones, the follow-ups (a reading moves
 *    its vehicle's odometer); the database's own triggers mark what reminders and the cockpit must
 *    recompute, as for a typed-in write. A dry run, or an all-or-nothing run with errors, writes
 *    nothing: it counts the rows those statements' own conditions select (the same SQL text).
 */
import type { Bundle, Language } from '../config/bundle.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { ImportDecl, ResolvedField } from '../config/import-declaration.ts';
import { fieldLabel, writtenColumns } from '../config/import-declaration.ts';
import { ImportFileError, type ImportFormat } from './read-file.ts';
import { checkPlanFor } from './row-check.ts';
import { openCheckedRows, type CheckedRows } from './rows-thread.ts';
import type { ImportSession } from './session.ts';
import { WRITTEN_NOW, followUp, moreChecks, rowClientFilter, writeChildren } from './more.ts';
import { executeFileRun } from './files.ts';
import { insertTree, resolveTree, treeChecks } from './tree.ts';
import { recordTrail, trailReturning, type TrailTarget } from './trail.ts';
import { IMPORT_THREAD_NICE } from './kept-threads.ts';
import { anomaliesFile, findAnomalies } from '../anomalies/find.ts';
import { analyzeIfChanged, plannedRows } from './statistics.ts';

export interface RunRow {
  id: number;
  declaration: string;
  fileName: string;
  format: ImportFormat;
  mode: 'dryRun' | 'import';
  onError: 'allOrNothing' | 'validRows';
  missing: 'keep' | 'deactivate';
  mapping: Record<string, string | null> | null;
  clients: string[] | null;
  /**
   * The rows the dry run this import names counted to deactivate (issue 49): the import deactivates
   * no more than that — a file's clients that gained rows since would retire rows nobody was shown.
   */
  approvedDeactivated?: number | null;
  /**
   * The audit trail's entry of a run that writes (issue 37): run last in the transaction that
   * commits its rows, with the counts and rows read, so the rows and their entry commit together.
   */
  beforeCommit?: (counts: RunOutcome['counts'], total: number) => Promise<void>;
  /** Where the entries of the records the run writes go (issue 45, trail.ts), in its transaction. */
  trailTarget?: TrailTarget;
}

export interface ImportLimits {
  maxRows: number;
}

export interface RunOutcome {
  state: 'succeeded' | 'failed';
  message: string;
  counts: { new: number; changed: number; unchanged: number; deactivated: number; errors: number };
  total: number;
  /** The active rows of the file's clients a deactivating run found (the whole its `deactivated` is a share of), else null. */
  activeRows?: number | null;
  unknownColumns: string[];
  encoding: string | null;
  delimiter: string | null;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;

const FLUSH_ROWS = 2000;
const PROGRESS_EVERY = 10_000;
const CHUNKS_PER_READ = 4;
/** The row thread checks this many batches ahead of the staging (each FLUSH_ROWS rows). */
const BATCHES_AHEAD = 2;

/** The stored file, chunk after chunk, a few at a time. */
async function* storedFile(session: ImportSession, runId: number): AsyncIterable<Buffer> {
  for (let seq = 0; ; seq += CHUNKS_PER_READ) {
    const { rows } = await session.query<{ data: Buffer | Uint8Array }>(
      'select "data" from import_file_chunk where "runId" = $1 and "seq" >= $2 and "seq" < $3 order by "seq"', [runId, seq, seq + CHUNKS_PER_READ]);
    for (const row of rows) yield Buffer.from(row.data);
    if (rows.length < CHUNKS_PER_READ) return;
  }
}

/** The field a file column stands for: the run's mapping, else the remembered one, else the suggestion. */
export function fieldColumns(decl: ImportDecl, columns: string[], mapping: Record<string, string | null>) {
  const columnIndex = new Map<string, number>();
  const columnOf = new Map<string, string>();
  const unknownColumns: string[] = [];
  const known = new Set(decl.fields.map((f) => f.id));
  columns.forEach((column, index) => {
    const field = mapping[column];
    if (field && known.has(field) && !columnIndex.has(field)) {
      columnIndex.set(field, index);
      columnOf.set(field, column);
    } else if (column && !field) unknownColumns.push(column);
  });
  return { columnIndex, columnOf, unknownColumns };
}

/** The key columns (or the references that give them) that no column of the file provides, by label. */
export function missingKeyColumns(decl: ImportDecl, columnIndex: Map<string, number>, t: Translate): string[] {
  const missing: string[] = [];
  const refs = decl.references ?? {};
  const provided = (reference: string) => decl.fields.some((f) => f.reference === reference && columnIndex.has(f.id));
  for (const key of decl.key) {
    const field = decl.fields.find((f) => f.id === key && !f.reference);
    if (field) {
      if (!columnIndex.has(key)) missing.push(fieldLabel(decl, field, t));
      continue;
    }
    const [name] = Object.entries(refs).find(([, r]) => r.into === key) ?? [];
    if (name && !provided(name)) missing.push(decl.fields.filter((f) => f.reference === name).map((f) => fieldLabel(decl, f, t)).join(' / '));
  }
  for (const [name, ref] of Object.entries(refs)) {
    if (ref.required && !decl.key.includes(ref.into) && !provided(name)) missing.push(decl.fields.filter((f) => f.reference === name).map((f) => fieldLabel(decl, f, t)).join(' / '));
  }
  return missing;
}

/**
 * Runs one run. `t` and `language` are the run's caller's (import_run.language, issue 48): the row
 * thread, the database's checks and the run's message word what they find in his language.
 */
export async function executeRun(
  session: ImportSession, bundle: Bundle, run: RunRow, decl: ImportDecl, t: Translate, limits: ImportLimits,
  mapping: (columns: string[]) => Promise<Record<string, string | null>>, language: Pick<Language, 'id' | 'locale'>,
): Promise<RunOutcome> {
  if (decl.files) return executeFileRun(session, run, decl, t);
  const plan = checkPlanFor(bundle, decl);
  const rows = await openCheckedRows(storedFile(session, run.id), {
    format: run.format, fileName: run.fileName, plan, locales: bundle.locales, language, maxRows: limits.maxRows,
    copyText: session.kind === 'postgres', batchRows: FLUSH_ROWS, batchesAhead: BATCHES_AHEAD, nice: IMPORT_THREAD_NICE,
  });
  try {
    return await executeChecked(session, bundle, run, decl, t, mapping, plan.fields, rows);
  } finally {
    await rows.close();
  }
}

async function executeChecked(
  session: ImportSession, bundle: Bundle, run: RunRow, decl: ImportDecl, t: Translate,
  mapping: (columns: string[]) => Promise<Record<string, string | null>>, fields: ResolvedField[], rows: CheckedRows,
): Promise<RunOutcome> {
  const { head } = rows;
  const { columnIndex, columnOf, unknownColumns } = fieldColumns(decl, head.columns, await mapping(head.columns));
  await session.query('update import_run set "columns" = $2, "unknownColumns" = $3, "encoding" = $4, "delimiter" = $5 where "id" = $1',
    [run.id, JSON.stringify(head.columns), JSON.stringify(unknownColumns), head.encoding, head.delimiter]);
  const missingKeys = missingKeyColumns(decl, columnIndex, t);
  if (missingKeys.length) throw new ImportFileError('import:errors.keyMissing', { columns: missingKeys.join(', ') });

  // typed rows with their references found
  const stage = `import_stage_${run.id}`;
  const resolved = `import_rows_${run.id}`;
  const written = writtenColumns(decl);
  const refs = decl.references ?? {};
  const refInto = new Set(Object.values(refs).map((r) => r.into));
  const clientFilter = (alias: string, column: string | undefined) =>
    run.clients && column ? ` and ${alias}.${q(column)} = any($1::text[])` : '';
  const select: string[] = ['s."_row"', 's."_json"', 's."_cells"'];
  for (const column of written) {
    if (refInto.has(column)) continue;
    select.push(`p.${q(column)}`);
  }
  // `known`: references already found in an inner select, by the column they were found into (below)
  const lookupOf = (name: string, ref: (typeof refs)[string], extra = '', known = new Map<string, string>()): string => {
    if (!extra && known.has(name)) return known.get(name)!;
    const finders = decl.fields.filter((f) => f.reference === name && columnIndex.has(f.id));
    // the client reference of a table with its own client column: a key limited to some clients finds only theirs
    const ownClient = ref.into === decl.client ? ref.id : ref.client;
    const lookups = finders.map((f) => `(select r.${q(ref.id)} from ${q(ref.table)} r where r.${q(f.column ?? f.id)} = s."_json"->>${lit(`$ref:${name}:${f.id}`)}${clientFilter('r', ownClient)}${extra} limit 1)`);
    // none of its columns in this file: typed as the target column (the stored value is kept, below)
    // found through another reference's record (a transaction's vehicle: the one typed in, else its card's), and
    // a typed-in record must belong to that record's client (a vehicle of the card's client)
    const via = ref.from && refs[ref.from.reference];
    if (ref.from && via) {
      const other = lookupOf(ref.from.reference, via, '', known);
      const sameClient = ref.from.client && ref.client
        ? ` and r.${q(ref.client)} = (select o.${q(ref.from.client)} from ${q(via.table)} o where o.${q(via.id)} = ${other})` : '';
      const typed = finders.map((f) => `(select r.${q(ref.id)} from ${q(ref.table)} r where r.${q(f.column ?? f.id)} = s."_json"->>${lit(`$ref:${name}:${f.id}`)}${clientFilter('r', ownClient)}${sameClient}${extra} limit 1)`);
      const fallback = `(select o.${q(ref.from.column)} from ${q(via.table)} o where o.${q(via.id)} = ${other})`;
      // a vehicle typed in but not found stays not found (an error), never silently the card's
      const given = finders.map((f) => `s."_json" ? ${lit(`$ref:${name}:${f.id}`)}`);
      return given.length ? `case when ${given.join(' or ')} then coalesce(${typed.join(', ')}) else ${fallback} end` : fallback;
    }
    return lookups.length ? `coalesce(${lookups.join(', ')})` : `(null::${q(decl.table)}).${q(ref.into)}`;
  };
  // a reference with a client column is found among the records of the row's own client (more.ts)
  const clientOf = (name: string, known?: Map<string, string>) => rowClientFilter(decl, name, (n, r) => lookupOf(n, r, '', known));
  // A reference found through another one (a transaction's vehicle through its card; a record
  // limited to the row's client) is found in an outer select, from the column the inner select
  // found the other into: inlined, each of a million fuel transactions looked its card up three times.
  const entries = Object.entries(refs);
  const alone = entries.filter(([name, ref]) => !ref.from && !clientOf(name));
  const through = entries.filter((entry) => !alone.includes(entry));
  for (const [name, ref] of alone) select.push(`${lookupOf(name, ref)} as ${q(ref.into)}`);
  const known = new Map(alone.map(([name, ref]) => [name, `s.${q(ref.into)}`]));
  const outer = through.map(([name, ref]) => `${lookupOf(name, ref, clientOf(name, known), known)} as ${q(ref.into)}`);
  const inner = `select ${select.join(', ')} from ${stage} s cross join lateral jsonb_populate_record(null::${q(decl.table)}, s."_json") p`;
  // (`offset 0`: the planner would otherwise pull the inner select up, each use of its column again the lookup)
  const resolving = outer.length ? `select s.*, ${outer.join(', ')} from (${inner} offset 0) s` : inner;
  const resolvingParams = run.clients && [...select, ...outer].some((column) => column.includes('$1')) ? [run.clients] : [];
  await session.query(`drop table if exists ${stage}`);
  await session.query(`drop table if exists ${resolved}`);
  // "_row", "_json", "_cells": names no table column has (a reading's own column is "data")
  await session.query(`create temporary table ${stage} ("_row" integer not null, "_json" jsonb not null, "_cells" jsonb not null)`);

  // Each batch is typed and its references found as it is staged, while the row thread checks the
  // next ones: the database's half of the resolving then runs while the file is read, not after it
  // (docs/decisions.md "A million fuel transactions: each batch resolved as it is staged").
  await session.query(`create temporary table ${resolved} as ${resolving} with no data`, resolvingParams);
  let total = 0;
  for await (const batch of rows.batches(columnIndex, columnOf)) {
    await session.stage(stage, ['_row', '_json', '_cells'], batch.copyText, batch.values);
    await session.query(`insert into ${resolved} ${resolving}`, resolvingParams);
    await session.query(`truncate ${stage}`);
    if (batch.errors.length) {
      const params: unknown[] = [];
      const tuples = batch.errors.map((r) => `(${[run.id, ...r].map((v) => { params.push(v); return `$${params.length}`; }).join(', ')})`);
      await session.query(`insert into import_error ("runId", "rowNo", "column", "message", "cells") values ${tuples.join(', ')}`, params);
    }
    if (Math.floor(batch.total / PROGRESS_EVERY) > Math.floor(total / PROGRESS_EVERY)) {
      await session.query('update import_run set "progressRows" = $2 where "id" = $1', [run.id, batch.total]);
    }
    total = batch.total;
  }
  if (total === 0) throw new ImportFileError('import:errors.emptyFile');
  await session.query('update import_run set "progressRows" = $2, "progressTotal" = $2 where "id" = $1', [run.id, total]);

  await session.query(`drop table ${stage}`);
  await session.query(`create index on ${resolved} (${decl.key.map(q).join(', ')})`);
  await session.query(`analyze ${resolved}`);

  const keyJoin = (a: string, b: string) => decl.key.map((k) => `${a}.${q(k)} = ${b}.${q(k)}`).join(' and ');
  const headingOf = (field: string) => columnOf.get(field) ?? field;
  const refHeading = (name: string) => decl.fields.filter((f) => f.reference === name && columnOf.has(f.id)).map((f) => columnOf.get(f.id)!).join(' / ') || name;
  const keyHeading = (key: string) => {
    if (columnOf.has(key)) return columnOf.get(key)!;
    const [name] = Object.entries(refs).find(([, r]) => r.into === key) ?? [];
    return name ? refHeading(name) : key;
  };
  const addErrors = async (column: string, message: string, from: string, params: unknown[] = []) => {
    await session.query(
      `insert into import_error ("runId", "rowNo", "column", "message", "cells") select ${run.id}, x."_row", ${lit(column)}, ${from.includes('"message"') ? 'x."message"' : lit(message)}, x."_cells" from (${from}) x`,
      params,
    );
  };

  // the records the run writes, for their trail entries (issue 45, trail.ts)
  const trail = recordTrail((text, values) => session.query(text, values), run.trailTarget);
  const more = { session, decl, run, t, resolved, keyJoin, headingOf, keyHeading, addErrors, hasColumn: (field: string) => columnIndex.has(field), trail };
  // a tree's parents new in this file are found there, and the levels computed (tree.ts)
  await resolveTree(more);
  // a reference that does not exist (or is another client's)
  for (const [name, ref] of Object.entries(refs)) {
    const given = decl.fields.filter((f) => f.reference === name && columnIndex.has(f.id)).map((f) => `r."_json" ? ${lit(`$ref:${name}:${f.id}`)}`);
    const condition = ref.required ? 'true' : given.length ? given.join(' or ') : 'false';
    await addErrors(refHeading(name), t(ref.message ?? 'import:errors.notFound'), `select r."_row", r."_cells" from ${resolved} r where r.${q(ref.into)} is null and (${condition})`);
  }
  // the same key twice in one file: each row names all of them
  const keysGiven = decl.key.map((k) => `r.${q(k)} is not null`).join(' and ');
  const duplicate = t('import:errors.duplicate', { rows: '{{rows}}' });
  await addErrors(keyHeading(decl.key[decl.key.length === 1 ? 0 : 0]), duplicate, `
    select r."_row", r."_cells", replace(${lit(duplicate)}, '{{rows}}', d."rows") as "message"
    from ${resolved} r join (
      select ${decl.key.map(q).join(', ')}, array_to_string(array_agg("_row" order by "_row"), ', ') as "rows"
      from ${resolved} r where ${keysGiven} group by ${decl.key.map(q).join(', ')} having count(*) > 1
    ) d on ${keyJoin('d', 'r')}`);
  // a key of another client's row is refused, never moved between clients
  if (decl.client) {
    const clientRef = Object.entries(refs).find(([, r]) => r.into === decl.client)?.[0];
    await addErrors(clientRef ? refHeading(clientRef) : headingOf(decl.client), t('import:errors.otherClient'), `
      select r."_row", r."_cells" from ${resolved} r join ${q(decl.table)} t on ${keyJoin('t', 'r')}
      where r.${q(decl.client)} is not null and t.${q(decl.client)} is distinct from r.${q(decl.client)}`);
  }
  const compared = written.filter((c) => !decl.key.includes(c));
  if (decl.insertOnly) {
    // history is not rewritten: a row of the same key must say the same
    await addErrors(keyHeading(decl.key[0]), t('import:errors.historyChanged'), `
      select r."_row", r."_cells" from ${resolved} r join ${q(decl.table)} t on ${keyJoin('t', 'r')}
      where (${compared.map((c) => `t.${q(c)}`).join(', ')}, null) is distinct from (${compared.map((c) => `r.${q(c)}`).join(', ')}, null)`);
  }
  for (const rule of decl.rules ?? []) {
    if (rule === 'readingNotFuture') {
      await addErrors(headingOf('data'), t('import:errors.readingFuture'), `select r."_row", r."_cells" from ${resolved} r where r."data" > now()`);
    }
    if (rule === 'readingNotBelowLast') {
      // the counter form's rule: not below the vehicle's current reading — for readings after it;
      // and within the file, not below the vehicle's reading before it
      const below = t('import:errors.readingBelowLast', { last: '{{last}}' });
      await addErrors(headingOf('licznik'), below, `
        select r."_row", r."_cells", replace(${lit(below)}, '{{last}}', c."aktStanLicz"::text) as "message"
        from ${resolved} r join car c on c."pojazdId" = r."pojazdId"
        where r."licznik" < c."aktStanLicz" and (c."aktDataLicz" is null or r."data" >= c."aktDataLicz")
          and not exists (select 1 from ${q(decl.table)} t where ${keyJoin('t', 'r')})`);
      await addErrors(headingOf('licznik'), below, `
        select x."_row", x."_cells", replace(${lit(below)}, '{{last}}', x."before"::text) as "message" from (
          select r."_row", r."_cells", r."licznik", lag(r."licznik") over (partition by r."pojazdId" order by r."data", r."_row") as "before"
          from ${resolved} r where r."pojazdId" is not null) x
        where x."licznik" < x."before"`);
    }
  }
  await treeChecks(more);
  await moreChecks(more);
  const errorCount = Number((await session.query<{ n: string }>('select count(distinct "rowNo") as n from import_error where "runId" = $1', [run.id])).rows[0].n);
  await session.query(`delete from ${resolved} r using (select distinct "rowNo" from import_error where "runId" = $1) e where e."rowNo" = r."_row"`, [run.id]);
  const valid = Number((await session.query<{ n: string }>(`select count(*) as n from ${resolved}`)).rows[0].n);

  const commit = run.mode === 'import' && (errorCount === 0 || run.onError === 'validRows');
  const counts = { new: 0, changed: 0, unchanged: 0, deactivated: 0, errors: errorCount };
  // Each write is one statement over the resolved rows; the same FROM … WHERE serves the write of
  // a run that commits and the count of one that writes nothing (a dry run, or an all-or-nothing
  // run with errors): the counts are the writes' own conditions, without the writes' cost (the
  // table's indexes and triggers) — docs/decisions.md "Imports (issue 34)", "Dry run".
  const count = async (from: string, params: unknown[] = []) =>
    Number((await session.query<{ n: string }>(`select count(*) as n ${from}`, params)).rows[0].n);
  // a reference none of whose columns the file has keeps the stored record it points at
  const absent = new Set(Object.entries(refs).filter(([name]) => !decl.fields.some((f) => f.reference === name && columnIndex.has(f.id))).map(([, r]) => r.into));
  const value = (c: string) => absent.has(c) ? `t.${q(c)}` : (refInto.has(c) || !fields.find((f) => f.id === c && f.blank === 'keep')
    ? `r.${q(c)}`
    : `case when r."_json" ? ${lit(c)} then r.${q(c)} else t.${q(c)} end`);
  // a row of the table (t) that its file row (r) changes
  const changedWhere = `${keyJoin('t', 'r')}
    and (${compared.map((c) => `t.${q(c)}`).join(', ')}, null) is distinct from (${compared.map(value).join(', ')}, null)`;
  const newRows = `from ${resolved} r where not exists (select 1 from ${q(decl.table)} t where ${keyJoin('t', 'r')})`;
  const deactivate = decl.missing?.deactivate;
  const set = Object.entries(deactivate?.set ?? {});
  // a row of the table (t) of the file's clients that the file no longer names
  const missingWhere = decl.client && `t.${q(decl.client)} in (select distinct r.${q(decl.client)} from ${resolved} r)
      and not exists (select 1 from ${resolved} r where ${keyJoin('t', 'r')})
      and (${set.map(([c]) => `t.${q(c)}`).join(', ')}, null) is distinct from (${set.map((_, i) => `$${i + 1}`).join(', ')}, null)`;
  // the active rows of the file's clients: the whole the deactivated rows are a share of (issue 49)
  const activeWhere = decl.client && `t.${q(decl.client)} in (select distinct r.${q(decl.client)} from ${resolved} r)
      and (${set.map(([c]) => `t.${q(c)}`).join(', ')}, null) is distinct from (${set.map((_, i) => `$${i + 1}`).join(', ')}, null)`;
  let activeRows: number | null = null;
  // a file with errors deactivates nothing: a row in error may be one the file meant to keep
  const deactivating = run.missing === 'deactivate' && deactivate && missingWhere && errorCount === 0;
  const changes = !decl.insertOnly && compared.length > 0;
  // A tree (units, parents first) or child rows (a contract's positions) are counted by what their
  // own writes find, row after row: such a run that writes nothing runs its writes and rolls back.
  const countsByWriting = Boolean(decl.tree || decl.children);

  if (!commit && !countsByWriting) {
    if (changes) counts.changed = await count(`from ${q(decl.table)} t, ${resolved} r where ${changedWhere}`);
    counts.new = await count(newRows);
    if (deactivating) {
      counts.deactivated = await count(`from ${q(decl.table)} t where ${missingWhere}`, set.map(([, v]) => v));
      activeRows = await count(`from ${q(decl.table)} t where ${activeWhere}`, set.map(([, v]) => v));
    }
    counts.unchanged = valid - counts.new - counts.changed;
  } else {
    // what the planner believed of the table before this run: a run that changes much of it gathers its statistics anew (statistics.ts)
    const planned = commit ? await plannedRows(session, decl.table) : 0;
    await session.query('begin');
    try {
      // one run of a declaration at a time writes (the advisory lock is held by this connection already)
      // a tree's new rows, parents first (tree.ts); the UPDATE below then finds them unchanged
      counts.new += await insertTree(more);
      if (changes) {
        // "o" is the row as it was when the statement began: the values before, for the trail
        counts.changed = await trail.write(decl, 'update', `update ${q(decl.table)} t set ${compared.map((c) => `${q(c)} = ${value(c)}`).join(', ')}
          from ${resolved} r join ${q(decl.table)} o on ${keyJoin('o', 'r')} where ${changedWhere}
          returning ${trailReturning(decl, 't', 'o', compared)}`);
      }
      counts.new += await trail.write(decl, 'create', `insert into ${q(decl.table)} as t (${written.map(q).join(', ')})
        select ${written.map((c) => `r.${q(c)}`).join(', ')} ${newRows}
        returning ${trailReturning(decl, 't', null, written)}`);
      counts.unchanged = valid - counts.new - counts.changed;
      await writeChildren(more, counts);
      if (deactivating) {
        counts.deactivated = await trail.write(decl, 'withdraw', `update ${q(decl.table)} t set ${set.map(([c], i) => `${q(c)} = $${i + 1}`).join(', ')}
          from ${q(decl.table)} o where ${keyJoin('o', 't')} and ${missingWhere}
          returning ${trailReturning(decl, 't', 'o', set.map(([c]) => c))}`, set.map(([, v]) => v));
        // more than its dry run showed: nothing is written, the person checks again (issue 49)
        if (run.approvedDeactivated != null && counts.deactivated > run.approvedDeactivated) {
          throw new ImportFileError('import:errors.moreThanApproved', { count: counts.deactivated, approved: run.approvedDeactivated });
        }
      }
      for (const follow of decl.after ?? []) {
        if (follow === 'vehicleOdometer') {
          // what the counter form does for one reading: the vehicle's current reading and its day follow the newest reading
          await session.query(`
            update car c set "aktStanLicz" = n."licznik", "aktDataLicz" = n."at"::date
            from (select distinct on (r."pojazdId") r."pojazdId", r."licznik", r."data" as "at"
                  from ${resolved} r order by r."pojazdId", r."data" desc) n
            where c."pojazdId" = n."pojazdId" and (c."aktDataLicz" is null or n."at"::date >= c."aktDataLicz")
              and (c."aktStanLicz", c."aktDataLicz") is distinct from (n."licznik", n."at"::date)`);
        } else if (follow === 'fuelAnomalies') {
          // the fuel anomaly rules over the transactions this run wrote (not those already there:
          // the same file again judges nothing), set-based (server/anomalies/find.ts)
          const batch = `import_anomaly_batch_${run.id}`;
          await session.query(`create temporary table ${batch} on commit drop as
            select t.${q(decl.id ?? 'transId')} as "transId" from ${q(decl.table)} t join ${resolved} r on ${keyJoin('t', 'r')}
            where t.xmin = ${WRITTEN_NOW}`);
          await session.query(`analyze ${batch}`);
          const rules = anomaliesFile(bundle.screens);
          if (rules && bundle.reporting) await findAnomalies((text) => session.query(text), rules, bundle.reporting, batch, run.id);
        } else await followUp(more, follow);
      }
      if (commit) {
        await run.beforeCommit?.(counts, total);
        await analyzeIfChanged(session, decl.table, counts.new + counts.changed + counts.deactivated, planned);
      }
      await session.query(commit ? 'commit' : 'rollback');
    } catch (error) {
      await session.query('rollback').catch(() => undefined);
      throw error;
    }
  }
  await session.query(`drop table if exists ${resolved}`);

  const vars = { ...counts };
  const rowsInvalid = run.mode === 'import' && !commit;
  return {
    state: rowsInvalid ? 'failed' : 'succeeded',
    message: rowsInvalid ? t('import:errors.rowsInvalid', { count: errorCount }) : t(run.mode === 'dryRun' ? 'import:messages.dryRunDone' : 'import:messages.done', vars),
    counts,
    total,
    activeRows,
    unknownColumns,
    encoding: head.encoding,
    delimiter: head.delimiter,
  };
}
