/**
 * `npm run check` (issue 48): every language's texts against the Polish ones, the source. For each
 * language folder next to locales/pl (locales/en, locales/uk, …) and each client variant's overlay
 * of Polish texts (client-variants/<v>/locales/pl → client-variants/<v>/locales/<lang>), a problem
 * names the file and the key when
 *
 * - a key of the Polish file is missing in the language's (or the language has a key Polish lacks),
 * - a text's placeholders ({{name}}) differ from the Polish text's,
 * - a plural (i18next's `key_one`, `key_few`, … suffixes) lacks a form the language's plural rules
 *   need (Intl.PluralRules: English one/other, Ukrainian and Polish one/few/many/other), or has
 *   one they do not know (`_zero`, i18next's form for a count of 0, is allowed in any language and
 *   needed where the Polish text has it).
 *
 * A language named in screens/app.json `config.languages` without a folder is only reported: the
 * portal does not offer it (server/config/load-bundle.ts) until its texts are there.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface LocaleProblem {
  file: string;
  key: string;
  reason: string;
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*([^}\s,]+)[^}]*\}\}/g;

/** Every string of a texts document by its dotted path. */
export function flatten(value: unknown, prefix = '', out: Map<string, string> = new Map()): Map<string, string> {
  if (typeof value === 'string') out.set(prefix, value);
  else if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) out.set(prefix, String(value));
  return out;
}

export const placeholders = (text: string): string[] => [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))].sort();

/** The plural forms a language's texts need (i18next's suffixes). */
export function pluralForms(language: string): string[] {
  return new Intl.PluralRules(language).resolvedOptions().pluralCategories.slice().sort();
}

/** A texts document as families: a plain key is its own family; `x_one`, `x_other`… are the family `x`. */
function families(texts: Map<string, string>): Map<string, { plural: boolean; forms: Map<string, string> }> {
  const out = new Map<string, { plural: boolean; forms: Map<string, string> }>();
  for (const [key, text] of texts) {
    const m = PLURAL_SUFFIX.exec(key);
    // a key like `status_other` alone is a plain key only when no sibling form exists: decide after collecting
    const base = m ? key.slice(0, -m[0].length) : key;
    const family = out.get(base) ?? { plural: !!m, forms: new Map() };
    family.plural = family.plural && !!m;
    family.forms.set(m ? m[1] : '', text);
    out.set(base, family);
  }
  return out;
}

/** The problems of one language's document against the Polish one. `file`: the language's file, as reported. */
export function compareTexts(polish: unknown, other: unknown, language: string, file: string): LocaleProblem[] {
  const problems: LocaleProblem[] = [];
  const pl = families(flatten(polish));
  const lang = families(flatten(other));
  const needed = pluralForms(language);
  const keyOf = (base: string, form: string) => (form ? `${base}_${form}` : base);
  for (const [base, family] of pl) {
    const theirs = lang.get(base);
    if (!theirs) {
      problems.push({ file, key: family.plural ? `${base}_{${needed.join(',')}}` : base, reason: 'missing' });
      continue;
    }
    const plNames = placeholders([...family.forms.values()].join(' '));
    if (family.plural) {
      if (!theirs.plural) {
        problems.push({ file, key: base, reason: `a plural in Polish: needs the forms ${needed.map((f) => keyOf(base, f)).join(', ')}` });
        continue;
      }
      // `_zero` is i18next's own form for a count of 0, in any language: kept where Polish has it
      const required = family.forms.has('zero') ? [...needed, 'zero'] : needed;
      for (const form of required) if (!theirs.forms.has(form)) problems.push({ file, key: keyOf(base, form), reason: `plural form "${form}" missing (${language} needs ${required.join(', ')})` });
      for (const form of theirs.forms.keys()) if (!required.includes(form)) problems.push({ file, key: keyOf(base, form), reason: `plural form "${form}" is not one of ${language}'s (${needed.join(', ')})` });
      for (const [form, text] of theirs.forms) {
        const names = placeholders(text);
        const extra = names.filter((n) => !plNames.includes(n));
        if (extra.length) problems.push({ file, key: keyOf(base, form), reason: `placeholder ${extra.map((n) => `{{${n}}}`).join(', ')} not in the Polish text` });
      }
      const all = placeholders([...theirs.forms.values()].join(' '));
      const lacking = plNames.filter((n) => !all.includes(n));
      if (lacking.length) problems.push({ file, key: base, reason: `placeholder ${lacking.map((n) => `{{${n}}}`).join(', ')} of the Polish text missing` });
    } else {
      if (theirs.plural) {
        problems.push({ file, key: base, reason: 'plural forms where the Polish text has none' });
        continue;
      }
      const names = placeholders(theirs.forms.get('') ?? '');
      const extra = names.filter((n) => !plNames.includes(n));
      const lacking = plNames.filter((n) => !names.includes(n));
      if (lacking.length) problems.push({ file, key: base, reason: `placeholder ${lacking.map((n) => `{{${n}}}`).join(', ')} of the Polish text missing` });
      if (extra.length) problems.push({ file, key: base, reason: `placeholder ${extra.map((n) => `{{${n}}}`).join(', ')} not in the Polish text` });
    }
  }
  for (const [base, family] of lang) {
    if (!pl.has(base)) problems.push({ file, key: family.plural ? `${base}_*` : base, reason: 'not a key of the Polish texts' });
  }
  return problems;
}

const jsonNames = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile()).sort() : []);
const dirs = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => statSync(join(dir, f)).isDirectory()).sort() : []);

/** The languages with texts besides Polish: the folders next to locales/pl. */
export const textLanguages = (root: string) => dirs(join(root, 'locales')).filter((l) => l !== 'pl');

/** One folder of a language against its Polish folder: every Polish file must have its counterpart. */
function compareFolders(root: string, plDir: string, langDir: string, language: string): LocaleProblem[] {
  const problems: LocaleProblem[] = [];
  const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const plFiles = jsonNames(plDir);
  for (const name of plFiles) {
    const file = relative(root, join(langDir, name));
    if (!existsSync(join(langDir, name))) {
      problems.push({ file, key: '*', reason: `missing (${relative(root, join(plDir, name))} has ${flatten(read(join(plDir, name))).size} texts)` });
      continue;
    }
    try {
      problems.push(...compareTexts(read(join(plDir, name)), read(join(langDir, name)), language, file));
    } catch (e) {
      problems.push({ file, key: '', reason: `not valid JSON: ${(e as Error).message}` });
    }
  }
  for (const name of jsonNames(langDir)) if (!plFiles.includes(name)) problems.push({ file: relative(root, join(langDir, name)), key: '*', reason: 'no Polish file of this name' });
  return problems;
}

export function checkLocales(root: string): { languages: string[]; problems: LocaleProblem[] } {
  const languages = textLanguages(root);
  const problems: LocaleProblem[] = [];
  // Polish's own plurals have every form Polish needs
  for (const name of jsonNames(join(root, 'locales/pl'))) {
    const texts = JSON.parse(readFileSync(join(root, 'locales/pl', name), 'utf8')) as unknown;
    problems.push(...compareTexts(texts, texts, 'pl', `locales/pl/${name}`));
  }
  for (const language of languages) {
    problems.push(...compareFolders(root, join(root, 'locales/pl'), join(root, 'locales', language), language));
    for (const variant of dirs(join(root, 'client-variants'))) {
      const plDir = join(root, 'client-variants', variant, 'locales/pl');
      if (jsonNames(plDir).length || jsonNames(join(root, 'client-variants', variant, 'locales', language)).length) {
        problems.push(...compareFolders(root, plDir, join(root, 'client-variants', variant, 'locales', language), language));
      }
    }
  }
  return { languages, problems };
}

export const formatLocaleProblems = (problems: LocaleProblem[]) => problems.map((p) => `  ${p.file}${p.key ? ` ${p.key}` : ''}: ${p.reason}`).join('\n');
