/**
 * Every index of the trail is paid for by every entry, and an import appends one a record (a
 * million for a million fuel transactions): the trail keeps the indexes its readers use and no
 * other (migration 056, docs/decisions.md "The trail's indexes an import pays for"). A new reader
 * that needs another index adds it here, with what it costs an import.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';

describe('the trail\'s indexes', () => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ migrate: true }); }, 60_000);
  afterAll(async () => t?.close());

  it('are those of its readers: the chain, the table by time, what and whom, a record\'s history and the personal-data export', async () => {
    const rows = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = 'audit_entry' and schemaname = current_schema() order by 1`.execute(t.db);
    expect(rows.rows.map((r) => r.indexname)).toEqual([
      'audit_entry_actor_at', // Dziennik zmian by the person chosen in "Kto" (migration 055)
      'audit_entry_at', // Dziennik zmian newest first, retention oldest first
      'audit_entry_history', // a record's Historia zmian, the personal-data export's records
      'audit_entry_pkey',
      'audit_entry_resource_at', // Dziennik zmian by what
      'audit_entry_seq_key', // the chain's order
      'audit_entry_user', // the personal-data export's "what the person did"
    ]);
  });
});
