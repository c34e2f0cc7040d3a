/**
 * npm run audit -- --verify
 *
 * Checks the audit trail's chain (issue 37, docs/decisions.md "Audit trail (issue 37)") in the
 * database of DATABASE_URL (optional DATABASE_SCHEMA) or the PGlite folder DATA_DIR (default
 * ./data), the same database `npm start` uses. Exit 0 when every entry holds; 2 naming the first
 * broken entry (its id and sequence number, and what is wrong) otherwise.
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { verifyChain } from '../server/audit/verify.ts';
import { openDatabase } from '../server/db/connect.ts';

const REASONS = {
  gap: 'an entry is missing before it (sequence numbers skip)',
  prevHash: 'its previous hash is not the hash of the entry before it (an entry before it was removed or replaced)',
  hash: 'its content does not match its hash (it was edited)',
  head: 'the chain\'s head does not name the last entry (entries at the end were removed)',
  checkpoint: 'the retention checkpoint (where the kept chain starts) is not the one the newest retention entry recorded (entries were removed without a recorded retention)',
} as const;

async function main() {
  const { values } = parseArgs({ options: { verify: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help || !values.verify) {
    console.log('Usage: npm run audit -- --verify   (DATABASE_URL [+ DATABASE_SCHEMA] or DATA_DIR, default ./data)');
    process.exit(values.help ? 0 : 1);
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const handle = await openDatabase({
    databaseUrl,
    dataDir: databaseUrl ? undefined : process.env.DATA_DIR || './data',
    schema: databaseUrl ? process.env.DATABASE_SCHEMA || undefined : undefined,
  });
  try {
    const { rows } = await sql<{ t: string | null }>`select to_regclass('audit_entry')::text as t`.execute(handle.db);
    if (!rows[0]?.t) throw new Error('this database has no audit trail yet (migration 029 is applied when the portal starts)');
    const verdict = await verifyChain(handle.db);
    if (verdict.ok) {
      const kept = verdict.firstSeq > 1 ? ` (from sequence ${verdict.firstSeq}; the ${verdict.firstSeq - 1} before it were removed by retention, recorded)` : '';
      console.log(`audit trail intact: ${verdict.entries} entries${kept}, last hash ${verdict.lastHash}`);
      return;
    }
    const which = verdict.brokenId === null ? `at sequence ${verdict.brokenSeq}` : `entry id ${verdict.brokenId} (sequence ${verdict.brokenSeq})`;
    console.error(`audit trail BROKEN at ${which}: ${REASONS[verdict.reason]}; ${verdict.entries} entries before it hold`);
    process.exitCode = 2;
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(`audit: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
