/**
 * `npm run check`: fails when the runtime's code (runtime/src, runtime/core) names a role or says a
 * Polish word (issue 38, "Config, not code"). Roles, their labels and every visible text belong to
 * the configuration (screens/, locales/): a role list or a "zł" in TypeScript is a rule an analyst
 * cannot change and a variant cannot override. Only the code is read — string literals, template
 * texts and JSX text, found by TypeScript's own parser — never comments, and never tests (which
 * speak of what the configuration says) or generated files.
 *
 * - A role name is a string that is exactly one of the roles the configuration declares (the user
 *   entity's `rola` enumeration, schemas/entities/user.schema.json).
 * - A Polish word is a word with a Polish letter (ą ć ę ł ń ó ś ź ż), or one of the few common
 *   Polish words of the screens that have none (WORDS) — in a string, a template text, JSX text or
 *   a regular expression (`/(zł|km)$/` matches Polish text only: issue 48).
 * - A field of a resource (issue 45): a string literal, a property access (`x.pojazdId`), an object
 *   literal's key (`{ rola: … }`), a destructured name (`const { pwdDo } = user`) or a step of a path or
 *   query built in a template (`${path}.szablon`, `?pojazdId=${id}`) that is exactly a
 *   property of an entity schema (schemas/entities/*.schema.json, nested objects' properties too).
 *   The runtime reads such fields by the names the configuration gives (screens/app.json
 *   sessionFields, a screen's columns and fields, reminders.vehicle, a checklist's vehicle). Types
 *   (an interface's members, `UserDetails['rola']`) are compile-time shapes of the generated API
 *   types and are not read. Names that are the runtime's own words too (`id`, `name`, `status`,
 *   `data` …: a bundle, an API body, a DOM event has them) are listed, with the reason, in the
 *   allow-list's `generic`: a name there is never a finding.
 * - A locale, zone or currency (issue 48): a string that is exactly `'pl'`, `'pl-PL'`,
 *   `'Europe/Warsaw'` or `'PLN'`, or what screens/app.json configures as config.locale,
 *   config.timeZone, config.currency, the default language's id and locale or any language's date
 *   pattern (DD.MM.YYYY). The runtime reads
 *   them from the loaded bundle (format-settings.ts), never names them.
 *
 * A place that must keep one says why in tools/runtime-words-allow.json (file, text, reason): an
 * entry without a reason, or one that no longer matches anything, fails the check as well; so does a
 * `generic` entry without a reason, or naming a word that is no entity's property any more.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');

/** Polish words of the screens without a Polish letter (whole words, any case). */
const WORDS = ['tak', 'nie', 'anuluj', 'zapisz', 'zamknij', 'wersja', 'wariant', 'portal bazowy', 'brak', 'dalej', 'wstecz', 'pomoc', 'szukaj', 'zlecenie', 'zlecenia', 'pojazd', 'pojazdu', 'kierowca', 'doradca', 'administrator', 'dni', 'godz'];
const POLISH_LETTER = /[ąćęłńóśźżĄĆĘŁŃÓŚŹŻ]/;
const POLISH_WORD = new RegExp(`(^|[^\\p{L}])(${WORDS.map((w) => w.replace(/ /g, '\\s+')).join('|')})(?=$|[^\\p{L}])`, 'iu');

/** Locale, zone and currency literals runtime code must not name, whatever the configuration says. */
const LOCALE_WORDS = ['pl', 'pl-PL', 'Europe/Warsaw', 'PLN'];

export interface Finding {
  file: string;
  line: number;
  text: string;
  kind: 'role' | 'polish' | 'locale' | 'field';
}

/** Entity properties that are the runtime's own words too, never a finding (tools/runtime-words-allow.json `generic`). */
export interface GenericEntry {
  names: string[];
  reason: string;
}

export interface AllowEntry {
  file: string;
  text: string;
  reason: string;
}

/** The roles the configuration declares (the user entity's `rola` values). */
export function configuredRoles(baseDir = root): string[] {
  const schema = JSON.parse(readFileSync(join(baseDir, 'schemas/entities/user.schema.json'), 'utf8'));
  return (schema.properties?.rola?.enum ?? []).filter((r: unknown): r is string => typeof r === 'string');
}

/** Every property name of the entity schemas (schemas/entities/*.schema.json), nested objects' and array items' too. */
export function entityFields(baseDir = root): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const { properties } = node as { properties?: unknown };
      if (properties && typeof properties === 'object' && !Array.isArray(properties)) for (const name of Object.keys(properties)) names.add(name);
      Object.values(node).forEach(walk);
    }
  };
  const dir = join(baseDir, 'schemas/entities');
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.schema.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  for (const name of files) walk(JSON.parse(readFileSync(join(dir, name), 'utf8')));
  return [...names].sort();
}

/**
 * The locale, zone and currency literals: LOCALE_WORDS and what screens/app.json configures
 * (config.locale, config.timeZone, config.currency, the default language's id and locale, every
 * language's date pattern).
 */
export function configuredLocaleWords(baseDir = root): string[] {
  const words = new Set(LOCALE_WORDS);
  try {
    const config = JSON.parse(readFileSync(join(baseDir, 'screens/app.json'), 'utf8')).config ?? {};
    for (const key of ['locale', 'timeZone', 'currency']) if (typeof config[key] === 'string') words.add(config[key]);
    const first = Array.isArray(config.languages) ? config.languages[0] : undefined;
    for (const value of [first?.id, first?.locale]) if (typeof value === 'string') words.add(value);
    // each language's date pattern (DD.MM.YYYY, DD/MM/YYYY): the runtime writes and reads days by the one in force
    for (const language of Array.isArray(config.languages) ? config.languages : []) if (typeof language?.datePattern === 'string') words.add(language.datePattern);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return [...words];
}

/** A regular expression's pattern as words: its escapes (`\s`, `\d`, `\u00a0`) are no letters of a word. */
const regexWords = (literal: string) => literal.slice(1, literal.lastIndexOf('/')).replace(/\\(u\{?[0-9a-fA-F]+\}?|x[0-9a-fA-F]{2}|[pP]\{[^}]*\}|.)/g, ' ');

/** What one source file says that belongs to the configuration. */
export function findingsIn(file: string, source: string, roles: readonly string[], localeWords: readonly string[] = LOCALE_WORDS, fields: readonly string[] = []): Finding[] {
  const out: Finding[] = [];
  const fieldSet = new Set(fields);
  const field = (node: ts.Node, name: string) => {
    if (fieldSet.has(name)) out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: name, kind: 'field' });
  };
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const roleSet = new Set(roles);
  const localeSet = new Set(localeWords);
  const report = (node: ts.Node, text: string) => {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    if (roleSet.has(text)) out.push({ file, line, text, kind: 'role' });
    else if (localeSet.has(text)) out.push({ file, line, text, kind: 'locale' });
    else if (fieldSet.has(text)) out.push({ file, line, text, kind: 'field' });
    else if (POLISH_LETTER.test(text) || POLISH_WORD.test(text)) out.push({ file, line, text: text.trim(), kind: 'polish' });
  };
  // a type is a compile-time shape (the generated API types name their fields): only its texts are read
  const visitType = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (!fieldSet.has(node.text)) report(node, node.text);
    } else ts.forEachChild(node, visitType);
  };
  const visit = (node: ts.Node) => {
    // an import's or export's module name is a path, not a text
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isTypeNode(node)) return visitType(node);
    // a field read or written by name: x.pojazdId, { rola: … }, const { pwdDo } = user (x['rejestr'] is a string below)
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.name)) field(node.name, node.name.text);
    else if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name) && ts.isObjectLiteralExpression(node.parent)) field(node.name, node.name.text);
    else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const name = node.propertyName ?? node.name;
      if (ts.isIdentifier(name)) field(name, name.text);
    }
    if (ts.isRegularExpressionLiteral(node)) {
      const words = regexWords(node.text);
      if (POLISH_LETTER.test(words) || POLISH_WORD.test(words)) out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: node.text, kind: 'polish' });
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) report(node, node.text);
    else if (ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      report(node, node.text);
      // a path or a query built around a field: `${path}.szablon`, `${url}?pojazdId=${id}`
      for (const m of node.text.matchAll(/(?<=^|[.?&])([A-Za-z_][A-Za-z0-9_]*)(?=$|[.?&=])/g)) field(node, m[1]);
    }
    else if (ts.isJsxText(node) && node.text.trim()) report(node, node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const isCode = (name: string) =>
  /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts');

function codeFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'generated' && name !== 'node_modules') out.push(...codeFiles(path));
    } else if (isCode(name)) out.push(path);
  }
  return out;
}

export interface CheckResult {
  findings: Finding[];
  /** Allow-list entries without a reason, or matching nothing any more. */
  badEntries: { entry: AllowEntry; why: 'no reason' | 'unused' }[];
  /** `generic` entries without a reason, or naming a word that is no entity's property. */
  badGeneric: { entry: GenericEntry; why: 'no reason' | 'not a field'; name?: string }[];
}

/** The findings of runtime/ not excused by the allow-list, and the allow-list's own faults. */
export function checkRuntimeWords(baseDir = root, dirs = ['runtime/src', 'runtime/core'], allow: AllowEntry[] = readAllowList(baseDir), generic: GenericEntry[] = readGenericFields(baseDir)): CheckResult {
  const roles = configuredRoles(baseDir);
  const localeWords = configuredLocaleWords(baseDir);
  const allFields = entityFields(baseDir);
  const genericNames = new Set(generic.filter((g) => g.reason?.trim()).flatMap((g) => g.names));
  const fields = allFields.filter((name) => !genericNames.has(name));
  const all = dirs.flatMap((d) => codeFiles(join(baseDir, d))).flatMap((path) => findingsIn(relative(baseDir, path), readFileSync(path, 'utf8'), roles, localeWords, fields));
  const used = new Set<AllowEntry>();
  const findings = all.filter((f) => {
    const entry = allow.find((a) => a.file === f.file && a.text === f.text && a.reason?.trim());
    if (entry) used.add(entry);
    return !entry;
  });
  const badEntries: CheckResult['badEntries'] = [];
  for (const entry of allow) {
    if (!entry.reason?.trim()) badEntries.push({ entry, why: 'no reason' });
    else if (!used.has(entry)) badEntries.push({ entry, why: 'unused' });
  }
  const known = new Set(allFields);
  const badGeneric: CheckResult['badGeneric'] = [];
  for (const entry of generic) {
    if (!entry.reason?.trim()) badGeneric.push({ entry, why: 'no reason' });
    for (const name of entry.names ?? []) if (!known.has(name)) badGeneric.push({ entry, why: 'not a field', name });
  }
  return { findings, badEntries, badGeneric };
}

/** The allow-list's `generic`: entity properties that are the runtime's own words too. */
export function readGenericFields(baseDir = root): GenericEntry[] {
  try {
    return JSON.parse(readFileSync(join(baseDir, 'tools/runtime-words-allow.json'), 'utf8')).generic ?? [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

export function readAllowList(baseDir = root): AllowEntry[] {
  try {
    return JSON.parse(readFileSync(join(baseDir, 'tools/runtime-words-allow.json'), 'utf8')).entries ?? [];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The result as lines to print. */
export function formatRuntimeWords({ findings, badEntries, badGeneric = [] }: CheckResult): string {
  const lines: string[] = [];
  if (findings.length) {
    lines.push(`${findings.length} role name(s), Polish word(s), locale, zone or currency name(s) or field(s) of a resource in the runtime's code: put texts in locales/pl/*.json, roles in the configuration (screens/), read the locale, zone and currency from the loaded configuration (format-settings.ts), read a resource's fields by the names the configuration gives (e.g. screens/app.json sessionFields), or give the place a reason in tools/runtime-words-allow.json.`);
    const kinds = { role: 'role', polish: 'Polish', locale: 'locale/zone/currency', field: 'field of a resource' } as const;
    for (const f of findings) lines.push(`  ${f.file}:${f.line}  ${kinds[f.kind]}: ${JSON.stringify(f.text)}`);
  }
  for (const { entry, why } of badEntries) lines.push(`  tools/runtime-words-allow.json: ${entry.file} ${JSON.stringify(entry.text)}: ${why === 'no reason' ? 'says no reason' : 'matches nothing any more (remove it)'}`);
  for (const { entry, why, name } of badGeneric) lines.push(`  tools/runtime-words-allow.json generic ${JSON.stringify(entry.names)}: ${why === 'no reason' ? 'says no reason' : `${JSON.stringify(name)} is no entity's property (remove it)`}`);
  return lines.join('\n');
}

// also run by tools/check-config.ts (npm run check)
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = checkRuntimeWords();
  if (result.findings.length || result.badEntries.length || result.badGeneric.length) {
    console.error(formatRuntimeWords(result));
    process.exit(1);
  }
  console.log('No role names, Polish words, locale, zone or currency names or fields of a resource in the runtime\'s code.');
}
