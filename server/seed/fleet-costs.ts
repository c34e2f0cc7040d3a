/**
 * What the fleet costs (issue 46), for the Raporty screen of `manager` (client KL001): the demo
 * vehicles' tank and fuel, a card for each, half a year of fuel transactions, and the lines per
 * vehicle of the client's monthly invoices (seedInvoices writes one a month). Small on purpose:
 * the test snapshot is rebuilt from the seed. Two transactions are anomalies on purpose (a fill
 * over the tank, petrol in a diesel), so the Pulpit and the anomalies report have something to
 * show; the month of the fill over the tank also takes WZ12345's card over its 1800 zł limit.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompiledQuery, type Kysely } from 'kysely';
import type { FuelAnomaliesFile } from '../../runtime/core/generated/meta.ts';
import type { DB } from '../db/types.generated.ts';
import { findAnomalies } from '../anomalies/find.ts';
import type { ReportingDecl } from '../config/report-declaration.ts';
import { addDays, at } from './sql-util.ts';

const MONTHS = 6;

export async function seedFleetCosts(db: Kysely<DB>, today: string, vehicles: { WZ12345: number; WZ67890: number }, klient: string, root: string): Promise<void> {
  const wz = vehicles.WZ12345;
  const corolla = vehicles.WZ67890;
  await db.updateTable('car').set({ pojZbiornika: 50, rodzajPaliwa: 'ON' }).where('pojazdId', '=', wz).execute();
  await db.updateTable('car').set({ pojZbiornika: 43, rodzajPaliwa: 'PB95' }).where('pojazdId', '=', corolla).execute();
  const wzCard = await db.selectFrom('fuel_card').select('kartaId').where('pojazdId', '=', wz).executeTakeFirstOrThrow();
  const corollaCard = await db.insertInto('fuel_card').values({
    klientSymbol: klient, pojazdId: corolla, nrKarty: '7077000000000002', firma: 'ORLEN S.A.', dataOd: '2024-01-01',
    dataDo: addDays(today, 300), status: 'Aktywna', rodzKarty: 'Flotowa', pracPoja: 'Pojazd', limWaMiePal: 1200, katPal: 'PB95', prodPozaPal: 'T',
  }).returning('kartaId').executeTakeFirstOrThrow();

  // a fill every 6 days (WZ12345, diesel 6,05 zł/l net) and every 9 days (WZ67890, petrol 5,85 zł/l)
  const rows: { kartaId: number; nrTransakcji: string; pojazdId: number; data: string; stacja: string; produkt: string; litry: number; cenaJedn: number; netto: number; brutto: number }[] = [];
  const fill = (kartaId: number, pojazdId: number, no: string, day: string, produkt: string, litry: number, cena: number, stacja: string) => {
    const netto = Math.round(litry * cena * 100) / 100;
    rows.push({ kartaId, nrTransakcji: no, pojazdId, data: at(day, '07:40'), stacja, produkt, litry, cenaJedn: cena, netto, brutto: Math.round(netto * 123) / 100 });
  };
  for (let back = MONTHS * 30, i = 0; back > 1; back -= 6, i++) {
    fill(wzCard.kartaId, wz, `OF-${1000 + i}`, addDays(today, -back), 'ON', 38 + (i * 7) % 9, 6.05, 'ORLEN Warszawa, ul. Połczyńska 10');
  }
  for (let back = MONTHS * 30 - 3, i = 0; back > 1; back -= 9, i++) {
    fill(corollaCard.kartaId, corolla, `OF-${2000 + i}`, addDays(today, -back), 'PB95', 30 + (i * 5) % 8, 5.85, 'ORLEN Warszawa, al. Krakowska 200');
  }
  // the anomalies on purpose: 58 l into a 50 l tank, and petrol into the diesel; a car wash is no fuel at all
  fill(wzCard.kartaId, wz, 'OF-1900', addDays(today, -20), 'ON', 58, 6.05, 'ORLEN Radom, ul. Warszawska 5');
  fill(wzCard.kartaId, wz, 'OF-1901', addDays(today, -45), 'PB95', 20, 5.85, 'ORLEN Łódź, ul. Piotrkowska 300');
  fill(corollaCard.kartaId, corolla, 'OF-2900', addDays(today, -15), 'Myjnia', 0, 0, 'ORLEN Warszawa, al. Krakowska 200');
  rows[rows.length - 1].netto = 40.65;
  rows[rows.length - 1].brutto = 50;
  await db.insertInto('fuel_transaction').values(rows).execute();
  // the anomalies of these transactions, as an import finds them (the default configuration's rules),
  // already announced: a fresh demo sends nobody a notification about its own history
  const read = (file: string) => JSON.parse(readFileSync(join(root, file), 'utf8'));
  const rules = read('screens/fuel-anomalies.json') as FuelAnomaliesFile;
  const reporting = read('schemas/reporting/reporting.json') as ReportingDecl;
  const query = async (text: string) => {
    const result = await db.executeQuery(CompiledQuery.raw(text, []));
    return { rows: result.rows, rowCount: Number(result.numAffectedRows ?? 0) };
  };
  await findAnomalies(query, rules, reporting, '(select "transId" from fuel_transaction)', null);
  await db.updateTable('fuel_anomaly').set({ announcedAt: new Date() }).where('announcedAt', 'is', null).execute();

  // the client's invoice of each month carries each vehicle's lines of that month
  const invoices = await db.selectFrom('invoice').select(['faktId', 'faktDataWyst']).where('klientSymbol', '=', klient)
    .where('faktDataWyst', '>=', addDays(today, -MONTHS * 31)).orderBy('faktDataWyst').execute();
  const lines: { faktId: number; pojazdId: number; okres: string; kategoria: string; netto: number; vat: number; brutto: number }[] = [];
  const line = (faktId: number, pojazdId: number, okres: string, kategoria: string, netto: number) =>
    lines.push({ faktId, pojazdId, okres, kategoria, netto, vat: Math.round(netto * 23) / 100, brutto: Math.round(netto * 123) / 100 });
  const seen = new Set<string>();
  invoices.forEach((inv, i) => {
    const okres = `${String(inv.faktDataWyst).slice(0, 7)}-01`;
    if (seen.has(okres)) return;
    seen.add(okres);
    line(inv.faktId, wz, okres, 'leasing', 1890);
    line(inv.faktId, wz, okres, 'serwis', 240);
    line(inv.faktId, wz, okres, 'ubezpieczenie', 310);
    line(inv.faktId, corolla, okres, 'leasing', 1650);
    line(inv.faktId, corolla, okres, 'ubezpieczenie', 280);
    // the issuer's fuel re-invoiced by the lessor: the configuration counts fuel from the transactions only
    line(inv.faktId, wz, okres, 'paliwo', 1100);
    if (i % 3 === 1) line(inv.faktId, corolla, okres, 'serwis', 420 + i * 15);
    if (i === 2) line(inv.faktId, wz, okres, 'opony', 860);
  });
  if (lines.length) await db.insertInto('invoice_line').values(lines).execute();
}
