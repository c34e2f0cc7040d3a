import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routeWrites } from './check-route-writes.ts';

describe('check-route-writes', () => {
  const tree = (files: Record<string, string>) => {
    const base = mkdtempSync(join(tmpdir(), 'route-writes-'));
    mkdirSync(join(base, 'server/routes'), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(base, 'server/routes', name), text);
    return base;
  };

  it('finds kysely writes and SQL writes in a route, with file and line', () => {
    const base = tree({
      'a.ts': "const x = 1;\nawait app.db.insertInto('note').values(v).execute();\n",
      'b.ts': "await trx\n  .updateTable('car').set(v);\nawait sql`delete from export_file where id = ${id}`.execute(db);\n",
      'c.ts': "await sql`update car set \"x\" = 1`.execute(db);\n",
    });
    expect(routeWrites(base)).toEqual([
      expect.stringMatching(/^server\/routes\/a\.ts:2: /),
      expect.stringMatching(/^server\/routes\/b\.ts:2: /),
      expect.stringMatching(/^server\/routes\/b\.ts:3: /),
      expect.stringMatching(/^server\/routes\/c\.ts:1: /),
    ]);
  });

  it('finds a transaction opened in a route, however it is written', () => {
    const base = tree({
      'd.ts': "const x = 1;\nawait app.db.transaction().execute(async (trx) => {\n  await app.notes.add(v, trx);\n});\n",
      'e.ts': "const run = () => db\n  .transaction()\n  .execute(work);\n",
    });
    expect(routeWrites(base)).toEqual([
      expect.stringMatching(/^server\/routes\/d\.ts:2: /),
      expect.stringMatching(/^server\/routes\/e\.ts:2: /),
    ]);
  });

  it("finds a write's entry recorded by a route, in a callback handed to a repository or not", () => {
    const base = tree({
      'f.ts': "await app.counter.add(body, scope, userId,\n  (trx, r) => app.writes.record(trx, { actor, resource: 'car', key: r.pojazdId, action: 'reading' }));\n",
      'g.ts': "const x = 1;\nawait app.writes.record(trx, write);\nawait writes . record (trx, write);\n",
    });
    expect(routeWrites(base)).toEqual([
      expect.stringMatching(/^server\/routes\/f\.ts:2: /),
      expect.stringMatching(/^server\/routes\/g\.ts:2: /),
      expect.stringMatching(/^server\/routes\/g\.ts:3: /),
    ]);
  });

  it('leaves reads, service calls and words in comments and texts alone', () => {
    const base = tree({
      'ok.ts': "// no insertInto( here, no db.transaction() either, no app.writes.record(trx, w)\nawait app.notes.add(v);\nawait runs.saveMapping(app.writes, actor, name, variant, mapping);\nawait app.terms.acceptWithTrail(actor, userId, ids);\nconst rows = await app.db.selectFrom('car').selectAll().execute();\nconst text = 'Update of the settings';\n",
    });
    expect(routeWrites(base)).toEqual([]);
  });

  it('the routes of this tree write nothing, open no transaction and record no write themselves', () => {
    expect(routeWrites()).toEqual([]);
  });
});
