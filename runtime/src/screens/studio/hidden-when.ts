/**
 * The `hiddenWhen` conditions the studio writes (conditions are JSON Schema over the context
 * { role, variant, config, … }, docs/configuration.md "Conditions"), in the two readable shapes
 * an analyst chooses with check boxes:
 * - hidden for roles: `{ "properties": { "role": { "enum": ["USER"] } } }`;
 * - hidden under a flag of the variant's settings:
 *   `{ "properties": { "config": { "properties": { "<flag>": { "const": true } }, "required": ["<flag>"] } } }`.
 * A condition the files already have stays as it is: the studio's clauses join it with `anyOf`
 * (hidden when any holds), and taking them away gives the files' condition back.
 */
export type Condition = Record<string, any>;

export interface HiddenChoice {
  /** Roles the item is hidden for. */
  roles: string[];
  /** Flags (yes/no settings of config) under which it is hidden. */
  flags: string[];
  /** Every other clause (the files' own conditions), kept as they are. */
  other: Condition[];
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);
const onlyKeys = (v: Record<string, any>, ...keys: string[]) => Object.keys(v).every((k) => keys.includes(k));

export const roleClause = (roles: string[]): Condition => ({ properties: { role: { enum: [...roles] } } });
export const flagClause = (flag: string): Condition => ({ properties: { config: { properties: { [flag]: { const: true } }, required: [flag] } } });

/** The roles of a role clause, or null when the clause is not one. */
export function rolesOf(clause: unknown): string[] | null {
  if (!isObject(clause) || !onlyKeys(clause, 'properties') || !isObject(clause.properties)) return null;
  const props = clause.properties;
  if (!onlyKeys(props, 'role') || !isObject(props.role) || !onlyKeys(props.role, 'enum') || !Array.isArray(props.role.enum)) return null;
  return props.role.enum.every((r: unknown) => typeof r === 'string') ? props.role.enum : null;
}

/** The flag of a flag clause, or null when the clause is not one. */
export function flagOf(clause: unknown): string | null {
  if (!isObject(clause) || !onlyKeys(clause, 'properties') || !isObject(clause.properties)) return null;
  const config = clause.properties.config;
  if (!onlyKeys(clause.properties, 'config') || !isObject(config) || !onlyKeys(config, 'properties', 'required')) return null;
  const names = isObject(config.properties) ? Object.keys(config.properties) : [];
  if (names.length !== 1) return null;
  const [flag] = names;
  if (!isObject(config.properties[flag]) || config.properties[flag].const !== true || !onlyKeys(config.properties[flag], 'const')) return null;
  if (!Array.isArray(config.required) || config.required.length !== 1 || config.required[0] !== flag) return null;
  return flag;
}

/** Reads a hiddenWhen into the analyst's choice. */
export function readHidden(hiddenWhen: unknown): HiddenChoice {
  const choice: HiddenChoice = { roles: [], flags: [], other: [] };
  if (hiddenWhen === undefined || hiddenWhen === null) return choice;
  const clauses: unknown[] = isObject(hiddenWhen) && onlyKeys(hiddenWhen, 'anyOf') && Array.isArray(hiddenWhen.anyOf) ? hiddenWhen.anyOf : [hiddenWhen];
  for (const clause of clauses) {
    const roles = rolesOf(clause);
    const flag = roles ? null : flagOf(clause);
    if (roles) choice.roles.push(...roles.filter((r) => !choice.roles.includes(r)));
    else if (flag) {
      if (!choice.flags.includes(flag)) choice.flags.push(flag);
    } else choice.other.push(clause as Condition);
  }
  return choice;
}

/** The hiddenWhen of a choice; undefined when nothing hides the item. */
export function writeHidden(choice: HiddenChoice, roleOrder?: readonly string[]): Condition | undefined {
  const roles = roleOrder ? roleOrder.filter((r) => choice.roles.includes(r)).concat(choice.roles.filter((r) => !roleOrder.includes(r))) : choice.roles;
  const clauses = [...choice.other, ...(roles.length ? [roleClause(roles)] : []), ...choice.flags.map(flagClause)];
  if (clauses.length === 0) return undefined;
  if (clauses.length === 1) return clauses[0];
  return { anyOf: clauses };
}

/** Sets (or removes) `hiddenWhen` of an object of a document, in place. */
export function applyHidden(target: Record<string, any>, choice: HiddenChoice, roleOrder?: readonly string[]): void {
  const next = writeHidden(choice, roleOrder);
  if (next === undefined) delete target.hiddenWhen;
  else target.hiddenWhen = next;
}

/** Toggles one role or flag of an item's choice. */
export function toggled(list: string[], value: string, on: boolean): string[] {
  return on ? (list.includes(value) ? list : [...list, value]) : list.filter((v) => v !== value);
}
