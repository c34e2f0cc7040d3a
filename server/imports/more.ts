/**
 * What the engine (engine.ts) calls for the declarations beyond vehicles and readings
 * (docs/decisions.md "Imports (issue 34)"), kept apart so that the engine's own statements stay as
 * they are:
 *
 * - `rowClientFilter`: a reference with a client column (a driver by nrPrac, a vehicle by its
 *   registration) is found among the records of the row's own client, never another client's;
 * - `moreChecks`: a key limited to some clients imports no row of another client when the client is
 *   a plain column (clients themselves), and the declared checks between fields (a return not before
 *   its handover) and over the rows of one record (one open assignment per vehicle);
 * - `writeChildren`: the child rows a row carries (a contract's positions), after the rows;
 * - `followUp`: what the typed-in write of these records does to the vehicle (its driver, its
 *   current contract and fuel card — the columns reminders and the cockpit read) and to an
 *   employee (the organisational levels of its unit).
 */
import type { Translate } from '../../runtime/core/validation-messages.ts';
import { fieldLabel, type FollowUp, type ImportDecl, type ReferenceDecl } from '../config/import-declaration.ts';
import type { ImportSession } from './session.ts';
import type { RecordTrail } from './trail.ts';

/** The parts of a run (engine.ts's RunRow) read here; not imported, so that the engine and this module do not import each other. */
interface RunRow { id: number; fileName: string; format: string; mode: 'dryRun' | 'import'; onError: 'allOrNothing' | 'validRows'; clients: string[] | null }

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** The current transaction's id as a row's xmin shows it: the rows this run wrote. */
export const WRITTEN_NOW = '(pg_current_xact_id()::text::bigint % 4294967296)::text::xid';

export interface MoreContext {
  session: ImportSession;
  decl: ImportDecl;
  run: RunRow;
  t: Translate;
  resolved: string;
  keyJoin: (a: string, b: string) => string;
  headingOf: (field: string) => string;
  keyHeading: (key: string) => string;
  addErrors: (column: string, message: string, from: string, params?: unknown[]) => Promise<void>;
  /** Whether the file has a column for this field. */
  hasColumn: (field: string) => boolean;
  /** Where the records the run writes go, for their trail entries (issue 45, trail.ts). */
  trail: RecordTrail;
}

/** ` and r."<client>" = (the row's client)` for a reference with a client column, when the row names its client. */
export function rowClientFilter(decl: ImportDecl, name: string, lookupOf: (name: string, ref: ReferenceDecl) => string): string {
  const refs = decl.references ?? {};
  const ref = refs[name];
  const clientRef = Object.entries(refs).find(([, r]) => r.into === decl.client);
  if (!ref?.client || !clientRef || clientRef[0] === name) return '';
  return ` and r.${q(ref.client)} = ${lookupOf(clientRef[0], clientRef[1])}`;
}

export async function moreChecks(c: MoreContext): Promise<void> {
  const { decl, run, t, resolved, addErrors } = c;
  const refs = decl.references ?? {};
  const refInto = new Set(Object.values(refs).map((r) => r.into));
  // clients themselves: the client is the row's own column, which no lookup limits
  if (run.clients && decl.client && !refInto.has(decl.client)) {
    await addErrors(c.headingOf(decl.client), t('import:errors.clientNotAllowed'),
      `select r."_row", r."_cells" from ${resolved} r where r.${q(decl.client)} is not null and not (r.${q(decl.client)} = any($1::text[]))`, [run.clients]);
  }
  // a blank "keep" cell means the stored value: the checks compare what the row will hold
  const keep = new Set(decl.fields.filter((f) => f.blank === 'keep' && !f.reference).map((f) => f.id));
  const value = (f: string) => (keep.has(f) ? `case when r."_json" ? ${lit(f)} then r.${q(f)} else t.${q(f)} end` : `r.${q(f)}`);
  // the column as the file names it, else the field as the forms name it (a check of a field the file has not)
  const heading = (f: string) => {
    const field = decl.fields.find((x) => x.id === f && !x.reference);
    const named = c.headingOf(f);
    return named !== f || !field ? named : fieldLabel(decl, field, t);
  };
  const joined = `${resolved} r left join ${q(decl.table)} t on ${c.keyJoin('t', 'r')}`;
  for (const check of decl.checks ?? []) {
    if (check.atLeast) {
      await addErrors(heading(check.field), t(check.message),
        `select r."_row", r."_cells" from ${joined} where ${value(check.field)} < ${value(check.atLeast)}`);
    }
    if (check.oneOpenPer) {
      const per = q(check.oneOpenPer);
      await addErrors(heading(check.field), t(check.message), `
        with e as (select r."_row", r."_cells", r.${per} as per, ${value(check.field)} as v from ${joined})
        select e."_row", e."_cells" from e where e.v is null and e.per is not null and (
          (select count(*) from e e2 where e2.per = e.per and e2.v is null) > 1
          or exists (select 1 from ${q(decl.table)} o where o.${per} = e.per and o.${q(check.field)} is null
                     and not exists (select 1 from ${resolved} r2 where ${c.keyJoin('o', 'r2')})))`);
    }
  }
}

/**
 * The child rows of the rows just written (children.ts's part of a declaration): for each declared
 * child row whose cells are given, the child of the parent with the same `match` values is updated
 * when it differs, else inserted; a blank cell keeps the stored value (a new child takes the
 * default). A parent whose only change is its children counts as changed, not unchanged.
 */
export async function writeChildren(c: MoreContext, counts: { changed: number; unchanged: number }): Promise<void> {
  const { session, decl, resolved } = c;
  if (!decl.children || !decl.id) return;
  const touched = `import_children_${c.run.id}`;
  await session.query(`create temporary table ${touched} ("parentId" bigint) on commit drop`);
  for (const children of Object.values(decl.children)) {
    const parent = q(children.parent);
    for (const row of children.rows) {
      const columns = Object.keys(row.columns);
      const given = Object.values(row.columns).map((f) => `(r."_json"->>${lit(f)}) is not null`).join(' or ');
      const json = [
        `${lit(children.parent)}, to_jsonb(p.${q(decl.id)})`,
        ...Object.entries(row.set).map(([k, v]) => `${lit(k)}, ${lit(JSON.stringify(v))}::jsonb`),
        ...Object.entries(row.columns).map(([k, f]) => `${lit(k)}, r."_json"->${lit(f)}`),
      ].join(', ');
      const matchOn = (a: string, b: string) => [children.parent, ...children.match].map((m) => `${a}.${q(m)} = ${b}.${q(m)}`).join(' and ');
      const rows = `(select n.* from ${resolved} r join ${q(decl.table)} p on ${c.keyJoin('p', 'r')}
        cross join lateral jsonb_populate_record(null::${q(children.table)}, jsonb_build_object(${json})) n where ${given})`;
      const updated = await session.query<{ parentId: number }>(`
        update ${q(children.table)} ch set ${columns.map((k) => `${q(k)} = coalesce(n.${q(k)}, ch.${q(k)})`).join(', ')}
        from ${rows} n where ${matchOn('ch', 'n')}
          and (${columns.map((k) => `ch.${q(k)}`).join(', ')}, null) is distinct from (${columns.map((k) => `coalesce(n.${q(k)}, ch.${q(k)})`).join(', ')}, null)
        returning ch.${parent} as "parentId"`);
      const defaults = JSON.stringify(row.defaults ?? {});
      const written = [children.parent, ...Object.keys(row.set), ...columns];
      const inserted = await session.query<{ parentId: number }>(`
        insert into ${q(children.table)} (${written.map(q).join(', ')})
        select ${written.map((k) => (columns.includes(k) ? `coalesce(n.${q(k)}, d.${q(k)})` : `n.${q(k)}`)).join(', ')}
        from ${rows} n cross join jsonb_populate_record(null::${q(children.table)}, ${lit(defaults)}::jsonb) d
        where not exists (select 1 from ${q(children.table)} ch where ${matchOn('ch', 'n')})
        returning ${parent} as "parentId"`);
      const ids = [...updated.rows, ...inserted.rows].map((r) => Number(r.parentId));
      if (ids.length) await session.query(`insert into ${touched} select unnest($1::bigint[])`, [ids]);
    }
  }
  // parents this run did not write themselves (their own columns unchanged) but whose children changed
  const { rows } = await session.query<{ n: string }>(`
    select count(distinct p.${q(decl.id)}) as n from ${touched} x join ${q(decl.table)} p on p.${q(decl.id)} = x."parentId"
    where p.xmin <> ${WRITTEN_NOW}`);
  const more = Number(rows[0].n);
  counts.changed += more;
  counts.unchanged -= more;
}

/** What the typed-in write does to the vehicle, for the vehicles of the rows this run wrote. */
export async function followUp(c: MoreContext, follow: FollowUp | string): Promise<void> {
  const { session, decl } = c;
  if (follow === 'vehicleDriver') {
    // a handover makes the employee the vehicle's user and the vehicle issued; a return leaves the
    // last user in place (server/repositories/assignments.ts): the latest assignment decides
    await session.query(`
      update car c set "czyWydany" = (l."dataZd" is null), "dataWyd" = l."dataWy"::date, "pracId" = l."pracId"
      from (select distinct on (a."pojazdId") a."pojazdId", a."pracId", a."dataWy", a."dataZd" from vehicle_assignment a
            where a."pojazdId" in (select x."pojazdId" from vehicle_assignment x where x.xmin = ${WRITTEN_NOW})
            order by a."pojazdId", a."dataWy" desc, a."przydzialId" desc) l
      where c."pojazdId" = l."pojazdId"
        and (c."czyWydany", c."dataWyd", c."pracId") is distinct from (l."dataZd" is null, l."dataWy"::date, l."pracId")`);
  }
  if (follow === 'employeeLevels') {
    // what the employee form does: stru1…stru8 are the names of the unit's path from the top (at
    // most the 8 nearest levels), for the employees this run wrote with a unit
    const levels = [1, 2, 3, 4, 5, 6, 7, 8];
    await session.query(`
      with recursive up as (
        select e."pracId", u."nazwa", u."parentId", 1 as depth from employee e join unit u on u."jednId" = e."jednId" where e.xmin = ${WRITTEN_NOW}
        union all
        select up."pracId", p."nazwa", p."parentId", up.depth + 1 from up join unit p on p."jednId" = up."parentId" where up.depth < 8),
      paths as (select "pracId", array_agg("nazwa" order by depth desc) as path from up group by "pracId")
      update employee e set ${levels.map((i) => `"stru${i}" = p.path[${i}]`).join(', ')}
      from paths p where e."pracId" = p."pracId"
        and (${levels.map((i) => `e."stru${i}"`).join(', ')}) is distinct from (${levels.map((i) => `p.path[${i}]`).join(', ')})`);
  }
  if (follow === 'vehicleContract') {
    // the vehicle shows its current contract (running today, else the latest): its end is a reminder
    await session.query(`
      with v as (select x."pojazdId" from contract x where x.xmin = ${WRITTEN_NOW} and x."pojazdId" is not null
                 union select c."pojazdId" from car c join contract x on x."umowaNr" = c."kontrKontraktNr" and x."klientSymbol" = c."klientSymbol" where x.xmin = ${WRITTEN_NOW}),
      cur as (select distinct on (v."pojazdId") v."pojazdId", k."umowaNr", k."dataOd", k."dataDo", k."limitKmOgol"
              from v left join contract k on k."pojazdId" = v."pojazdId"
              order by v."pojazdId", (k."dataOd" <= current_date and (k."dataDo" is null or k."dataDo" >= current_date)) desc nulls last,
                       k."dataOd" desc nulls last, k."kontraktId" desc)
      update car c set "kontrKontraktNr" = cur."umowaNr", "kontrDataOd" = cur."dataOd", "kontrDataDo" = cur."dataDo", "kontrLimitKmOgol" = cur."limitKmOgol"
      from cur where c."pojazdId" = cur."pojazdId"
        and (c."kontrKontraktNr", c."kontrDataOd", c."kontrDataDo", c."kontrLimitKmOgol") is distinct from (cur."umowaNr", cur."dataOd", cur."dataDo", cur."limitKmOgol")`);
  }
  if (follow === 'vehicleFuelCard') {
    // the vehicle shows its current card (not cancelled, valid longest): its expiry is a reminder;
    // a vehicle whose card was cancelled or moved shows its next card, or none
    const cancelled = decl.missing?.deactivate?.set.status;
    await session.query(`
      with v as (select x."pojazdId" from fuel_card x where x.xmin = ${WRITTEN_NOW} and x."pojazdId" is not null
                 union select c."pojazdId" from car c join fuel_card x on x."nrKarty" = c."kpalNrKarty" where x.xmin = ${WRITTEN_NOW}),
      cur as (select distinct on (v."pojazdId") v."pojazdId", k."firma", k."nrKarty", k."dataOd", k."dataDo", k."pin", k."limWaMiePal"
              from v left join fuel_card k on k."pojazdId" = v."pojazdId" and k."status" is distinct from $1
              order by v."pojazdId", k."dataDo" desc nulls last, k."kartaId" desc)
      update car c set "kpalFirma" = cur."firma", "kpalNrKarty" = cur."nrKarty", "kpalDataOd" = cur."dataOd", "kpalDataDo" = cur."dataDo",
        "kpalPin" = cur."pin", "kpalLimitMcWartosc" = cur."limWaMiePal"
      from cur where c."pojazdId" = cur."pojazdId"
        and (c."kpalFirma", c."kpalNrKarty", c."kpalDataOd", c."kpalDataDo", c."kpalPin", c."kpalLimitMcWartosc")
            is distinct from (cur."firma", cur."nrKarty", cur."dataOd", cur."dataDo", cur."pin", cur."limWaMiePal")`, [cancelled ?? null]);
  }
}
