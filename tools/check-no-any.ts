/**
 * `npm run check` (issue 45, "rooms that show it"): no `any` in the server's code. `any` switches
 * the compiler off where it is written — a wrong column, a missing field or a changed shape then
 * passes unseen — so the server says what it means: the generated row types (server/db/
 * types.generated.ts), the generated configuration types (runtime/core/generated), the tables the
 * configuration names (server/db/configured-tables.ts), or `unknown` narrowed where it is read.
 * Every `any` the compiler would read counts: `: any`, `as any`, `<any>`, `any[]`,
 * `Record<string, any>`, a type argument. Migrations run against past schemas and keep their
 * `any` (their Kysely is untyped: tools/check-db-typing.ts); tests are not server code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
/** Migrations (past schemas) and tests. */
const LEFT_OUT = /^server\/migrations\/|\.test\.tsx?$/;

/** The lines (1-based) of every `any` the compiler reads in a source text: types only, never a word in a comment or a string. */
export function anyLines(fileName: string, text: string): number[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines = new Set<number>();
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) lines.add(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...lines].sort((a, b) => a - b);
}

/** `file:line: text` of every `any` in the server's code under `dir` of `baseDir`. */
export function serverAnys(baseDir = root, dir = 'server'): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
        continue;
      }
      if (!/\.(ts|tsx|mts)$/.test(entry.name) || entry.name.endsWith('.d.ts')) continue;
      const rel = relative(baseDir, path).split('\\').join('/');
      if (LEFT_OUT.test(rel)) continue;
      const text = readFileSync(path, 'utf8');
      const lines = text.split('\n');
      for (const line of anyLines(path, text)) found.push(`${rel}:${line}: ${lines[line - 1].trim()}`);
    }
  };
  walk(join(baseDir, dir));
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = serverAnys();
  if (found.length) {
    console.error(`${found.length} \`any\` in server code (say the type: the generated row or configuration types, ConfiguredTables, or unknown narrowed where it is read):\n${found.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('No `any` in server code (migrations and tests aside).');
}
