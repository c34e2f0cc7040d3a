import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { NonceLedger } from './nonce-ledger.ts';

/** Counts the statements a Kysely instance runs, and fails the next one when told to. */
class Statements implements KyselyPlugin {
  count = 0;
  failNext = false;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('connection terminated');
    }
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}

describe.each(testBackends)('the nonce ledger on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase({ kind });
  }, 60_000);
  afterAll(async () => t?.close());

  const fresh = (label: string) => `${Date.now()}.${label}.${Math.random().toString(36).slice(2)}`;

  it('accepts a nonce once and refuses it afterwards', async () => {
    const ledger = new NonceLedger(t.db);
    const nonce = fresh('once');
    expect(await ledger.record(nonce)).toBe(true);
    expect(await ledger.record(nonce)).toBe(false);
    // another process: another ledger on the same database
    expect(await new NonceLedger(t.db).record(nonce)).toBe(false);
  });

  it('records the nonces that arrive while an insert runs together, in one statement', async () => {
    const statements = new Statements();
    const ledger = new NonceLedger(t.db.withPlugin(statements));
    const nonces = Array.from({ length: 40 }, (_, i) => fresh(`batch${i}`));
    const answers = await Promise.all(nonces.map((n) => ledger.record(n)));
    expect(answers.every(Boolean)).toBe(true);
    // the first goes alone, the other 39 wait for it and go together
    expect(statements.count).toBe(2);
    const stored = await t.db.selectFrom('used_nonce').select('nonce').where('nonce', 'in', nonces).execute();
    expect(stored).toHaveLength(40);
  });

  it('accepts only the first of the same nonce sent twice in one batch', async () => {
    const ledger = new NonceLedger(t.db);
    const [opener, twice] = [fresh('opener'), fresh('twice')];
    const answers = await Promise.all([ledger.record(opener), ledger.record(twice), ledger.record(twice)]);
    expect(answers).toEqual([true, true, false]);
  });

  it('fails every request of a batch the database did not take, and records the next batch again', async () => {
    const statements = new Statements();
    const ledger = new NonceLedger(t.db.withPlugin(statements));
    statements.failNext = true;
    const lost = [fresh('lost1'), fresh('lost2')];
    const results = await Promise.allSettled(lost.map((n) => ledger.record(n)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
    // the nonce whose statement failed was not recorded: the same request may be sent again
    expect(await ledger.record(lost[0])).toBe(true);
  });
});
