/**
 * `npm run check` (issue 45): routes are HTTP only — they parse, call a service and answer. No
 * route under server/routes/ writes to the database itself: no kysely `insertInto`, `updateTable`,
 * `deleteFrom`, `replaceInto`, `mergeInto`, and no SQL text that inserts, updates, deletes, copies
 * or truncates. A write lives in a service or repository, which records its trail entry and its
 * events through the one write path (server/services/write.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const KYSELY_WRITE = /\.\s*(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\s*\(/;
/** SQL text: a statement's verb at the start of a template or string, or after a `;` or `with … as (`. */
const SQL_WRITE = /(^|[`'"(;]\s*)(insert\s+into|update\s+\w+\s+set|delete\s+from|copy\s+\w+|truncate\s)/i;

/** `file:line: text` of every write under `dir` (server/routes by default). */
export function routeWrites(baseDir = root, dir = 'server/routes'): string[] {
  const found: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const rel = relative(baseDir, path).split('\\').join('/');
        readFileSync(path, 'utf8').split('\n').forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
          if (KYSELY_WRITE.test(code) || SQL_WRITE.test(code)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
      }
    }
  };
  walk(join(baseDir, dir));
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const found = routeWrites();
  if (found.length) {
    console.error(`Routes write to the database (move the write into a service that records it through app.writes, docs/architecture.md "One write path"):\n${found.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('No writes under server/routes/.');
}
