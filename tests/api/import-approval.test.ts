/**
 * What the user approves is what happens (issue 49): an import that names its dry run runs only
 * with that dry run's file and options; retiring more than the declared share of a client's active
 * rows needs the number typed back; and the import retires no more rows than its dry run counted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRuns } from '../support/imports.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('an import carrying out its dry run', () => {
  let t: TestApp;
  let admin: string;
  let client: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    client = (await t.app.db.selectFrom('client').select('klient').orderBy('klient').executeTakeFirstOrThrow()).klient;
  }, 120_000);
  afterAll(async () => t?.close());

  const runs = () => importRuns(t, admin);
  const vin = (n: number) => `APPRVIN${String(n).padStart(10, '0')}`;
  const activeOfClient = async () => Number((await t.app.db.selectFrom('car').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('klientSymbol', '=', client).where('pojStatus', 'is distinct from', 'Wycofany').executeTakeFirstOrThrow()).n);
  const file = (n: number) => `VIN;Klient;Nr rejestracyjny\n${Array.from({ length: n }, (_, i) => `${vin(i + 1)};${client};WA${1000 + i}X`).join('\n')}\n`;

  it('is refused when an option, the mapping or the file differs from its dry run\'s, naming what differs', async () => {
    const csv = file(2);
    const dry = await runs().runOf('car', 'trzy.csv', csv, { mode: 'dryRun', missing: 'keep' });
    expect(dry).toMatchObject({ state: 'succeeded', confirmByTyping: false });

    const otherMissing = await runs().upload('car', 'trzy.csv', csv, { mode: 'import', missing: 'deactivate', dryRun: dry.id });
    expect(otherMissing.statusCode).toBe(400);
    expect(otherMissing.json()).toMatchObject({ code: 'IMPORT_DRY_RUN_DIFFERS', detail: 'Import różni się od sprawdzenia (rekordy, których nie ma w pliku) — sprawdź plik ponownie z tymi ustawieniami' });

    const otherOnError = await runs().upload('car', 'trzy.csv', csv, { mode: 'import', onError: 'validRows', dryRun: dry.id });
    expect(otherOnError.json()).toMatchObject({ code: 'IMPORT_DRY_RUN_DIFFERS', detail: expect.stringContaining('gdy plik ma błędy') });

    const otherFile = await runs().upload('car', 'trzy.csv', file(3), { mode: 'import', dryRun: dry.id });
    expect(otherFile.json()).toMatchObject({ code: 'IMPORT_DRY_RUN_DIFFERS', detail: expect.stringContaining('plik') });

    const otherMapping = await runs().upload('car', 'trzy.csv', csv, { mode: 'import', dryRun: dry.id, mapping: { VIN: 'nrPodw', Klient: 'klient', 'Nr rejestracyjny': null } });
    expect(otherMapping.json()).toMatchObject({ code: 'IMPORT_DRY_RUN_DIFFERS', detail: expect.stringContaining('przypisanie kolumn') });

    // nothing of the refused imports ran
    expect(await t.app.db.selectFrom('car').select('nrPodw').where('nrPodw', '=', vin(1)).executeTakeFirst()).toBeUndefined();

    const same = await runs().runOf('car', 'trzy.csv', csv, { mode: 'import', dryRun: dry.id });
    expect(same).toMatchObject({ state: 'succeeded', dryRunId: dry.id, counts: { new: 2 } });

    // the history apart: only imports, only dry runs
    const imports = (await t.call('GET', '/api/import/runs?mode=import', { token: admin })).json();
    expect(imports.rows.map((r: { mode: string }) => r.mode)).toEqual(imports.rows.map(() => 'import'));
    expect(imports.rows.map((r: { id: number }) => r.id)).toContain(same.id);
    const dryRuns = (await t.call('GET', '/api/import/runs?mode=dryRun', { token: admin })).json();
    expect(dryRuns.rows.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([dry.id]));
    expect(dryRuns.rows.every((r: { mode: string }) => r.mode === 'dryRun')).toBe(true);
    expect((await t.call('GET', '/api/import/runs?mode=other', { token: admin })).statusCode).toBe(400);
  });

  it('refuses a dry run that is no dry run of this caller and declaration', async () => {
    const csv = file(1);
    const imported = await runs().runOf('car', 'a.csv', csv, { mode: 'import' });
    const asDry = await runs().upload('car', 'a.csv', csv, { mode: 'import', dryRun: imported.id });
    expect(asDry.json()).toMatchObject({ code: 'IMPORT_NOT_APPROVED', detail: 'Nie ma takiego sprawdzenia tego pliku' });
    const unknown = await runs().upload('car', 'a.csv', csv, { mode: 'import', dryRun: 99999999 });
    expect(unknown.statusCode).toBe(400);
  });

  it('retiring more than the declared share of the client\'s active vehicles needs the number typed back', async () => {
    const csv = file(1);
    const active = await activeOfClient();
    const dry = await runs().runOf('car', 'pelny.csv', csv, { mode: 'dryRun', missing: 'deactivate' });
    expect(dry.counts.deactivated).toBe(active - 1);
    expect(dry).toMatchObject({ activeRows: active, confirmByTyping: true });

    const untyped = await runs().upload('car', 'pelny.csv', csv, { mode: 'import', missing: 'deactivate', dryRun: dry.id });
    expect(untyped.statusCode).toBe(400);
    expect(untyped.json()).toMatchObject({ code: 'IMPORT_CONFIRM_NEEDED', errors: [{ field: 'confirmDeactivated', message: `Aby wycofać ${(active - 1).toLocaleString('pl-PL')} rekordów, wpisz tę liczbę` }] });
    const wrong = await runs().upload('car', 'pelny.csv', csv, { mode: 'import', missing: 'deactivate', dryRun: dry.id, confirmDeactivated: String(active) });
    expect(wrong.json()).toMatchObject({ code: 'IMPORT_CONFIRM_NEEDED' });
    expect(await activeOfClient()).toBe(active);

    // a vehicle of the client added after the dry run: the import would retire one more than shown
    const late = await runs().runOf('car', 'nowy.csv', `VIN;Klient;Nr rejestracyjny\nAPPRLATE000000001;${client};WA9999L\n`, { mode: 'import' });
    expect(late).toMatchObject({ state: 'succeeded', counts: { new: 1 } });
    const tooMany = await runs().runOf('car', 'pelny.csv', csv, { mode: 'import', missing: 'deactivate', dryRun: dry.id, confirmDeactivated: String(active - 1) });
    expect(tooMany).toMatchObject({ state: 'failed', message: `Import wycofałby ${active} rekordów, a sprawdzenie pokazało ${active - 1} — nic nie zapisano. Sprawdź plik ponownie.` });
    expect(await activeOfClient()).toBe(active + 1);

    const again = await runs().runOf('car', 'pelny.csv', csv, { mode: 'dryRun', missing: 'deactivate' });
    const typed = (again.counts.deactivated as number).toLocaleString('pl-PL');
    const done = await runs().runOf('car', 'pelny.csv', csv, { mode: 'import', missing: 'deactivate', dryRun: again.id, confirmDeactivated: typed });
    expect(done).toMatchObject({ state: 'succeeded', counts: { deactivated: active } });
    expect(await activeOfClient()).toBe(1);
  });
});
