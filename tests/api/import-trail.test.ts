/**
 * An import's records in the audit trail (issue 45): every record a run creates, changes or
 * withdraws has an entry of its own in its Historia zmian — the fields before and after, the run's
 * author with the file — written with the run's entry in the transaction of its rows; a dry run,
 * and a run that changes nothing, add no record entries; the chain stays whole. On PGlite, and on
 * PostgreSQL (COPY) with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../server/audit/verify.ts';
import { importRuns } from '../support/imports.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('an import in the audit trail', () => {
  let t: TestApp;
  let admin: string;
  let client: string;
  const vin = (n: number) => `TRAILVIN${String(n).padStart(9, '0')}`;
  const carId = async (v: string) => (await t.app.db.selectFrom('car').select('pojazdId').where('nrPodw', '=', v).executeTakeFirstOrThrow()).pojazdId;
  /** The record's Historia zmian, one item per entry (newest first) with its fields' changes as the screen shows them. */
  const history = async (pojazdId: number) => {
    const res = await t.call('GET', `/api/audit/history/car/${pojazdId}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const entries = new Map<number, { action: string; actorLabel: string; changes: { field: string; before: unknown; after: unknown }[] }>();
    for (const c of res.json().changes as { entryId: number; action: string; actorLabel: string; field: string; before: unknown; after: unknown }[]) {
      if (!entries.has(c.entryId)) entries.set(c.entryId, { action: c.action, actorLabel: c.actorLabel, changes: [] });
      entries.get(c.entryId)!.changes.push({ field: c.field, before: c.before, after: c.after });
    }
    return { rows: [...entries.values()] };
  };
  const entryCount = async () => Number((await t.app.db.selectFrom('audit_entry').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
  const runOf = (fileName: string, csv: string, options: Parameters<ReturnType<typeof importRuns>['runOf']>[3] = {}) => importRuns(t, admin).runOf('car', fileName, csv, options);

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    client = (await t.app.db.selectFrom('client').select('klient').orderBy('klient').executeTakeFirstOrThrow()).klient;
  }, 120_000);
  afterAll(async () => t?.close());

  it('gives a vehicle the file creates an entry of its fields, named after the run\'s author and file', async () => {
    const csv = `VIN;Klient;Nr rejestracyjny;Marka;Data przeglądu\n${vin(1)};${client};WT1001A;Škoda;15.06.2026\n${vin(2)};${client};WT1002A;Toyota;01.02.2026\n`;
    const run = await runOf('flota.csv', csv);
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: 2 } });
    const { rows } = await history(await carId(vin(1)));
    expect(rows).toHaveLength(1);
    expect(rows[0].action).toBe('create');
    expect(rows[0].actorLabel).toContain('flota.csv');
    const after = Object.fromEntries(rows[0].changes.map((c) => [c.field, c.after]));
    expect(after).toMatchObject({ rejestr: 'WT1001A', marka: 'Škoda', dataPrzeg: '15.06.2026' });
    expect(rows[0].changes.every((c) => c.before === null || c.before === '' || c.before === undefined)).toBe(true);
  });

  it('records the inspection date an import moved, before and after, and nothing for a vehicle the file left as it was', async () => {
    const before = await entryCount();
    const csv = `VIN;Klient;Nr rejestracyjny;Marka;Data przeglądu\n${vin(1)};${client};WT1001A;Škoda;20.07.2027\n${vin(2)};${client};WT1002A;Toyota;01.02.2026\n`;
    const dry = await runOf('flota.csv', csv, { mode: 'dryRun' });
    expect(dry.counts).toMatchObject({ changed: 1, unchanged: 1 });
    // a dry run writes nothing, so no record has an entry of it (only the run's own)
    expect(await entryCount()).toBe(before + 1);
    const run = await runOf('flota-lipiec.csv', csv);
    expect(run.counts).toMatchObject({ changed: 1, unchanged: 1 });
    // the changed vehicle's entry and the run's
    expect(await entryCount()).toBe(before + 3);
    const moved = (await history(await carId(vin(1)))).rows[0];
    expect(moved).toMatchObject({ action: 'update', actorLabel: expect.stringContaining('flota-lipiec.csv') });
    expect(moved.changes).toEqual([expect.objectContaining({ field: 'dataPrzeg', before: '15.06.2026', after: '20.07.2027' })]);
    expect((await history(await carId(vin(2)))).rows).toHaveLength(1);
  });

  it('records each vehicle a full file withdraws, and keeps the chain whole', async () => {
    const others = await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', client)
      .where('pojStatus', 'is distinct from', 'Wycofany').where('nrPodw', 'not in', [vin(1), vin(2)]).execute();
    expect(others.length).toBeGreaterThan(0);
    const csv = `VIN;Klient;Nr rejestracyjny\n${vin(1)};${client};WT1001A\n${vin(2)};${client};WT1002A\n`;
    const dry = await runOf('pelny.csv', csv, { mode: 'dryRun', missing: 'deactivate' });
    const run = await runOf('pelny.csv', csv, { missing: 'deactivate', dryRun: dry.id, confirmDeactivated: String(others.length) });
    expect(run.counts.deactivated).toBe(others.length);
    for (const { pojazdId } of others) {
      const withdrawn = (await history(pojazdId)).rows[0];
      expect(withdrawn).toMatchObject({ action: 'withdraw', actorLabel: expect.stringContaining('pelny.csv') });
      expect(withdrawn.changes).toEqual([expect.objectContaining({ field: 'pojStatus', after: 'Wycofany' })]);
    }
    expect(await verifyChain(t.app.db)).toMatchObject({ ok: true });
  });
});
