/**
 * Imports of the remaining resources (issue 34): clients, employees, fuel cards, tyres, contracts
 * with their positions, assignments, invoices and their PDF files (from a zip and one by one).
 * Each from a Polish Windows-1250 CSV (`;`, DD.MM.RRRR, decimal comma); a second run changes
 * nothing; a bad row per rule is answered in Polish with its row and column; another client's row
 * is refused; what typing it in does follows (the vehicle's driver, contract and fuel card).
 * On PGlite by default, on PostgreSQL with DATABASE_URL.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRuns } from '../support/imports.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { zipOf } from '../support/zip.ts';

/** A run's errors without the file's values beside them (those are checked in imports.test.ts, issue 49). */
const withoutValues = (errors: { value?: string }[]) => errors.map(({ value: _value, ...error }) => error);

describe('imports of clients, employees, cards, tyres, contracts, assignments, invoices', () => {
  let t: TestApp;
  let admin: string;
  let A: string;
  let B: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    const clients = await t.app.db.selectFrom('client').select('klient').orderBy('klient').execute();
    A = clients[0].klient;
    B = clients[1].klient;
  }, 120_000);
  afterAll(async () => t?.close());

  const runs = () => importRuns(t, admin);
  const upload: ReturnType<typeof importRuns>['upload'] = (...args) => runs().upload(...args);
  const finished = (id: number) => runs().finished(id);
  const runOf: ReturnType<typeof importRuns>['runOf'] = (...args) => runs().runOf(...args);
  /** A Polish back office's CSV: Windows-1250, semicolons, CRLF. */
  const cp1250 = (lines: string[]) => iconv.encode(`${lines.join('\r\n')}\r\n`, 'win1250');
  const car = (vin: string) => t.app.db.selectFrom('car').selectAll().where('nrPodw', '=', vin).executeTakeFirstOrThrow();
  const OTHER_ROW = 'Ten klucz należy do rekordu innego klienta – wiersz odrzucony';

  async function keyFor(clients: string[], scopes: string[]) {
    const account = await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: `Import ${scopes.join(' ')} ${Math.random()}`, allClients: false, clients, scopes } });
    expect(account.statusCode, account.body).toBe(201);
    const made = await t.call('POST', `/api/integration-accounts/${account.json().id}/keys`, { token: admin, body: {} });
    expect(made.statusCode, made.body).toBe(201);
    return made.json().key as string;
  }

  it('vehicles to work with (the existing vehicle import)', async () => {
    const run = await runOf('car', 'pojazdy.csv', cp1250([
      'VIN;Klient;Nr rejestracyjny', `MOREVIN0000000001;${A};MV1001A`, `MOREVIN0000000002;${A};MV1002A`, `MOREVIN0000000003;${B};MV1003B`,
    ]));
    expect(run).toMatchObject({ state: 'succeeded', counts: { new: 3 } });
  });

  it('offers every declaration to the screen and as a key scope', async () => {
    const names = (await t.call('GET', '/api/import/declarations', { token: admin })).json().map((d: { name: string }) => d.name);
    expect(names).toEqual(expect.arrayContaining(['car', 'mileage-reading', 'client', 'unit', 'employee', 'contract', 'fuel-card', 'tire', 'assignment', 'invoice', 'invoice-file']));
    const scopes = (await t.call('GET', '/api/integration-accounts/scopes', { token: admin })).json();
    const values = JSON.stringify(scopes);
    for (const name of ['client', 'unit', 'employee', 'contract', 'fuel-card', 'tire', 'assignment', 'invoice', 'invoice-file']) expect(values).toContain(`import:${name}`);
  });

  it('clients: created from a Windows-1250 CSV, unchanged the second time, a blank name refused, another client refused for a key', async () => {
    const csv = cp1250(['Symbol klienta;Nazwa klienta;NIP;Miejscowość', 'IMPKL1;Łódzka Flota sp. z o.o.;7251234567;Łódź', 'IMPKL2;Żagle Gdańsk S.A.;;Gdańsk']);
    expect(await runOf('client', 'klienci.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 2, changed: 0, errors: 0 } });
    expect(await t.app.db.selectFrom('client').selectAll().where('klient', '=', 'IMPKL1').executeTakeFirst()).toMatchObject({ klientNazwa: 'Łódzka Flota sp. z o.o.', miejscow: 'Łódź' });
    expect(await runOf('client', 'klienci.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 0, changed: 0, unchanged: 2 } });

    const bad = await runOf('client', 'zli.csv', cp1250(['Symbol klienta;Nazwa klienta', 'IMPKL3;', 'IMPKL4;Dobra']));
    expect(bad).toMatchObject({ state: 'failed', counts: { errors: 1 } });
    expect(withoutValues(bad.errors)).toEqual([{ row: 2, column: 'Nazwa klienta', message: 'Pole nie może być puste' }]);

    const key = await keyFor([A], ['import:client']);
    const refused = await runOf('client', 'inny.csv', cp1250(['Symbol klienta;Nazwa klienta', `${B};Cudzy`]), {}, key);
    expect(withoutValues(refused.errors), JSON.stringify(refused)).toEqual([{ row: 2, column: 'Symbol klienta', message: 'Klucz nie obejmuje tego klienta' }]);
  });

  it('organisational units: a tree whose parents are new in the same file (listed after their children), levels computed; a cycle, an unknown parent and a parent in error refused', async () => {
    const header = 'Kod jednostki;Klient;Nazwa jednostki;Kod jednostki nadrzędnej';
    const csv = cp1250([header, `IMP-HR-WAW;${A};Kadry Warszawa;IMP-HR`, `IMP-HR;${A};Kadry;IMP-ROOT`, `IMP-ROOT;${A};Centrala – Łódź;`]);
    expect(await runOf('unit', 'jednostki.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 3, changed: 0, errors: 0 } });
    const units = await t.app.db.selectFrom('unit as u').leftJoin('unit as p', 'p.jednId', 'u.parentId').select(['u.kod', 'u.nazwa', 'u.poziom', 'p.kod as parent'])
      .where('u.klient', '=', A).where('u.kod', 'like', 'IMP-%').orderBy('u.poziom').execute();
    expect(units).toEqual([
      { kod: 'IMP-ROOT', nazwa: 'Centrala – Łódź', poziom: 1, parent: null },
      { kod: 'IMP-HR', nazwa: 'Kadry', poziom: 2, parent: 'IMP-ROOT' },
      { kod: 'IMP-HR-WAW', nazwa: 'Kadry Warszawa', poziom: 3, parent: 'IMP-HR' },
    ]);
    expect(await runOf('unit', 'jednostki.csv', csv)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 3 } });
    // an employee of the deepest unit has the whole path as its levels
    const employee = await runOf('employee', 'kadry.csv', cp1250(['Nr pracownika;Klient;Nazwisko;Imię;Kod jednostki', `IMP09;${A};Wiśniewska;Ola;IMP-HR-WAW`]));
    expect(employee).toMatchObject({ state: 'succeeded', counts: { new: 1 } });
    expect(await t.app.db.selectFrom('employee').select(['stru1', 'stru2', 'stru3', 'stru4']).where('nrPrac', '=', 'IMP09').where('klient', '=', A).executeTakeFirst())
      .toEqual({ stru1: 'Centrala – Łódź', stru2: 'Kadry', stru3: 'Kadry Warszawa', stru4: null });

    const bad = await runOf('unit', 'zle.csv', cp1250([header, `IMP-C1;${A};Pierwsza;IMP-C2`, `IMP-C2;${A};Druga;IMP-C1`, `IMP-X;${A};Bez rodzica;IMP-NIEMA`, `IMP-P;${A};Rodzic;IMP-NIEMA`, `IMP-D;${A};Dziecko;IMP-P`, `IMP-Q;${A};;`]));
    expect(bad.state).toBe('failed');
    expect(withoutValues(bad.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'Kod jednostki nadrzędnej', message: 'Jednostki nadrzędnej nie da się umieścić w strukturze (cykl albo więcej niż 8 poziomów)' },
      { row: 3, column: 'Kod jednostki nadrzędnej', message: 'Jednostki nadrzędnej nie da się umieścić w strukturze (cykl albo więcej niż 8 poziomów)' },
      { row: 4, column: 'Kod jednostki nadrzędnej', message: 'Nie znaleziono jednostki nadrzędnej o takim kodzie u tego klienta' },
      { row: 5, column: 'Kod jednostki nadrzędnej', message: 'Nie znaleziono jednostki nadrzędnej o takim kodzie u tego klienta' },
      { row: 6, column: 'Kod jednostki nadrzędnej', message: 'Wiersz jednostki nadrzędnej ma błędy' },
      { row: 7, column: 'Nazwa jednostki', message: 'Pole nie może być puste' },
    ]));
  });

  it('employees: by nrPrac within their client; the form\'s messages; a key of client A cannot write client B\'s', async () => {
    const csv = cp1250(['Nr pracownika;Klient;Nazwisko;Imię;E-mail;Kod pocztowy', `IMP01;${A};Żółkiewski;Łucja;l.z@example.pl;00-950`, `IMP02;${A};Nowak;Jan;;`]);
    const first = await runOf('employee', 'kierowcy.csv', csv);
    expect(first, first.message).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 0 } });
    expect(await t.app.db.selectFrom('employee').selectAll().where('nrPrac', '=', 'IMP01').executeTakeFirst()).toMatchObject({ klient: A, nazwisko: 'Żółkiewski', imie: 'Łucja', kodPoczt: '00-950' });
    expect(await runOf('employee', 'kierowcy.csv', csv)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 2 } });
    // the same number at another client is another person
    expect(await runOf('employee', 'b.csv', cp1250(['Nr pracownika;Klient;Nazwisko;Imię', `IMP01;${B};Inny;Adam`]))).toMatchObject({ counts: { new: 1 } });

    const bad = await runOf('employee', 'zli.csv', cp1250(['Nr pracownika;Klient;Nazwisko;Imię;E-mail;Kod pocztowy;Kod jednostki', `IMP03;${A};Kowal;Ewa;nie-mail;123;`, `IMP04;${A};;Piotr;;;`, `IMP05;${A};Lis;Ala;;;NIEMA`]));
    expect(bad.state).toBe('failed');
    expect(withoutValues(bad.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'E-mail', message: 'Niepoprawny adres email' },
      { row: 2, column: 'Kod pocztowy', message: 'Niepoprawny format' },
      { row: 3, column: 'Nazwisko', message: 'Pole nie może być puste' },
      { row: 4, column: 'Kod jednostki', message: 'Nie znaleziono jednostki organizacyjnej' },
    ]));

    // the unit by its code: the employee's organisational levels are the unit's path, as the form sets them
    const unit = await t.app.db.selectFrom('unit as u').innerJoin('unit as p', 'p.jednId', 'u.parentId')
      .select(['u.jednId', 'u.kod', 'u.nazwa', 'p.nazwa as parentNazwa', 'p.parentId as grandParent'])
      .where('u.klient', '=', A).where('u.kod', 'is not', null).where('u.poziom', '=', 2).executeTakeFirstOrThrow();
    const moved = await runOf('employee', 'jednostki.csv', cp1250(['Nr pracownika;Klient;Nazwisko;Imię;Kod jednostki', `IMP02;${A};Nowak;Jan;${unit.kod}`]));
    expect(moved).toMatchObject({ state: 'succeeded', counts: { changed: 1 } });
    expect(await t.app.db.selectFrom('employee').select(['jednId', 'stru1', 'stru2', 'stru3']).where('nrPrac', '=', 'IMP02').where('klient', '=', A).executeTakeFirst())
      .toEqual({ jednId: unit.jednId, stru1: unit.parentNazwa, stru2: unit.nazwa, stru3: null });
    expect(await runOf('employee', 'jednostki.csv', cp1250(['Nr pracownika;Klient;Nazwisko;Imię;Kod jednostki', `IMP02;${A};Nowak;Jan;${unit.kod}`]))).toMatchObject({ counts: { changed: 0, unchanged: 1 } });

    const key = await keyFor([A], ['import:employee']);
    const refused = await runOf('employee', 'cudzy.csv', cp1250(['Nr pracownika;Klient;Nazwisko;Imię', `IMP01;${B};Zmieniony;Adam`]), {}, key);
    expect(withoutValues(refused.errors)).toEqual([{ row: 2, column: 'Klient', message: 'Nie ma klienta o takim symbolu' }]);
    expect(await t.app.db.selectFrom('employee').select('nazwisko').where('nrPrac', '=', 'IMP01').where('klient', '=', B).executeTakeFirst()).toEqual({ nazwisko: 'Inny' });
  });

  it('fuel cards: by card number; the vehicle shows its card (a reminder reads it); missing cards cancelled when asked', async () => {
    const csv = cp1250(['Nr karty;Klient;VIN;Nr pracownika;Wystawca;Ważna do;Status;Limit miesięczny',
      `IMPCARD01;${A};MOREVIN0000000001;IMP01;ORLEN S.A.;31.12.2027;Aktywna;1 500,50`, `IMPCARD02;${A};MOREVIN0000000002;;BP;30.06.2027;Aktywna;`]);
    expect(await runOf('fuel-card', 'karty.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 0 } });
    const card = await t.app.db.selectFrom('fuel_card').selectAll().where('nrKarty', '=', 'IMPCARD01').executeTakeFirstOrThrow();
    expect(Number(card.limWaMiePal)).toBe(1500.5);
    expect(card.dataDo).toBe('2027-12-31');
    expect(await car('MOREVIN0000000001')).toMatchObject({ kpalNrKarty: 'IMPCARD01', kpalFirma: 'ORLEN S.A.', kpalDataDo: '2027-12-31' });
    expect(await runOf('fuel-card', 'karty.csv', csv)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 2 } });

    const bad = await runOf('fuel-card', 'zle.csv', cp1250(['Nr karty;Klient;VIN;Limit miesięczny', `IMPCARD03;${A};NIEMAVIN;`, `IMPCARD04;${A};MOREVIN0000000003;`, `IMPCARD01;${B};;`, `IMPCARD05;${A};;abc`]));
    expect(withoutValues(bad.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'VIN', message: 'Nie znaleziono pojazdu o takim VIN ani numerze rejestracyjnym' },
      { row: 5, column: 'Limit miesięczny', message: 'Niepoprawna liczba' },
      // a vehicle of another client is not found for this client's card
      { row: 3, column: 'VIN', message: 'Nie znaleziono pojazdu o takim VIN ani numerze rejestracyjnym' },
      { row: 4, column: 'Klient', message: OTHER_ROW },
    ]));

    const full = cp1250(['Nr karty;Klient;VIN', `IMPCARD02;${A};MOREVIN0000000002`]);
    const cancelled = await runOf('fuel-card', 'pelny.csv', full, { missing: 'deactivate' });
    expect(cancelled.counts.deactivated).toBeGreaterThanOrEqual(1);
    expect(await t.app.db.selectFrom('fuel_card').select('status').where('nrKarty', '=', 'IMPCARD01').executeTakeFirst()).toEqual({ status: 'Anulowana' });
    // the vehicle no longer shows the cancelled card
    expect((await car('MOREVIN0000000001')).kpalNrKarty).not.toBe('IMPCARD01');
  });

  it('tyres: by the back office\'s set number, tread with a decimal comma, the form\'s range refused', async () => {
    const csv = cp1250(['Nr kompletu;Klient;Nr rejestracyjny;Rodzaj;Marka;Rozmiar;Stan bieżnika;Data zmiany;Status',
      `OP-1;${A};MV1001A;Zimowe;Dębica;205/55 R16;6,5;15.10.2025;Na pojeździe`, `OP-2;${A};MV1001A;Letnie;Michelin;205/55 R16;7;;W magazynie`]);
    expect(await runOf('tire', 'opony.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 0 } });
    const tire = await t.app.db.selectFrom('tire').selectAll().where('nrOpony', '=', 'OP-1').executeTakeFirstOrThrow();
    expect(tire).toMatchObject({ klientSymbol: A, markaOp: 'Dębica', dataZmianyOp: '2025-10-15', pojazdId: (await car('MOREVIN0000000001')).pojazdId });
    expect(Number(tire.stanBieznika)).toBe(6.5);
    // the tyre table lists the set's number
    const table = await t.call('POST', '/api/tire/table', { token: admin, body: { startRow: 0, endRow: 100 } });
    expect(table.statusCode, table.body).toBe(200);
    expect(JSON.stringify(table.json())).toContain('"nrOpony":"OP-2"');
    expect(await runOf('tire', 'opony.csv', csv)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 2 } });
    const bad = await runOf('tire', 'zle.csv', cp1250(['Nr kompletu;Klient;Nr rejestracyjny;Stan bieżnika', `OP-3;${A};MV1001A;11`, `OP-4;${A};MV1003B;5`]));
    expect(withoutValues(bad.errors)).toEqual([
      { row: 2, column: 'Stan bieżnika', message: 'Pole musi być mniejsze równe 10' },
      // another client's vehicle is not found for this client's tyres
      { row: 3, column: 'Nr rejestracyjny', message: 'Nie znaleziono pojazdu o takim VIN ani numerze rejestracyjnym' },
    ]);
  });

  it('contracts with their positions: written, unchanged the second time, a changed instalment is one changed contract; the vehicle shows its contract', async () => {
    const csv = cp1250(['Nr umowy;Klient;VIN;Data od;Data do;Limit km;Rata;Serwis;Ubezpieczenie',
      `UM/IMP/1;${A};MOREVIN0000000001;01.01.2025;31.12.2028;120 000;1 234,56;150;89,90`]);
    expect(await runOf('contract', 'umowy.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 1, errors: 0 } });
    const contract = await t.app.db.selectFrom('contract').selectAll().where('umowaNr', '=', 'UM/IMP/1').executeTakeFirstOrThrow();
    expect(contract).toMatchObject({ klientSymbol: A, dataOd: '2025-01-01', dataDo: '2028-12-31', limitKmOgol: 120000 });
    const positions = async () => (await t.app.db.selectFrom('contract_position').select(['rodzaj', 'tresc', 'ile']).where('kontraktId', '=', contract.kontraktId).orderBy('rodzaj').execute())
      .map((p) => [p.rodzaj, p.tresc, Number(p.ile)]);
    expect(await positions()).toEqual([['RATA', 'Rata leasingowa', 1234.56], ['SERW', 'Serwis', 150], ['UBEZ', 'Ubezpieczenie', 89.9]]);
    expect(await car('MOREVIN0000000001')).toMatchObject({ kontrKontraktNr: 'UM/IMP/1', kontrDataDo: '2028-12-31', kontrLimitKmOgol: 120000 });

    expect(await runOf('contract', 'umowy.csv', csv)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 1 } });
    const newRate = cp1250(['Nr umowy;Klient;VIN;Rata', `UM/IMP/1;${A};MOREVIN0000000001;1 300,00`]);
    expect(await runOf('contract', 'rata.csv', newRate)).toMatchObject({ counts: { new: 0, changed: 1, unchanged: 0 } });
    expect(await positions()).toEqual([['RATA', 'Rata leasingowa', 1300], ['SERW', 'Serwis', 150], ['UBEZ', 'Ubezpieczenie', 89.9]]);

    const bad = await runOf('contract', 'zle.csv', cp1250(['Nr umowy;Klient;VIN;Data od;Data do;Rata', `UM/IMP/2;${A};MOREVIN0000000002;01.01.2026;31.12.2025;x`, `UM/IMP/3;${A};MOREVIN0000000003;;;`]));
    expect(bad.state).toBe('failed');
    expect(withoutValues(bad.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'Rata', message: 'Niepoprawna liczba' },
      { row: 3, column: 'VIN', message: 'Nie znaleziono pojazdu o takim VIN ani numerze rejestracyjnym' },
    ]));
    const dates = await runOf('contract', 'daty.csv', cp1250(['Nr umowy;Klient;VIN;Data od;Data do', `UM/IMP/2;${A};MOREVIN0000000002;01.01.2026;31.12.2025`]));
    expect(withoutValues(dates.errors)).toEqual([{ row: 2, column: 'Data do', message: 'Data do nie może być wcześniejsza niż data od' }]);
    expect(await t.app.db.selectFrom('contract').select('kontraktId').where('umowaNr', '=', 'UM/IMP/2').executeTakeFirst()).toBeUndefined();
  });

  it('assignments: a handover makes the driver the vehicle\'s user, a return closes it; the forms\' rules refused per row', async () => {
    const handover = cp1250(['Klient;VIN;Nr pracownika;Data wydania;Licznik przy wydaniu;Wydał', `${A};MOREVIN0000000002;IMP02;01.03.2025 08:00;12 000;Jan Wydający`]);
    expect(await runOf('assignment', 'wydania.csv', handover)).toMatchObject({ state: 'succeeded', counts: { new: 1, errors: 0 } });
    const employee = await t.app.db.selectFrom('employee').select('pracId').where('nrPrac', '=', 'IMP02').where('klient', '=', A).executeTakeFirstOrThrow();
    expect(await car('MOREVIN0000000002')).toMatchObject({ pracId: employee.pracId, czyWydany: true, dataWyd: '2025-03-01' });
    expect(await runOf('assignment', 'wydania.csv', handover)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 1 } });

    const twoOpen = await runOf('assignment', 'dwa.csv', cp1250(['Klient;VIN;Nr pracownika;Data wydania', `${A};MOREVIN0000000002;IMP01;05.03.2025`]));
    expect(withoutValues(twoOpen.errors)).toEqual([{ row: 2, column: 'Data zdania', message: 'Pojazd byłby wydany dwa razy naraz – najpierw musi zostać zdany' }]);

    const bad = await runOf('assignment', 'zle.csv', cp1250(['Klient;VIN;Nr pracownika;Data wydania;Data zdania;Licznik przy wydaniu;Licznik przy zdaniu',
      `${A};MOREVIN0000000002;IMP02;01.03.2025 08:00;28.02.2025;12 000;11 000`, `${A};MOREVIN0000000001;NIEMA;01.01.2025;;;`]));
    expect(withoutValues(bad.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'Data zdania', message: 'Data zdania nie może być wcześniejsza niż data wydania' },
      { row: 2, column: 'Licznik przy zdaniu', message: 'Licznik przy zdaniu nie może być mniejszy niż przy wydaniu' },
      { row: 3, column: 'Nr pracownika', message: 'Nie znaleziono pracownika o takim numerze u tego klienta' },
    ]));

    const back = cp1250(['Klient;VIN;Nr pracownika;Data wydania;Data zdania;Licznik przy zdaniu;Odebrał', `${A};MOREVIN0000000002;IMP02;01.03.2025 08:00;20.03.2025 16:30;13 500;Anna Odbierająca`]);
    expect(await runOf('assignment', 'zdania.csv', back)).toMatchObject({ state: 'succeeded', counts: { new: 0, changed: 1 } });
    expect(await car('MOREVIN0000000002')).toMatchObject({ pracId: employee.pracId, czyWydany: false });
    const row = await t.app.db.selectFrom('vehicle_assignment').selectAll().where('pojazdId', '=', (await car('MOREVIN0000000002')).pojazdId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ licznikWy: 12000, licznikZd: 13500, opWydal: 'Jan Wydający', opOdebral: 'Anna Odbierająca' });
  });

  it('invoices: by invoice number, amounts with decimal commas; a payment before the issue and another client\'s number refused', async () => {
    const csv = cp1250(['Nr faktury;Klient;Data wystawienia;Netto;VAT;Brutto;Data zapłaty',
      `FV/IMP/1;${A};10.01.2026;1 000,00;230,00;1 230,00;`, `FV/IMP/2;${A};11.01.2026;100,50;23,12;123,62;20.01.2026`]);
    expect(await runOf('invoice', 'faktury.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 0 } });
    const invoice = await t.app.db.selectFrom('invoice').selectAll().where('faktNrCaly', '=', 'FV/IMP/2').executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ klientSymbol: A, faktDataWyst: '2026-01-11', dataZap: '2026-01-20' });
    expect(Number(invoice.ogBrutto)).toBe(123.62);
    expect(await runOf('invoice', 'faktury.csv', csv)).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 2 } });
    const bad = await runOf('invoice', 'zle.csv', cp1250(['Nr faktury;Klient;Data wystawienia;Data zapłaty', `FV/IMP/3;${A};10.01.2026;01.01.2026`, `FV/IMP/1;${B};10.01.2026;`, `FV/IMP/4;${A};;`]));
    expect(withoutValues(bad.errors)).toEqual(expect.arrayContaining([
      { row: 2, column: 'Data zapłaty', message: 'Data zapłaty nie może być wcześniejsza niż data wystawienia' },
      { row: 3, column: 'Klient', message: OTHER_ROW },
      { row: 4, column: 'Data wystawienia', message: 'Pole nie może być puste' },
    ]));
  });

  const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n${'x'.repeat(3000)}\n%%EOF\n`, 'latin1');

  it('invoice files: PDFs from a zip by invoice number (an unknown number and a non-PDF refused per file), again unchanged, one by one, then downloadable', async () => {
    const zip = zipOf([
      { name: 'FV_IMP_1.pdf', content: pdf('faktura 1'), deflate: true },
      { name: 'faktury/FV_IMP_1_zalacznik.pdf', content: pdf('zalacznik 1') },
      { name: 'FV_NIEMA_9.pdf', content: pdf('nie ma') },
      { name: 'FV_IMP_2.pdf', content: 'to nie jest PDF' },
    ]);
    const strict = await runOf('invoice-file', 'pliki.zip', zip);
    expect(strict).toMatchObject({ state: 'failed', counts: { errors: 2 } });
    expect(withoutValues(strict.errors)).toEqual([
      { row: 3, column: 'FV_NIEMA_9.pdf', message: 'Nie ma faktury o numerze FV_NIEMA_9' },
      { row: 4, column: 'FV_IMP_2.pdf', message: 'Plik nie jest dokumentem PDF' },
    ]);
    const files = async (nr: string) => t.app.db.selectFrom('invoice_file').innerJoin('invoice', 'invoice.faktId', 'invoice_file.faktId')
      .select(['kind', 'filename', 'content']).where('faktNrCaly', '=', nr).orderBy('kind').execute();
    expect(await files('FV/IMP/1')).toEqual([]);

    const valid = await runOf('invoice-file', 'pliki.zip', zip, { onError: 'validRows' });
    expect(valid).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 2 } });
    const stored = await files('FV/IMP/1');
    expect(stored.map((f) => [f.kind, f.filename])).toEqual([['A', 'FV_IMP_1_zalacznik.pdf'], ['F', 'FV_IMP_1.pdf']]);
    expect(Buffer.from(stored[1].content).equals(pdf('faktura 1'))).toBe(true);
    expect(await runOf('invoice-file', 'pliki.zip', zip, { onError: 'validRows' })).toMatchObject({ counts: { new: 0, changed: 0, unchanged: 2 } });

    expect(await runOf('invoice-file', 'FV_IMP_2.pdf', pdf('faktura 2'))).toMatchObject({ state: 'succeeded', counts: { new: 1 } });
    const unknown = await runOf('invoice-file', 'FV_NIEMA_9.pdf', pdf('nie ma'));
    expect(unknown).toMatchObject({ state: 'failed', errors: [{ row: 1, column: 'FV_NIEMA_9.pdf', message: 'Nie ma faktury o numerze FV_NIEMA_9' }] });
    // a CSV is no file of an invoice
    const csv = await upload('invoice-file', 'faktury.csv', 'a;b\n');
    expect(csv.statusCode).toBe(400);
    expect(csv.json().errors[0].message).toBe('Ten import przyjmuje pliki PDF lub archiwum ZIP z plikami PDF');

    // the stored file is the invoice's file as the invoice screen opens it
    const invoice = await t.app.db.selectFrom('invoice').select('faktId').where('faktNrCaly', '=', 'FV/IMP/2').executeTakeFirstOrThrow();
    const link = await t.call('POST', '/api/invoice/download-link', { token: admin, body: { faktId: invoice.faktId } });
    expect(link.statusCode, link.body).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: `/api/invoice/f?id=${invoice.faktId}&token=${link.json().token}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toContain('application/pdf');
    expect(file.rawPayload.equals(pdf('faktura 2'))).toBe(true);
  });

  it('invoice files of another client are refused for a key limited to one client', async () => {
    const invoice = await runOf('invoice', 'b.csv', cp1250(['Nr faktury;Klient;Data wystawienia', `FV/IMP/B1;${B};10.01.2026`]));
    expect(invoice.counts.new).toBe(1);
    const key = await keyFor([A], ['import:invoice-file']);
    const res = await upload('invoice-file', 'FV_IMP_B1.pdf', pdf('cudza'), {}, key);
    expect(res.statusCode, res.body).toBe(202);
    const run = await finished(res.json().id);
    expect(withoutValues(run.errors)).toEqual([{ row: 1, column: 'FV_IMP_B1.pdf', message: 'Nie ma faktury o numerze FV_IMP_B1' }]);
  });
});
