/**
 * What the fleet costs, data in (issue 46): fuel transactions from two card issuers' exports
 * (different headings and order, decimal commas, Windows-1250), matched by the issuer's own number
 * under the card; the vehicle typed in, else the card's; invoice lines per vehicle; tank capacity
 * and fuel type through the vehicle import. Bad rows answered in Polish, nothing written.
 */
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRuns } from '../support/imports.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('fuel transactions and invoice lines by import', () => {
  let t: TestApp;
  let admin: string;
  const cp1250 = (lines: string[]) => iconv.encode(`${lines.join('\r\n')}\r\n`, 'win1250');
  const runOf: ReturnType<typeof importRuns>['runOf'] = (...args) => importRuns(t, admin).runOf(...args);
  let card: { nrKarty: string; pojazdId: number | null; klientSymbol: string };
  let otherCar: { rejestr: string | null; pojazdId: number };
  let foreignCar: { rejestr: string | null };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    card = await t.app.db.selectFrom('fuel_card').select(['nrKarty', 'pojazdId', 'klientSymbol']).where('nrKarty', '=', '7077000000000001').executeTakeFirstOrThrow();
    otherCar = await t.app.db.selectFrom('car').select(['rejestr', 'pojazdId']).where('klientSymbol', '=', card.klientSymbol)
      .where('pojazdId', '<>', card.pojazdId!).orderBy('pojazdId').executeTakeFirstOrThrow();
    foreignCar = await t.app.db.selectFrom('car').select(['rejestr']).where('klientSymbol', '<>', card.klientSymbol).orderBy('pojazdId').executeTakeFirstOrThrow();
  }, 120_000);
  afterAll(async () => t?.close());

  const transactions = () => t.app.db.selectFrom('fuel_transaction').selectAll().where('nrTransakcji', 'like', 'IMP-%').orderBy('nrTransakcji').execute();

  it('format A (Orlen-like): decimal commas, Windows-1250; the vehicle is the card\'s unless typed in; the same file twice changes nothing', async () => {
    const csv = cp1250([
      'Nr transakcji;Data transakcji;Nr karty;Nr rejestracyjny;Stacja;Produkt;Ilość;Cena jednostkowa;Wartość netto;Wartość brutto;Stan licznika',
      `IMP-A1;03.11.2026 07:15;${card.nrKarty};;ORLEN Łódź;ON;41,25;6,05;249,56;306,96;88100`,
      `IMP-A2;04.11.2026 18:02;${card.nrKarty};${otherCar.rejestr};ORLEN Żyrardów;AdBlue;5;3,10;15,50;19,07;`,
    ]);
    expect(await runOf('fuel-orlen', 'orlen.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 2, errors: 0 } });
    const rows = await transactions();
    expect(rows.map((r) => [r.nrTransakcji, r.pojazdId, Number(r.litry), Number(r.netto), r.stacja, r.licznik])).toEqual([
      ['IMP-A1', card.pojazdId, 41.25, 249.56, 'ORLEN Łódź', 88100],
      ['IMP-A2', otherCar.pojazdId, 5, 15.5, 'ORLEN Żyrardów', null],
    ]);
    expect(await runOf('fuel-orlen', 'orlen.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 0, changed: 0, unchanged: 2, errors: 0 } });
    expect(await transactions()).toHaveLength(2);
  });

  it('format B (BP-like): other headings in another order give the same rows', async () => {
    const csv = cp1250([
      'Numer karty;Data i godzina;Towar;Litry;Cena za litr;Kwota netto;Kwota brutto;Lokalizacja;ID transakcji;Przebieg',
      `${card.nrKarty};05.11.2026 09:30;ON;30,00;6,10;183,00;225,09;BP Kraków;IMP-B1;88400`,
    ]);
    expect(await runOf('fuel-bp', 'bp.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 1 } });
    expect((await transactions()).find((r) => r.nrTransakcji === 'IMP-B1')).toMatchObject({ pojazdId: card.pojazdId, produkt: 'ON', stacja: 'BP Kraków' });
  });

  it('refuses an unknown card, another client\'s vehicle, a negative amount and a duplicate number, in Polish, writing nothing', async () => {
    const before = (await transactions()).length;
    const run = await runOf('fuel-orlen', 'zle.csv', cp1250([
      'Nr transakcji;Data transakcji;Nr karty;Nr rejestracyjny;Produkt;Wartość netto;Wartość brutto',
      'IMP-X1;06.11.2026 10:00;9999000000000000;;ON;10;12,30',
      `IMP-X2;06.11.2026 10:00;${card.nrKarty};${foreignCar.rejestr};ON;10;12,30`,
      `IMP-X3;06.11.2026 10:00;${card.nrKarty};;ON;-10;-12,30`,
      `IMP-X4;06.11.2026 10:00;${card.nrKarty};;ON;10;12,30`,
      `IMP-X4;06.11.2026 11:00;${card.nrKarty};;ON;11;13,53`,
    ]));
    expect(run.state).toBe('failed');
    const byRow = Object.fromEntries(run.errors.map((e: { row: number; column: string; message: string }) => [e.row, e]));
    expect(byRow[2]).toMatchObject({ column: 'Nr karty', message: expect.stringContaining('Nie ma karty paliwowej') });
    expect(byRow[3]).toMatchObject({ column: 'Nr rejestracyjny', message: expect.stringContaining('Nie znaleziono pojazdu') });
    expect(run.errors.filter((e: { row: number }) => e.row === 4).map((e: { column: string }) => e.column).sort()).toEqual(['Wartość brutto', 'Wartość netto']);
    expect(byRow[5].message).toContain('5, 6');
    expect(await transactions()).toHaveLength(before);
  });

  it('invoice lines: per vehicle, period and category of an existing invoice; a category not configured refused', async () => {
    const invoice = await t.app.db.selectFrom('invoice').select(['faktId', 'faktNrCaly']).where('klientSymbol', '=', card.klientSymbol).orderBy('faktId').executeTakeFirstOrThrow();
    const csv = cp1250([
      'Nr faktury;Nr rejestracyjny;Okres;Kategoria;Netto;VAT;Brutto',
      `${invoice.faktNrCaly};${otherCar.rejestr};01.10.2026;szkody;1000,00;230,00;1230,00`,
    ]);
    expect(await runOf('invoice-line', 'pozycje.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 1 } });
    expect(await runOf('invoice-line', 'pozycje.csv', csv)).toMatchObject({ state: 'succeeded', counts: { new: 0, unchanged: 1 } });
    const bad = await runOf('invoice-line', 'zle.csv', cp1250(['Nr faktury;Nr rejestracyjny;Okres;Kategoria;Netto;Brutto', `${invoice.faktNrCaly};${otherCar.rejestr};01.10.2026;kawa;1;1`]));
    expect(bad).toMatchObject({ state: 'failed', counts: { errors: 1 } });
    expect(bad.errors[0].column).toBe('Kategoria');
  });

  it('vehicles gain their tank capacity and fuel type through the vehicle import', async () => {
    const vin = (await t.app.db.selectFrom('car').select('nrPodw').where('pojazdId', '=', otherCar.pojazdId).executeTakeFirstOrThrow()).nrPodw;
    const run = await runOf('car', 'pojazdy.csv', cp1250(['VIN;Klient;Nr rejestracyjny;Pojemność zbiornika;Rodzaj paliwa', `${vin};${card.klientSymbol};${otherCar.rejestr};55,5;ON`]));
    expect(run).toMatchObject({ state: 'succeeded', counts: { changed: 1 } });
    expect(await t.app.db.selectFrom('v_car').select(['pojZbiornika', 'rodzajPaliwa']).where('pojazdId', '=', otherCar.pojazdId).executeTakeFirstOrThrow())
      .toMatchObject({ rodzajPaliwa: 'ON' });
  });
});
