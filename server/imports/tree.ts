/**
 * Rows that form a tree through a reference to their own table (`tree` in a declaration: a unit's
 * parent unit). A back office's file holds parents and children together, and a child's parent may
 * be new in the same file: it cannot be looked up before it is written, and the table's rule (a
 * unit has a parent exactly when it is not of level 1) refuses a child written first. So:
 *
 * - `resolveTree` (before the reference checks): a parent named by the row is looked up among the
 *   file's rows of the same client too (`_parentRow`); a parent only in the file is not "not found";
 *   the level is computed (1 without a parent, else the parent's + 1, the parent's level being the
 *   file's when the file has it) — a cycle, or deeper than allowed, is an error of the row;
 * - `treeChecks` (with the other checks): a row whose parent's row is in error is in error too;
 * - `insertTree` (in the write transaction, before the UPDATE of existing rows): level by level,
 *   each row's parent id is taken from the table (written at the previous level, or existing), then
 *   the new rows of that level are inserted. The engine's UPDATE then finds them unchanged and its
 *   INSERT finds none left.
 */
import { writtenColumns } from '../config/import-declaration.ts';
import type { MoreContext } from './more.ts';
import { trailReturning } from './trail.ts';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** A parent only in the file: not null, so the reference check passes; replaced before it is written. */
const PENDING = -1;

function treeParts(c: MoreContext) {
  const tree = c.decl.tree!;
  const ref = c.decl.references![tree.reference];
  const finders = c.decl.fields.filter((f) => f.reference === tree.reference && c.hasColumn(f.id));
  const given = finders.length ? finders.map((f) => `(r."_json" ? ${lit(`$ref:${tree.reference}:${f.id}`)})`).join(' or ') : 'false';
  const max = tree.maxLevel ?? 8;
  const heading = finders.length ? c.headingOf(finders[0].id) : tree.reference;
  return { tree, ref, finders, given, max, heading, level: q(tree.level), id: q(c.decl.id!) };
}

export async function resolveTree(c: MoreContext): Promise<void> {
  if (!c.decl.tree || !c.decl.id) return;
  const { session, decl, resolved, t } = c;
  const { tree, ref, finders, given, max, heading, level, id } = treeParts(c);
  await session.query(`alter table ${resolved} add column "_parentRow" integer`);
  if (!finders.length) {
    // no parent column in this file: the stored parent is kept (engine.ts), and with it the level
    await session.query(`update ${resolved} r set ${level} = coalesce((select t.${level} from ${q(decl.table)} t where ${c.keyJoin('t', 'r')}), 1)`);
    return;
  }
  const client = decl.client ? ` and p.${q(decl.client)} is not distinct from r.${q(decl.client)}` : '';
  for (const f of finders) {
    await session.query(`
      update ${resolved} r set "_parentRow" = p."_row" from ${resolved} p
      where r."_parentRow" is null and p."_row" <> r."_row" and p.${q(f.column ?? f.id)} = r."_json"->>${lit(`$ref:${tree.reference}:${f.id}`)}${client}`);
  }
  await session.query(`update ${resolved} r set ${q(ref.into)} = ${PENDING} where r."_parentRow" is not null and r.${q(ref.into)} is null`);
  // level 1 without a parent; a parent found nowhere is the reference check's error, and its row
  // stands at level 1 meanwhile, so that its children are "parent in error" (treeChecks), not a cycle
  await session.query(`update ${resolved} r set ${level} = 1 where not (${given}) or r.${q(ref.into)} is null`);
  await session.query(`
    update ${resolved} r set ${level} = u.${level} + 1 from ${q(decl.table)} u
    where r."_parentRow" is null and (${given}) and r.${q(ref.into)} = u.${id}`);
  for (let pass = 0; pass < max; pass++) {
    const done = await session.query(`
      update ${resolved} r set ${level} = p.${level} + 1 from ${resolved} p
      where r."_parentRow" = p."_row" and p.${level} is not null and r.${level} is null`);
    if (!done.rowCount) break;
  }
  // a parent never placed (a cycle), or a level past the deepest
  await c.addErrors(heading, t(tree.message ?? 'import:errors.treeParent', { max }),
    `select r."_row", r."_cells" from ${resolved} r where (${given}) and r.${q(ref.into)} is not null and (r.${level} is null or r.${level} > ${max})`);
}

export async function treeChecks(c: MoreContext): Promise<void> {
  if (!c.decl.tree || !c.decl.id) return;
  const { session, resolved, run, t } = c;
  const { max, heading } = treeParts(c);
  for (let pass = 0; pass < max; pass++) {
    const before = await session.query<{ n: string }>('select count(*) as n from import_error where "runId" = $1', [run.id]);
    await c.addErrors(heading, t('import:errors.treeParentInError'), `
      select r."_row", r."_cells" from ${resolved} r
      where exists (select 1 from import_error e where e."runId" = ${run.id} and e."rowNo" = r."_parentRow")
        and not exists (select 1 from import_error e where e."runId" = ${run.id} and e."rowNo" = r."_row")`);
    const after = await session.query<{ n: string }>('select count(*) as n from import_error where "runId" = $1', [run.id]);
    if (after.rows[0].n === before.rows[0].n) break;
  }
}

/** Inserts the tree's new rows level by level, parents first; answers how many. */
export async function insertTree(c: MoreContext): Promise<number> {
  if (!c.decl.tree || !c.decl.id) return 0;
  const { session, decl, resolved } = c;
  const { ref, max, level, id } = treeParts(c);
  const written = writtenColumns(decl);
  let inserted = 0;
  for (let at = 1; at <= max; at++) {
    await session.query(`
      update ${resolved} r set ${q(ref.into)} = t.${id} from ${resolved} p join ${q(decl.table)} t on ${c.keyJoin('t', 'p')}
      where r."_parentRow" = p."_row" and r.${level} = ${at}`);
    inserted += await c.trail.write(decl, 'create', `
      insert into ${q(decl.table)} as n (${written.map(q).join(', ')})
      select ${written.map((col) => `r.${q(col)}`).join(', ')} from ${resolved} r
      where r.${level} = ${at} and not exists (select 1 from ${q(decl.table)} t where ${c.keyJoin('t', 'r')})
      returning ${trailReturning(decl, 'n', null, written)}`);
  }
  return inserted;
}
