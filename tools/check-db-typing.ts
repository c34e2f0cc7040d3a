/**
 * `npm run check`: the generated row types (`Kysely<DB>`, server/db/types.generated.ts) are used
 * everywhere but in migrations, which run against past schemas and so take `Kysely<any>`. Code that
 * builds SQL from the configuration's names uses `Kysely<ConfiguredTables>`
 * (server/db/configured-tables.ts). A `Kysely<any>` anywhere else hides the mistakes DB catches.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const SCANNED = ['server', 'runtime', 'tools', 'tests', 'examples'];
/** Migrations, and this check and its test, which must name what they look for. */
const ALLOWED = /^(server\/migrations\/|tools\/check-db-typing(\.test)?\.ts$)/;
const UNTYPED = /Kysely<\s*any\s*>/;

/** `file:line` of every `Kysely<any>` outside the migrations, under `dirs` of `baseDir`. */
export function untypedDatabases(baseDir = root, dirs = SCANNED): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx)$/.test(name)) {
        const rel = relative(baseDir, path).split('\\').join('/');
        if (ALLOWED.test(rel)) continue;
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          if (UNTYPED.test(line)) found.push(`${rel}:${i + 1}`);
        });
      }
    }
  };
  for (const dir of dirs) walk(join(baseDir, dir));
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = untypedDatabases();
  if (found.length) {
    console.error(`Kysely<any> outside server/migrations (type it Kysely<DB>, or Kysely<ConfiguredTables> where the configuration names the tables):\n${found.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('Kysely<any> only in migrations.');
}
