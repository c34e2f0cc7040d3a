/**
 * What the configuration load checks in a declaration's children, field checks and files (the
 * parts added for contracts, assignments and invoice files), beyond the meta-schema: every name
 * points at something declared.
 */

/** The parts of a declaration (declaration.ts's ImportDecl) this check reads; kept here so the two modules do not import each other. */
interface Decl {
  id?: string;
  fields: { id: string; reference?: string; child?: string }[];
  references?: Record<string, { into: string }>;
  checks?: { field: string; atLeast?: string; oneOpenPer?: string }[];
  children?: Record<string, { match: string[]; rows: { set: Record<string, unknown>; columns: Record<string, string> }[] }>;
  files?: { kinds: { pattern: string }[] };
}

export function moreProblems(decl: Decl): { pointer: string; reason: string }[] {
  const problems: { pointer: string; reason: string }[] = [];
  const fieldIds = new Set(decl.fields.map((f) => f.id));
  const refInto = new Set(Object.values(decl.references ?? {}).map((r) => r.into));
  decl.fields.forEach((field, i) => {
    if (!field.child) return;
    const children = decl.children?.[field.child];
    if (!children) problems.push({ pointer: `/fields/${i}/child`, reason: `no children "${field.child}" in /children` });
    else if (!children.rows.some((row) => Object.values(row.columns).includes(field.id))) problems.push({ pointer: `/fields/${i}/child`, reason: `no row of /children/${field.child} takes "${field.id}"` });
    if (field.reference) problems.push({ pointer: `/fields/${i}/child`, reason: 'a reference field feeds no child row' });
  });
  for (const [name, children] of Object.entries(decl.children ?? {})) {
    if (!decl.id) problems.push({ pointer: `/children/${name}`, reason: 'children need the declaration\'s "id" (their parent column\'s value)' });
    children.rows.forEach((row, r) => {
      for (const [column, field] of Object.entries(row.columns)) {
        const declared = decl.fields.find((f) => f.id === field);
        if (!declared || declared.child !== name) problems.push({ pointer: `/children/${name}/rows/${r}/columns/${column}`, reason: `"${field}" is no field with "child": "${name}"` });
      }
      for (const m of children.match) if (!(m in row.set)) problems.push({ pointer: `/children/${name}/rows/${r}/set`, reason: `the match column "${m}" has no value` });
    });
  }
  (decl.checks ?? []).forEach((check, i) => {
    const known = (f: string) => fieldIds.has(f) || refInto.has(f);
    if (!known(check.field)) problems.push({ pointer: `/checks/${i}/field`, reason: `"${check.field}" is no field` });
    if (check.atLeast && !known(check.atLeast)) problems.push({ pointer: `/checks/${i}/atLeast`, reason: `"${check.atLeast}" is no field` });
    if (check.oneOpenPer && !known(check.oneOpenPer)) problems.push({ pointer: `/checks/${i}/oneOpenPer`, reason: `"${check.oneOpenPer}" is no field` });
  });
  if (decl.files) {
    decl.files.kinds.forEach((k, i) => {
      try {
        if (!/\((?!\?)/.test(k.pattern)) problems.push({ pointer: `/files/kinds/${i}/pattern`, reason: 'needs a group: the number' });
        new RegExp(k.pattern, 'iu');
      } catch (error) {
        problems.push({ pointer: `/files/kinds/${i}/pattern`, reason: (error as Error).message });
      }
    });
  }
  return problems;
}
