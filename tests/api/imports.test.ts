/**
 * Imports (issue 34): vehicles and odometer readings from CSV (UTF-8 with and without BOM,
 * Windows-1250, `;` and `,`, Polish dates and decimal commas), xlsx and JSON lines; dry run and
 * real run; upsert by key with unchanged rows untouched; all or nothing, or the valid rows;
 * deactivation of missing rows; each kind of bad input answered per row in Polish. One app for all.
 * On PGlite by default, on PostgreSQL with DATABASE_URL.
 */
import iconv from 'iconv-lite';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { importRuns, type RunOptions } from '../support/imports.ts';
import { postMultipart } from '../support/multipart.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** A run's errors without the file's values beside them (those are checked in imports.test.ts, issue 49). */
const withoutValues = (errors: { value?: string }[]) => errors.map(({ value: _value, ...error }) => error);

describe('imports', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let client: string;
  let otherClient: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    manager = await t.signIn('manager');
    const clients = await t.app.db.selectFrom('client').select('klient').orderBy('klient').execute();
    client = clients[0].klient;
    otherClient = clients[1].klient;
  }, 120_000);
  afterAll(async () => t?.close());

  type Options = RunOptions & { declaration?: string };
  const upload = (fileName: string, content: Buffer | string, options: Options = {}, token = admin) =>
    importRuns(t, admin).upload(options.declaration ?? 'car', fileName, content, options, token);
  const finished = (id: number) => importRuns(t, admin).finished(id);
  const runOf = (fileName: string, content: Buffer | string, options: Options = {}) =>
    importRuns(t, admin).runOf(options.declaration ?? 'car', fileName, content, options);
  const vin = (n: number) => `TESTVIN${String(n).padStart(10, '0')}`;
  const carByVin = (v: string) => t.app.db.selectFrom('car').selectAll().where('nrPodw', '=', v).executeTakeFirst();

  it('lists the declarations with their fields as the forms name them', async () => {
    const res = await t.call('GET', '/api/import/declarations', { token: admin });
    expect(res.statusCode).toBe(200);
    const car = res.json().find((d: { name: string }) => d.name === 'car');
    expect(car).toMatchObject({ key: ['nrPodw'], missing: ['keep', 'deactivate'], mapping: null });
    expect(car.fields.find((f: { name: string }) => f.name === 'rejestr')).toMatchObject({ label: 'Nr rejestracyjny', required: true, type: 'text' });
    expect(car.fields.find((f: { name: string }) => f.name === 'dataRej')).toMatchObject({ type: 'date', blank: 'keep' });
    expect((await t.call('GET', '/api/import/declarations', { token: manager })).statusCode).toBe(403);
  });

  it('names every field apart in the mapping: the insurance blocks\' fields by their section (OC, AC, NW, Assistance)', async () => {
    const declarations = (await t.call('GET', '/api/import/declarations', { token: admin })).json() as { name: string; fields: { name: string; label: string }[] }[];
    for (const decl of declarations) {
      const labels = decl.fields.map((f) => f.label);
      expect(new Set(labels).size, `${decl.name}: ${labels.join(', ')}`).toBe(labels.length);
    }
    const label = (name: string) => declarations.find((d) => d.name === 'car')!.fields.find((f) => f.name === name)!.label;
    expect([label('ocPolisa'), label('acDataDo'), label('nwFirma'), label('asDataOd')]).toEqual(['OC – Polisa', 'AC – Data do', 'NW – Firma', 'Assistance – Data od']);
    // a label no other field shares stays as the form says it
    expect([label('rejestr'), label('dataRej')]).toEqual(['Nr rejestracyjny', 'Data rejestracji']);
  });

  it('finds a reading\'s vehicle by every VIN heading the vehicles import knows ("Nr nadwozia" too)', async () => {
    for (const heading of ['VIN', 'Nr VIN', 'Numer nadwozia', 'Nr nadwozia']) {
      const csv = `${heading};Stan licznika;Data odczytu\nX;1;01.01.2025\n`;
      const res = await postMultipart(t, '/api/import/preview', admin, [{ name: 'declaration', value: 'mileage-reading' }, { name: 'file', filename: 'x.csv', content: csv }]);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().suggested, heading).toEqual({ [heading]: 'nrPodw', 'Stan licznika': 'licznik', 'Data odczytu': 'data' });
    }
  });

  it('imports vehicles from a Polish CSV (BOM, semicolons, DD.MM.RRRR), then a second run changes nothing', async () => {
    const csv = '\uFEFFVIN;Klient;Nr rejestracyjny;Marka;Rok produkcji;Data rejestracji;OC polisa;OC do\r\n'
      + `${vin(1)};${client};wi1001a;Škoda;2021;15.06.2021;POL/1;31.12.2027\r\n`
      + `${vin(2)};${client};WI1002A;Toyota;2020;01.02.2020;;\r\n`;
    const dry = await runOf('pojazdy.csv', csv, { mode: 'dryRun' });
    expect(dry).toMatchObject({ state: 'succeeded', counts: { new: 2, changed: 0, unchanged: 0, errors: 0 } });
    expect(await carByVin(vin(1))).toBeUndefined();

    const run = await runOf('pojazdy.csv', csv);
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: 2, changed: 0, unchanged: 0, deactivated: 0, errors: 0 }, unknownColumns: [] });
    expect(await carByVin(vin(1))).toMatchObject({ rejestr: 'WI1001A', marka: 'Škoda', rokProd: 2021, dataRej: '2021-06-15', ocPolisa: 'POL/1', ocDataDo: '2027-12-31', klientSymbol: client });

    const again = await runOf('pojazdy.csv', csv);
    expect(again).toMatchObject({ state: 'succeeded', counts: { new: 0, changed: 0, unchanged: 2, errors: 0 } });
  });

  it('reads Windows-1250 with commas, keeps a blank "keep" field and counts the changed row', async () => {
    const text = 'VIN,Klient,Nr rejestracyjny,Marka,Rok produkcji\n' + `${vin(2)},${client},WI1002A,Żuk Łódź,\n`;
    const run = await runOf('pojazdy-1250.csv', iconv.encode(text, 'win1250'));
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: 0, changed: 1, unchanged: 0, errors: 0 } });
    // the blank "Rok produkcji" keeps the year
    expect(await carByVin(vin(2))).toMatchObject({ marka: 'Żuk Łódź', rokProd: 2020 });
  });

  it('counts in a dry run exactly what the real run then writes: new, changed (a blank "keep" cell too), unchanged', async () => {
    const csv = 'VIN;Klient;Nr rejestracyjny;Marka;Rok produkcji\n'
      + `${vin(1)};${client};WI1001A;Škoda;2021\n` // as stored: unchanged
      + `${vin(2)};${client};WI1002A;Żuk Łódź;1999\n` // a new year: changed
      + `${vin(40)};${client};WI1040A;Fiat;\n` // new
      + `${vin(41)};${client};WI1041A;;2019\n`; // new
    const before = await carByVin(vin(2));
    const dry = await runOf('mieszany.csv', csv, { mode: 'dryRun' });
    expect(dry).toMatchObject({ state: 'succeeded', counts: { new: 2, changed: 1, unchanged: 1, deactivated: 0, errors: 0 } });
    expect(await carByVin(vin(40))).toBeUndefined();
    expect(await carByVin(vin(2))).toEqual(before);
    const real = await runOf('mieszany.csv', csv);
    expect(real.counts).toEqual(dry.counts);
    expect(await carByVin(vin(2))).toMatchObject({ rokProd: 1999 });
    expect(await runOf('mieszany.csv', csv, { mode: 'dryRun' })).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 4 } });
  });

  it('reads xlsx cell values (a formula by its result) and JSON lines through the API', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Pojazdy');
    sheet.addRow(['VIN', 'Klient', 'Nr rejestracyjny', 'Rok produkcji', 'Data rejestracji']);
    sheet.addRow([vin(3), client, 'WI1003A', { formula: '2000+22', result: 2022 }, new Date(Date.UTC(2022, 2, 1))]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const run = await runOf('pojazdy.xlsx', xlsx);
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: 1, errors: 0 } });
    expect(await carByVin(vin(3))).toMatchObject({ rokProd: 2022, dataRej: '2022-03-01' });

    const lines = `${JSON.stringify({ nrPodw: vin(4), klient: client, rejestr: 'WI1004A', rokProd: 2019 })}\n`;
    const nonce = makeNonce();
    const res = await t.app.inject({
      method: 'POST', url: '/api/import/runs?declaration=car&mode=import',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-ndjson', 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, lines) },
      payload: lines,
    });
    expect(res.statusCode, res.body).toBe(202);
    const jsonRun = await finished(res.json().id);
    expect(jsonRun, JSON.stringify(jsonRun)).toMatchObject({ state: 'succeeded', counts: { new: 1 } });
  });

  it('answers each bad row in Polish with its row number and the column as the file names it; nothing is written', async () => {
    const csv = 'VIN;Klient;Nr rejestracyjny;Rok produkcji;Data rejestracji;Kolor\n'
      + `${vin(10)};${client};WI1010A;dwa tysiące;31.02.2020;czerwony\n` // row 2: not a number, no such date
      + `${vin(11)};NIEMA;WI1011A;2020;;\n` // row 3: no such client
      + `${vin(12)};${client};;2020;;\n` // row 4: required registration
      + `${vin(13)};${client};WI1013A;2020;;\n` // rows 5 and 6: the same key twice
      + `${vin(13)};${client};WI1013B;2020;;\n`
      + `${vin(14)};${client};WI1014A;2020;;\n`; // row 7: fine
    const run = await runOf('bledy.csv', csv);
    expect(run.state).toBe('failed');
    expect(run.message).toBe('Plik zawiera błędne wiersze (5) – nic nie zostało zapisane');
    expect(run.unknownColumns).toEqual(['Kolor']);
    expect(run.counts).toMatchObject({ errors: 5, new: 1 });
    // each error with the file's value beside it; a day that does not exist is said so (issue 49)
    expect(run.errors).toEqual(expect.arrayContaining([
      { row: 2, column: 'Rok produkcji', value: 'dwa tysiące', message: 'Niepoprawna liczba całkowita' },
      { row: 2, column: 'Data rejestracji', value: '31.02.2020', message: 'Taki dzień nie istnieje w kalendarzu' },
      { row: 3, column: 'Klient', value: 'NIEMA', message: 'Nie ma klienta o takim symbolu' },
      { row: 4, column: 'Nr rejestracyjny', value: '', message: 'Pole nie może być puste' },
      { row: 5, column: 'VIN', value: vin(13), message: 'Ten sam klucz występuje w wierszach 5, 6' },
      { row: 6, column: 'VIN', value: vin(13), message: 'Ten sam klucz występuje w wierszach 5, 6' },
    ]));
    expect(await carByVin(vin(14))).toBeUndefined();

    // chosen per run: the valid rows go in, the invalid ones come back as a file to fix
    const partial = await runOf('bledy.csv', csv, { onError: 'validRows' });
    expect(partial).toMatchObject({ state: 'succeeded', counts: { new: 1, errors: 5 } });
    expect(await carByVin(vin(14))).toBeDefined();
    const file = await t.call('GET', `/api/import/runs/${partial.id}/errors.xlsx`, { token: admin });
    expect(file.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(file.rawPayload as any);
    const rows = book.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0].slice(1)).toEqual(['Wiersz', 'VIN', 'Klient', 'Nr rejestracyjny', 'Rok produkcji', 'Data rejestracji', 'Kolor', 'Błąd']);
    expect(rows).toHaveLength(1 + 5);
    expect(String(rows[2].at(-1))).toContain('Klient: Nie ma klienta o takim symbolu');

    const page = await t.call('GET', `/api/import/runs/${partial.id}/errors?page=1&size=2`, { token: admin });
    expect(page.json()).toMatchObject({ total: 6, rows: [{ row: 2 }, { row: 2 }] });
  });

  it('refuses a key of another client\'s row instead of moving it', async () => {
    const csv = `VIN;Klient;Nr rejestracyjny\n${vin(1)};${otherClient};WI1001A\n`;
    const run = await runOf('inny.csv', csv);
    expect(run).toMatchObject({ state: 'failed', counts: { errors: 1 } });
    expect(run.errors).toEqual([{ row: 2, column: 'Klient', value: otherClient, message: 'Ten klucz należy do rekordu innego klienta – wiersz odrzucony' }]);
    expect(await carByVin(vin(1))).toMatchObject({ klientSymbol: client });
  });

  it('deactivates the vehicles a full file no longer names, when the run asks for it', async () => {
    const csv = `VIN;Klient;Nr rejestracyjny\n${vin(1)};${client};WI1001A\n`;
    const before = await t.app.db.selectFrom('car').select((eb) => eb.fn.countAll<string>().as('n')).where('klientSymbol', '=', client).where('pojStatus', 'is distinct from', 'Wycofany').executeTakeFirstOrThrow();
    const run = await runOf('pelny.csv', csv, { missing: 'deactivate', mode: 'dryRun' });
    expect(run.counts).toMatchObject({ unchanged: 1, deactivated: Number(before.n) - 1 });
    expect((await carByVin(vin(2)))?.pojStatus).not.toBe('Wycofany');
    const real = await runOf('pelny.csv', csv, { missing: 'deactivate' });
    expect(real.counts.deactivated).toBe(Number(before.n) - 1);
    expect(await carByVin(vin(2))).toMatchObject({ pojStatus: 'Wycofany' });
    expect(await carByVin(vin(1))).toBeDefined();
  });

  it('answers a file it cannot read: empty, not what its name says, no key column, wrong encoding', async () => {
    expect(await runOf('pusty.csv', '')).toMatchObject({ state: 'failed', message: 'Plik jest pusty' });
    expect(await runOf('udawany.xlsx', 'VIN;Klient\n1;2\n')).toMatchObject({ state: 'failed', message: 'Zawartość pliku nie odpowiada jego rozszerzeniu (xlsx)' });
    expect(await runOf('bezklucza.csv', 'Klient;Nr rejestracyjny\nX;Y\n')).toMatchObject({ state: 'failed', message: 'Brak kolumny klucza: VIN' });
    expect(await runOf('utf16.csv', Buffer.from('\uFEFFVIN;Klient\n', 'utf16le'))).toMatchObject({ state: 'failed', message: expect.stringContaining('nieznane kodowanie') });
    const res = await upload('plik.pdf', '%PDF-1.4');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0]).toMatchObject({ field: 'file', message: 'Nieobsługiwany format pliku (obsługiwane: CSV, Excel .xlsx, JSON z jednym rekordem w wierszu)' });
  });

  it('refuses a file over the configured limits with 413 and the limit in words', async () => {
    const config = t.app.config.bundle.config as { importMaxRows?: number };
    const saved = config.importMaxRows;
    config.importMaxRows = 2;
    try {
      const res = await upload('duzo.csv', `VIN;Klient;Nr rejestracyjny\n${[1, 2, 3].map((i) => `${vin(900 + i)};${client};X${i}`).join('\n')}\n`);
      expect(res.statusCode).toBe(413);
      expect(res.json().detail).toBe('Plik ma więcej niż 2 wierszy – to limit jednego importu');
    } finally {
      config.importMaxRows = saved;
    }
  });

  it('imports readings: the vehicle\'s odometer follows; future, lower and repeated readings are refused', async () => {
    const car = await carByVin(vin(1));
    const header = 'VIN;Stan licznika;Data odczytu;Stan paliwa\n';
    const csv = header + `${vin(1)};10 000;01.03.2025 08:00;40,5\n${vin(1)};12 500;01.04.2025;\n`;
    const run = await runOf('odczyty.csv', csv, { declaration: 'mileage-reading' });
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 0 } });
    expect(await carByVin(vin(1))).toMatchObject({ aktStanLicz: 12500, aktDataLicz: '2025-04-01' });
    const readings = await t.app.db.selectFrom('mileage_reading').select(['licznik', 'palStan']).where('pojazdId', '=', car!.pojazdId).orderBy('data').execute();
    expect(readings.map((r) => [r.licznik, r.palStan === null ? null : Number(r.palStan)])).toEqual([[10000, 40.5], [12500, null]]);

    const again = await runOf('odczyty.csv', csv, { declaration: 'mileage-reading' });
    expect(again).toMatchObject({ state: 'succeeded', counts: { new: 0, changed: 0, unchanged: 2 } });

    const bad = header + `${vin(1)};11 000;02.04.2025;\n${vin(1)};13 000;01.01.2099;\nNIEMAVIN;1;01.01.2025;\n`;
    const refused = await runOf('zle-odczyty.csv', bad, { declaration: 'mileage-reading' });
    expect(refused.state).toBe('failed');
    expect(withoutValues(refused.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'Stan licznika', message: 'Stan licznika nie może być mniejszy niż ostatni odczyt pojazdu (12500 km)' },
      { row: 3, column: 'Data odczytu', message: 'Data odczytu nie może być z przyszłości' },
      { row: 4, column: 'VIN', message: 'Nie znaleziono pojazdu o takim VIN ani numerze rejestracyjnym' },
    ]));
    expect(await carByVin(vin(1))).toMatchObject({ aktStanLicz: 12500 });
  });

  it('answers the same run for a repeated Idempotency-Key, and lists the runs', async () => {
    const csv = `VIN;Klient;Nr rejestracyjny\n${vin(1)};${client};WI1001A\n`;
    const send = () => t.app.inject(idempotent(csv, 'klucz-1'));
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(202);
    expect(second.json().id).toBe(first.json().id);
    await finished(first.json().id);
    const list = await t.call('GET', '/api/import/runs?page=1&size=5', { token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().rows[0]).toMatchObject({ id: first.json().id, createdBy: { name: 'admin' }, declaration: 'car', fileName: 'idem.csv' });
  });

  function idempotent(csv: string, key: string) {
    const boundary = '----importidem';
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="declaration"\r\n\r\ncar\r\n`
      + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="idem.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    );
    const nonce = makeNonce();
    return {
      method: 'POST' as const, url: '/api/import/runs', payload: body,
      headers: { authorization: `Bearer ${admin}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'idempotency-key': key, 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, body) },
    };
  }

  it('gathers the table\'s statistics in the run that adds much of it, so the others\' plans see its rows when they appear', async () => {
    // the planner's count of the vehicles before, and a file that adds more than autovacuum's 50 + 10 % of them
    const planned = async () => Number((await sql<{ n: string }>`select reltuples::bigint::text as n from pg_class where oid = 'car'::regclass`.execute(t.app.db)).rows[0].n);
    const before = await planned();
    const stored = Number((await t.app.db.selectFrom('car').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const added = 60 + Math.ceil(stored / 10);
    const lines = Array.from({ length: added }, (_, i) => `${vin(5000 + i)};${otherClient};ST${String(i).padStart(5, '0')}`);
    const run = await runOf('duzo.csv', `VIN;Klient;Nr rejestracyjny\n${lines.join('\n')}\n`);
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: added, errors: 0 } });
    // ANALYZE reads a table this small whole: the planner now knows every row, the new ones with them
    expect(before).not.toBe(stored + added);
    expect(await planned()).toBe(stored + added);
  });

  it('previews the head of a file with the suggested mapping, and remembers a mapping per variant', async () => {
    const csv = 'Nr VIN;Tablica;Klient;Coś\nA;B;C;D\n';
    const res = await postMultipart(t, '/api/import/preview', admin, [{ name: 'declaration', value: 'car' }, { name: 'file', filename: 'x.csv', content: csv }]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ encoding: 'utf-8', delimiter: ';', columns: ['Nr VIN', 'Tablica', 'Klient', 'Coś'], sample: [['A', 'B', 'C', 'D']],
      suggested: { 'Nr VIN': 'nrPodw', Tablica: null, Klient: 'klient', 'Coś': null }, unknownColumns: ['Tablica', 'Coś'] });
    const saved = await t.call('PUT', '/api/import/declarations/car/mapping', { token: admin, body: { mapping: { Tablica: 'rejestr' } } });
    expect(saved.statusCode).toBe(200);
    const decl = (await t.call('GET', '/api/import/declarations', { token: admin })).json().find((d: { name: string }) => d.name === 'car');
    expect(decl.mapping).toEqual({ Tablica: 'rejestr' });
    expect((await t.call('PUT', '/api/import/declarations/car/mapping', { token: admin, body: { mapping: { Tablica: 'nieMa' } } })).statusCode).toBe(400);
  });

  it('fails a run whose process died, saying so, with nothing of it written', async () => {
    // a run left "running" with no connection holding its declaration's lock: its process is gone,
    // and its transaction with it (on PGlite, one process: found at the next start)
    const { id } = await t.app.db.insertInto('import_run').values({
      declaration: 'car', variant: 'default', fileName: 'przerwany.csv', format: 'csv', mode: 'import', onError: 'allOrNothing', missing: 'keep',
      state: 'running', actor: 'user:1', createdByName: 'admin', startedAt: new Date(),
    }).returning('id').executeTakeFirstOrThrow();
    await t.app.imports.recover(true);
    const run = (await t.call('GET', `/api/import/runs/${id}`, { token: admin })).json();
    expect(run).toMatchObject({ state: 'failed', message: 'Import przerwany przez restart serwera – nic nie zostało zapisane. Uruchom go ponownie.' });
  });
});
