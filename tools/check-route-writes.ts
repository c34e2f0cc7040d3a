/**
 * `npm run check` (issue 45): routes are HTTP only — they parse, call a service and answer. No
 * route under server/routes/ writes to the database itself: no kysely `insertInto`, `updateTable`,
 * `deleteFrom`, `replaceInto`, `mergeInto`, and no SQL text that inserts, updates, deletes, copies
 * or truncates, and no `.transaction(` either: a route that opens a transaction coordinates writes
 * and their trail entries itself, which is a service's business. Nor does a route call
 * `writes.record(` (app.writes, the one write path): a route that builds a write's trail entry or
 * its events and hands them to a repository as a callback does the service's work (issue 45). A
 * write lives in a service or repository, which opens its transaction and records its trail entry
 * and its events in it (server/services/write.ts, server/audit/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(import.meta.dirname, '..');
const KYSELY_WRITE = /\.\s*(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\s*\(/;
/** A transaction opened in a route (kysely's `db.transaction()`, or any `.transaction(` call). */
const TRANSACTION = /\.\s*transaction\s*\(/;
/** A write's entry and events recorded by the route (app.writes.record, in a callback or not). */
const WRITE_RECORD = /\bwrites\s*\.\s*record\s*\(/;
/** SQL text: a statement's verb at the start of a template or string (its quote written \x60, \x27, \x22), or after a semicolon or an opening parenthesis. */
const SQL_WRITE = /(^|[\x60\x27\x22(;]\s*)(insert\s+into|update\s+\w+\s+set|delete\s+from|copy\s+\w+|truncate\s)/i;

/** `file:line: text` of every write, every transaction and every recorded write under `dir` (server/routes by default). */
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
          if (KYSELY_WRITE.test(code) || SQL_WRITE.test(code) || TRANSACTION.test(code) || WRITE_RECORD.test(code)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
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
    console.error(`Routes write to the database, open a transaction or record a write's entry (move the write, with its transaction and its entry, into a service or repository that records it through app.writes or server/audit, docs/architecture.md "One write path"):\n${found.map((f) => `  ${f}`).join('\n')}`);
    process.exit(1);
  }
  console.log('No writes, no transactions and no recorded writes under server/routes/.');
}
