import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { untypedDatabases } from './check-db-typing.ts';

describe('the check of Kysely<any>', () => {
  it('names each Kysely<any> outside the migrations by file and line, and lets migrations take it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'db-typing-'));
    mkdirSync(join(dir, 'server/migrations'), { recursive: true });
    mkdirSync(join(dir, 'server/repositories'), { recursive: true });
    writeFileSync(join(dir, 'server/migrations/001_x.ts'), 'export async function up(db: Kysely<any>) {}\n');
    writeFileSync(join(dir, 'server/repositories/x.ts'), "import type { Kysely } from 'kysely';\nconst a = (db: Kysely< any >) => db;\n");
    writeFileSync(join(dir, 'server/repositories/typed.ts'), 'const a = (db: Kysely<DB>) => db;\n');
    expect(untypedDatabases(dir, ['server'])).toEqual(['server/repositories/x.ts:2']);
  });

  it('finds none in the project', () => {
    expect(untypedDatabases()).toEqual([]);
  });
});
