/**
 * `npm run check` (and `npm test`): validates the default configuration and every client variant
 * exactly as start-up does, and the variants' demo data, printing each problem as file, JSON pointer and reason.
 * The checkout's runtime code is checked to name no role and say no Polish word (check-runtime-words.ts).
 * `--root <dir>` checks another configuration tree (screens/, schemas/, locales/, client-variants/,
 * e.g. a copy with the files the configuration studio exported) instead of the checkout's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError, loadBundle } from '../server/config/load-bundle.ts';
import { loadVariants } from '../server/config/variants.ts';
import { readVariantDemos } from '../server/seed/variant-demos.ts';
import { checkRuntimeWords, formatRuntimeWords } from './check-runtime-words.ts';
import { checkLocales, formatLocaleProblems } from './check-locales.ts';

const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 && process.argv[rootArg + 1] ? resolve(process.argv[rootArg + 1]) : resolve(import.meta.dirname, '..');
const variantsDir = join(root, 'client-variants');
const variants = ['default', ...(existsSync(variantsDir) ? readdirSync(variantsDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : [])];

let failed = false;
for (const variant of variants) {
  try {
    const bundle = loadBundle({ root, variant });
    console.log(`✓ ${variant}: ${Object.keys(bundle.screens).length} screens, ${Object.keys(bundle.schemas).length} schemas, ${Object.keys(bundle.resources).length} resources`);
  } catch (e) {
    failed = true;
    console.error(`✗ ${variant}\n${e instanceof ConfigError ? e.message : String(e)}`);
  }
}
// what one server serving them all needs besides: no host name or client claimed by two variants
if (!failed) {
  try {
    const set = loadVariants({ root });
    const claims = [...set.byHost].map(([host, v]) => `${host} → ${v}`).concat([...set.byClient].map(([client, v]) => `client ${client} → ${v}`));
    console.log(`✓ served together: ${[...set.bundles.keys()].join(', ')}${claims.length ? ` (${claims.join('; ')})` : ''}`);
  } catch (e) {
    failed = true;
    console.error(`✗ variants served together\n${e instanceof ConfigError ? e.message : String(e)}`);
  }
}
// the variants' demo data (client-variants/<name>/demo.json), which `npm run seed` adds
try {
  const demos = readVariantDemos(root);
  for (const { variant, demo } of demos) {
    console.log(`✓ ${variant} demo data: client ${demo.client.klient}, ${demo.vehicles?.length ?? 0} vehicles, ${demo.users?.length ?? 0} accounts, ${demo.orders?.length ?? 0} orders`);
  }
} catch (e) {
  failed = true;
  console.error(`✗ variant demo data\n${e instanceof ConfigError ? e.message : String(e)}`);
}
// every language's texts against the Polish ones (issue 48): keys, placeholders, plural forms
{
  const { languages, problems } = checkLocales(root);
  if (problems.length) {
    failed = true;
    console.error(`✗ texts per language (${problems.length} problems)\n${formatLocaleProblems(problems)}`);
  } else console.log(`✓ texts per language: ${['pl', ...languages].join(', ')} complete against pl (keys, placeholders, plural forms)`);
}
// the other half of "config, not code": the runtime's code names no role and says no Polish word
// (issue 38; the checkout's code only — another tree given by --root is configuration alone)
if (rootArg < 0) {
  const words = checkRuntimeWords();
  if (words.findings.length || words.badEntries.length || words.badGeneric.length) {
    failed = true;
    console.error(`✗ runtime code\n${formatRuntimeWords(words)}`);
  } else console.log('✓ runtime code: no role names, no Polish words, no locale, zone or currency, no field of a resource (texts, roles, formats and field names are configuration)');
}
process.exit(failed ? 1 : 0);
