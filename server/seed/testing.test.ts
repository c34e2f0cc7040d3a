import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, testBackends } from './testing.ts';

describe.each(testBackends)('openTestDatabase on %s', (kind) => {
  it('gives a seeded database that is independent of every other one and gone after close()', async () => {
    const [a, b] = await Promise.all([openTestDatabase({ kind, seed: true }), openTestDatabase({ kind, seed: true })]);
    try {
      await a.db.deleteFrom('login_history').execute();
      const countIn = async (t: typeof a) =>
        (await t.db.selectFrom('login_history').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n;
      expect(await countIn(a)).toBe(0);
      expect(await countIn(b)).toBeGreaterThan(0);
      const admin = await b.db.selectFrom('v_users').select('rola').where('login', '=', 'admin').executeTakeFirstOrThrow();
      expect(admin.rola).toBe('ADMIN');
    } finally {
      await a.close();
      await b.close();
    }
    if (kind === 'postgres') {
      // each was a database of its own (a copy of the template), and neither is left
      const names = [a, b].map((t) => new URL(t.databaseUrl!).pathname.slice(1));
      expect(names[0]).not.toBe(names[1]);
      const probe = await openTestDatabase({ kind, migrate: false });
      try {
        const { rows } = await sql<{ n: number }>`select count(*) as n from pg_database where datname in (${names[0]}, ${names[1]})`.execute(probe.db);
        expect(rows[0].n).toBe(0);
      } finally {
        await probe.close();
      }
    }
  }, 60_000);
});

describe.each(testBackends)('openTestDatabase on %s, one after another', (kind) => {
  it('starts each database from the snapshot, whatever the one before wrote to its files', async () => {
    const countIn = async (t: Awaited<ReturnType<typeof openTestDatabase>>) =>
      (await t.db.selectFrom('login_history').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n;
    const first = await openTestDatabase({ kind, seed: true });
    let before: number;
    try {
      before = await countIn(first);
      await first.db.deleteFrom('login_history').execute();
      // the deletion written into the data files themselves, not only the write-ahead log
      await sql`checkpoint`.execute(first.db);
    } finally {
      await first.close();
    }
    const next = await openTestDatabase({ kind, seed: true });
    try {
      expect(before).toBeGreaterThan(0);
      expect(await countIn(next)).toBe(before);
    } finally {
      await next.close();
    }
  }, 60_000);
});

describe.runIf(process.env.DATABASE_URL)('openTestDatabase on postgres, when its template is gone', () => {
  it('builds the template again (a run of other sources on the same server replaced it)', async () => {
    const first = await openTestDatabase({ kind: 'postgres' });
    const template = await first.db.selectFrom(sql<{ datname: string }>`pg_database`.as('d')).select('datname')
      .where('datname', 'like', 'portal\\_template\\_migrated\\_%').executeTakeFirstOrThrow();
    await first.close();
    const probe = await openTestDatabase({ kind: 'postgres', migrate: false });
    try {
      await sql`drop database ${sql.id(template.datname)}`.execute(probe.db);
    } finally {
      await probe.close();
    }
    const second = await openTestDatabase({ kind: 'postgres' });
    try {
      const { rows } = await sql<{ n: number }>`select count(*) as n from kysely_migration`.execute(second.db);
      expect(rows[0].n).toBeGreaterThan(10);
    } finally {
      await second.close();
    }
  }, 60_000);
});
