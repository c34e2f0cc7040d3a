/**
 * Reference data and the named demo records: the accounts people log in with, vehicle WZ12345
 * and everything around it. Written row by row (few rows, every value chosen on purpose) so that
 * the demo facts tests and manual testers rely on are visible here in one place.
 */
import type { Kysely } from 'kysely';
import { positionNet } from '../../runtime/core/order-values.ts';
import { hashPassword } from '../auth/password.ts';
import {
  CLIENTS, COMPANIES, DEPARTMENTS, MODELS, REGIONS, SERVICE_PLAN_ITEMS, STATIONS,
} from './data.ts';
import { tinyPdf } from './pdf.ts';
import { addDays, at, caseNumber } from './sql-util.ts';
import { seedTerms } from './terms.ts';
import type { DB } from '../db/types.generated.ts';

/** The demo accounts (spec: exactly these credentials). */
export const DEMO_ACCOUNTS = {
  admin: { login: 'admin', password: 'Admin123!', rola: 'ADMIN' },
  manager: { login: 'manager', password: 'Manager123!', rola: 'MANAGER' },
  manager2: { login: 'manager2', password: 'Manager123!', rola: 'MANAGER' },
  kierowca: { login: 'kierowca', password: 'Kierowca123!', rola: 'USER' },
  doradca: { login: 'doradca', password: 'Doradca123!', rola: 'ADVISOR' },
  /** First sign-in of a driver: terms not accepted yet, then the forced password change (WZ67890). */
  nowyKierowca: { login: 'nowy.kierowca', password: 'Start123!', rola: 'USER' },
  /** First sign-in of a manager who has accepted the terms: only the forced password change. */
  nowyManager: { login: 'nowy.manager', password: 'Start123!', rola: 'MANAGER' },
} as const;

/** Accounts that have not signed in yet: they change the password first and accept no terms in the seed. */
const FIRST_SIGN_IN: ReadonlySet<keyof typeof DEMO_ACCOUNTS> = new Set(['nowyKierowca']);

export const DEMO_VEHICLE = { rejestr: 'WZ12345', nrPodw: 'TMBAG7NE0L0000123' } as const;
/** A client-1 vehicle with every insurance field empty (the Polisy tab is disabled for it). */
export const UNINSURED_VEHICLE = { rejestr: 'WZ67890', nrPodw: 'SB1ZS3JE80E000456' } as const;

/** Level-3 units of all clients in client order (REGIONS × DEPARTMENTS each), for the bulk rows. */
export interface UnitLeaf { jednId: number; klient: string; stru1: string; stru2: string; stru3: string; mpk: string }

export interface DemoResult {
  leaves: UnitLeaf[];
  pojazdId: { WZ12345: number; WZ67890: number };
  kierowcaPracId: number;
  userIds: Record<keyof typeof DEMO_ACCOUNTS, number>;
}

/** Order statuses and intervention types come with migration 001; the seed adds service plans. */
export async function seedReference(db: Kysely<DB>): Promise<void> {
  const makes = [...new Set(MODELS.map((m) => m.marka))];
  await db.insertInto('service_plan')
    .values(makes.flatMap((marka) => SERVICE_PLAN_ITEMS.map((i) => ({ interw: 'PRZEGLAD', marka, ...i })))).execute();
}

async function seedOrganisation(db: Kysely<DB>): Promise<UnitLeaf[]> {
  const firmaIds = new Map<string, number>();
  for (const c of COMPANIES) {
    const row = await db.insertInto('company').values(c).returning('firmaId').executeTakeFirstOrThrow();
    firmaIds.set(c.firma, row.firmaId);
  }
  await db.insertInto('client').values(CLIENTS.map(({ klient, klientNazwa, nip, miejscow }) => ({ klient, klientNazwa, nip, miejscow }))).execute();
  await db.insertInto('service_station').values(STATIONS.map(({ firma, advisor: _advisor, ...s }) => ({ ...s, firmaId: firmaIds.get(firma) }))).execute();

  const leaves: UnitLeaf[] = [];
  for (const [ci, client] of CLIENTS.entries()) {
    const stru1 = `${client.klientNazwa.split(' ')[0]} — Centrala`;
    const root = await db.insertInto('unit').values({ klient: client.klient, nazwa: stru1, kod: `${client.klient}-C`, poziom: 1 })
      .returning('jednId').executeTakeFirstOrThrow();
    for (const [ri, region] of REGIONS.entries()) {
      const reg = await db.insertInto('unit').values({ klient: client.klient, nazwa: region, kod: `${client.klient}-R${ri + 1}`, poziom: 2, parentId: root.jednId })
        .returning('jednId').executeTakeFirstOrThrow();
      for (const [di, dept] of DEPARTMENTS.entries()) {
        const leaf = await db.insertInto('unit').values({ klient: client.klient, nazwa: dept, kod: `${client.klient}-R${ri + 1}-D${di + 1}`, poziom: 3, parentId: reg.jednId })
          .returning('jednId').executeTakeFirstOrThrow();
        leaves.push({ jednId: leaf.jednId, klient: client.klient, stru1, stru2: region, stru3: dept, mpk: `MPK-${ci + 1}${ri + 1}${di + 1}` });
      }
    }
  }
  return leaves;
}

export async function seedDemo(db: Kysely<DB>, today: string): Promise<DemoResult> {
  await seedReference(db);
  const leaves = await seedOrganisation(db);
  const [kl1, kl2] = CLIENTS;
  const leaf1 = leaves.find((l) => l.klient === kl1.klient)!;
  const yearAhead = addDays(today, 365);

  // The driver of WZ12345, and the employee behind the demo USER account.
  const kierowcaEmp = await db.insertInto('employee').values({
    klient: kl1.klient, nazwisko: 'Kowalski', imie: 'Jan', nrPrac: '000001', kodStan: 'Przedstawiciel handlowy',
    email: 'jan.kowalski@transbud.pl', telefon: '22 611 22 33', telefonKom: '+48 601 234 567', kodPoczt: '02-672',
    miejscow: 'Warszawa', ulica: 'ul. Domaniewska 39', dataJednOd: '2021-03-01', jednId: leaf1.jednId, mpk: leaf1.mpk,
    stru1: leaf1.stru1, stru2: leaf1.stru2, stru3: leaf1.stru3,
  }).returning('pracId').executeTakeFirstOrThrow();

  const octavia = MODELS.find((m) => m.modelOpis === 'Octavia')!;
  const corolla = MODELS.find((m) => m.modelOpis === 'Corolla')!;
  const contractNo = 'UM/2023/000001';
  const wz = await db.insertInto('car').values({
    klientSymbol: kl1.klient, pracId: kierowcaEmp.pracId, stacjaSerw: 'SS01',
    rejestr: DEMO_VEHICLE.rejestr, nrPodw: DEMO_VEHICLE.nrPodw, marka: octavia.marka, markaOpis: octavia.markaOpis,
    modelOpis: octavia.modelOpis, rokProd: 2020, pojStatus: 'Aktywny', grupa: 'Osobowe', kategoria: 'B', dataRej: '2020-06-15',
    aktStanLicz: 87450, aktDataLicz: addDays(today, -5), stanPal: 38, dataPrzeg: addDays(today, 120),
    otOstatData: addDays(today, -200), otOstatKm: 75000, otDoDaty: addDays(today, 165), otDoKm: 105000,
    serwisWFirmie: 'N', czyWydany: true, dataWyd: '2023-07-01', planLikData: '2027-06-30', planLikLicznik: 160000, zapasPrzekr: 2500,
    ocPolisa: 'OC/2025/4471203', ocDataOd: addDays(today, -100), ocDataDo: addDays(today, 264), ocFirma: 'PZU SA', ocKolor: 'green',
    acPolisa: 'AC/2025/4471204', acDataOd: addDays(today, -100), acDataDo: addDays(today, 264), acFirma: 'PZU SA', acKolor: 'green',
    nwPolisa: 'NW/2025/4471205', nwDataOd: addDays(today, -100), nwDataDo: addDays(today, 20), nwFirma: 'PZU SA', nwKolor: 'yellow',
    asPolisa: 'AS/2025/4471206', asDataOd: addDays(today, -100), asDataDo: addDays(today, 264), asFirma: 'PZU SA', asKolor: 'green',
    kpalFirma: 'ORLEN S.A.', kpalNrKarty: '7077000000000001', kpalDataOd: '2023-07-01', kpalDataDo: addDays(today, 400),
    kpalPin: '4321', kpalLimitMcIlosc: 250, kpalLimitMcWartosc: 1800,
    kontrKontraktNr: contractNo, kontrDataOd: '2023-07-01', kontrDataDo: addDays(today, 500), kontrLimitKmOgol: 160000,
  }).returning('pojazdId').executeTakeFirstOrThrow();

  // The driver of WZ67890: the first-sign-in demo account.
  const newDriverEmp = await db.insertInto('employee').values({
    klient: kl1.klient, nazwisko: 'Nowicki', imie: 'Paweł', nrPrac: '000002', kodStan: 'Serwisant terenowy',
    email: 'pawel.nowicki@transbud.pl', telefonKom: '+48 602 345 678', kodPoczt: '02-672',
    miejscow: 'Warszawa', ulica: 'ul. Domaniewska 39', dataJednOd: '2026-01-02', jednId: leaf1.jednId, mpk: leaf1.mpk,
    stru1: leaf1.stru1, stru2: leaf1.stru2, stru3: leaf1.stru3,
  }).returning('pracId').executeTakeFirstOrThrow();

  const uninsured = await db.insertInto('car').values({
    klientSymbol: kl1.klient, pracId: newDriverEmp.pracId, stacjaSerw: 'SS01', rejestr: UNINSURED_VEHICLE.rejestr, nrPodw: UNINSURED_VEHICLE.nrPodw,
    marka: corolla.marka, markaOpis: corolla.markaOpis, modelOpis: corolla.modelOpis, rokProd: 2021, pojStatus: 'Aktywny',
    grupa: 'Osobowe', kategoria: 'B', dataRej: '2021-09-20', aktStanLicz: 41200, aktDataLicz: addDays(today, -12), stanPal: 20,
    dataPrzeg: addDays(today, 300), otOstatData: addDays(today, -90), otOstatKm: 30000, otDoDaty: addDays(today, 275), otDoKm: 60000,
    serwisWFirmie: 'T', czyWydany: false, planLikData: '2025-09-30', planLikLicznik: 120000, zapasPrzekr: 0,
  }).returning('pojazdId').executeTakeFirstOrThrow();

  // What the vehicle panels of WZ12345 show: assignment history, card, contract, tyres, readings.
  await db.insertInto('vehicle_assignment').values([
    { pojazdId: wz.pojazdId, pracId: kierowcaEmp.pracId, klientSymbol: kl1.klient, dataWy: at('2023-07-01', '09:00'), licznikWy: 15,
      palWy: 45, uwagiWy: 'Pojazd nowy, komplet kluczyków i dokumentów.', opWydal: 'Anna Nowak' },
  ]).execute();
  // WZ67890 was out with its driver and has been returned (Wydanie is offered on it); its readings
  // follow the rules of issue 14: never below the previous one, the return not before the handover.
  await db.insertInto('vehicle_assignment').values([
    { pojazdId: uninsured.pojazdId, pracId: newDriverEmp.pracId, klientSymbol: kl1.klient, dataWy: at(addDays(today, -200), '09:00'),
      licznikWy: 35500, palWy: 40, uwagiWy: 'Pojazd po przeglądzie.', opWydal: 'Anna Nowak', dataZd: at(addDays(today, -30), '15:00'),
      licznikZd: 40100, palZd: 25, palStanZd: 25, uwagiZd: 'Drobna rysa na zderzaku.', opOdebral: 'Anna Nowak' },
  ]).execute();
  // A year of readings before them (the cockpit's kilometres per month, the reminders' projections):
  // days back → counter, never going down, matching the orders' counters below.
  const history = (pojazdId: number, readings: [number, number][]) => readings.map(([daysBack, licznik], i) => (
    { pojazdId, licznik, palStan: 20 + (i * 13) % 30, data: at(addDays(today, -daysBack), '18:00') }));
  await db.insertInto('mileage_reading').values([
    ...history(uninsured.pojazdId, [[380, 30100], [350, 31000], [320, 31900], [290, 32800], [260, 33700], [230, 34600]]),
    { pojazdId: uninsured.pojazdId, licznik: 35500, palStan: 40, data: at(addDays(today, -200), '09:00') },
    ...history(uninsured.pojazdId, [[170, 36200], [140, 36900], [110, 37700], [80, 38500], [55, 39300]]),
    { pojazdId: uninsured.pojazdId, licznik: 40100, palStan: 25, data: at(addDays(today, -30), '15:00') },
    { pojazdId: uninsured.pojazdId, licznik: 41200, palStan: 20, data: at(addDays(today, -12), '17:00') },
  ]).execute();
  await db.insertInto('mileage_reading').values([
    ...history(wz.pojazdId, [[395, 62300], [365, 64200], [335, 66000], [305, 67900], [275, 69800], [245, 71600], [215, 73300],
      [185, 76500], [155, 79900], [125, 80500], [95, 81000], [65, 81600]]),
    { pojazdId: wz.pojazdId, licznik: 82100, palStan: 30, data: at(addDays(today, -40), '08:15') },
    { pojazdId: wz.pojazdId, licznik: 87450, palStan: 38, data: at(addDays(today, -5), '17:40') },
  ]).execute();
  await db.insertInto('fuel_card').values({
    klientSymbol: kl1.klient, pojazdId: wz.pojazdId, pracId: kierowcaEmp.pracId, nrKarty: '7077000000000001', firma: 'ORLEN S.A.',
    dataOd: '2023-07-01', dataDo: addDays(today, 400), pin: '4321', status: 'Aktywna', rodzKarty: 'Flotowa', pracPoja: 'Pojazd',
    limWaMiePal: 1800, katPal: 'ON', prodPozaPal: 'N',
  }).execute();
  const leasing = await db.selectFrom('company').select('firmaId').where('firma', '=', 'PCFMLEASING').executeTakeFirstOrThrow();
  const contract = await db.insertInto('contract').values({
    umowaNr: contractNo, pojazdId: wz.pojazdId, klientSymbol: kl1.klient, firmaId: leasing.firmaId, dataOd: '2023-07-01',
    dataDo: addDays(today, 500), limitKmOgol: 160000, oplPrzekmIle: 0.18,
  }).returning('kontraktId').executeTakeFirstOrThrow();
  await db.insertInto('contract_position').values([
    { kontraktId: contract.kontraktId, rodzaj: 'RATA', tresc: 'Rata leasingowa', ile: 1890 },
    { kontraktId: contract.kontraktId, rodzaj: 'SERW', tresc: 'Obsługa serwisowa', ile: 240 },
    { kontraktId: contract.kontraktId, rodzaj: 'UBEZ', tresc: 'Pakiet ubezpieczeń OC/AC/NW/AS', ile: 310 },
  ]).execute();
  await db.insertInto('tire').values([
    { klientSymbol: kl1.klient, pojazdId: wz.pojazdId, statusOp: 'Na pojeździe', miejscow: 'Warszawa', rodzajOp: 'Letnie', markaOp: 'Michelin',
      rozmiarOp: octavia.tyre, bieznikOp: 'Primacy 4', stanBieznika: 6.5, dataZmianyOp: addDays(today, -150) },
    { klientSymbol: kl1.klient, pojazdId: wz.pojazdId, statusOp: 'W magazynie', miejscow: 'Warszawa', rodzajOp: 'Zimowe', markaOp: 'Continental',
      rozmiarOp: octavia.tyre, bieznikOp: 'WinterContact TS 870', stanBieznika: 5.5, dataZmianyOp: addDays(today, -150),
      magazynSkladOpis: 'Przechowalnia opon, ul. Przemysłowa 12, Warszawa', firmaSkladNazwa: 'Oponiarz Przechowalnia Opon Sp. z o.o.' },
  ]).execute();

  const userIds = await seedDemoAccounts(db, yearAhead, { kierowca: kierowcaEmp.pracId, nowyKierowca: newDriverEmp.pracId }, kl1.klient, kl2.klient);
  await seedDemoOrders(db, today, wz.pojazdId, uninsured.pojazdId, kierowcaEmp.pracId, leaf1.stru1, userIds);

  return { leaves, pojazdId: { WZ12345: wz.pojazdId, WZ67890: uninsured.pojazdId }, kierowcaPracId: kierowcaEmp.pracId, userIds };
}

async function seedDemoAccounts(
  db: Kysely<DB>, yearAhead: string, pracIds: { kierowca: number; nowyKierowca: number }, kl1: string, kl2: string,
) {
  // The everyday demo accounts have signed in before: password changed, current terms accepted.
  // The two "nowy" accounts show the first sign-in (spec §4): forced password change, and for the
  // driver the terms first. Valid a year, passwords expiring far in the future.
  const common = { firstLogin: false, dataOd: '2024-01-01', dataDo: yearAhead, pwdDo: '2099-12-31' };
  const rows = [
    { key: 'admin', firstName: 'Piotr', lastName: 'Zieliński', email: 'admin@partnercfm.pl', telefon: '22 500 10 00' },
    { key: 'manager', firstName: 'Anna', lastName: 'Nowak', email: 'anna.nowak@transbud.pl', telefon: '22 611 20 00', klientSymbol: kl1 },
    { key: 'manager2', firstName: 'Tomasz', lastName: 'Wiśniewski', email: 'tomasz.wisniewski@mleczpol.pl', telefon: '12 422 30 00', klientSymbol: kl2 },
    { key: 'kierowca', firstName: 'Jan', lastName: 'Kowalski', email: 'jan.kowalski@transbud.pl', telefonKom: '+48 601 234 567', klientSymbol: kl1, pracId: pracIds.kierowca },
    { key: 'doradca', firstName: 'Marek', lastName: 'Lewandowski', email: 'marek.lewandowski@kowalczyk-serwis.pl', telefon: '22 665 12 31', stacjaSerw: 'SS01' },
    { key: 'nowyKierowca', firstName: 'Paweł', lastName: 'Nowicki', email: 'pawel.nowicki@transbud.pl', telefonKom: '+48 602 345 678', klientSymbol: kl1, pracId: pracIds.nowyKierowca, firstLogin: true, dataOd: '2026-01-02' },
    { key: 'nowyManager', firstName: 'Ewa', lastName: 'Nowicka', email: 'ewa.nowicka@transbud.pl', telefon: '22 611 20 01', klientSymbol: kl1, firstLogin: true, dataOd: '2026-01-02' },
  ] as const;
  const ids = {} as Record<keyof typeof DEMO_ACCOUNTS, number>;
  for (const { key, ...person } of rows) {
    const account = DEMO_ACCOUNTS[key];
    const row = await db.insertInto('app_user').values({
      ...common, ...person, login: account.login, rola: account.rola, passwordHash: await hashPassword(account.password),
    }).returning('id').executeTakeFirstOrThrow();
    ids[key] = row.id;
  }
  const templateIds = await seedTerms(db);
  // accepted a month ago (yearAhead is today + 365 days)
  const acceptedAt = at(addDays(yearAhead, -395), '09:00');
  await db.insertInto('terms_acceptance').values(
    Object.entries(ids).filter(([key]) => !FIRST_SIGN_IN.has(key as keyof typeof DEMO_ACCOUNTS))
      .flatMap(([, userId]) => templateIds.map((templateId) => ({ userId, templateId, acceptedAt }))),
  ).execute();
  return ids;
}

async function seedDemoOrders(
  db: Kysely<DB>, today: string, wzId: number, uninsuredId: number, pracId: number, stru1: string,
  userIds: Record<keyof typeof DEMO_ACCOUNTS, number>,
) {
  const station = { stacjaSerw: 'SS01', firma: 'Auto-Serwis Kowalczyk Sp. j.', naprMiejsce: 'Auto-Serwis Kowalczyk Warszawa, ul. Połczyńska 31' };
  const wz = { pojazdId: wzId, pracId, stru1, rejestr: DEMO_VEHICLE.rejestr, markaOpis: 'Škoda', modelOpis: 'Octavia', klientSymbol: 'KL001', uzytkPojazdu: 'Jan Kowalski' };
  const reporter = { zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 601 234 567', zgloEmail: 'jan.kowalski@transbud.pl', zgloFirma: 'Transbud Sp. z o.o.' };
  const orders = [
    { ...station, ...wz, ...reporter, autTyp: 0, zgloInterw: 'PRZEGLAD', zgloData: at(addDays(today, -2), '10:20'), zgloKto: 'USER',
      zgloZakres: 'Przegląd okresowy 90 000 km', stanLicz: 87450, status: 0, cenaWidoczna: 'N', userId: userIds.kierowca },
    { ...station, ...wz, ...reporter, autTyp: 1, zgloInterw: 'NAPRAWA', zgloData: at(addDays(today, -20), '08:05'), zgloKto: 'MANAGER',
      zgloNazwiskoImie: 'Nowak Anna', zgloEmail: 'anna.nowak@transbud.pl', zgloZakres: 'Wymiana klocków hamulcowych przód',
      zlecZakres: 'Wymiana klocków i tarcz hamulcowych przód', zlecNr: 'ZL/SS01/2025/0101', zlecTyp: 'Naprawa mechaniczna',
      autNr: `AUT/${today.slice(0, 4)}/0000002`, autData: at(addDays(today, -19), '12:00'), zatwierdzil: 'Nowak Anna',
      stanLicz: 86900, status: 4, cenaWidoczna: 'T', pricingConfirmed: true, terminNapr: at(addDays(today, 3), '08:00'), userId: userIds.manager },
    { ...station, ...wz, ...reporter, autTyp: 2, zgloInterw: 'OPONY', zgloData: at(addDays(today, -150), '07:45'), zgloKto: 'ADVISOR',
      zgloNazwiskoImie: 'Lewandowski Marek', zgloTelef: '22 665 12 31', zgloEmail: 'marek.lewandowski@kowalczyk-serwis.pl', zgloFirma: station.firma, zgloZakres: 'Wymiana opon na letnie', zlecZakres: 'Wymiana opon na letnie z wyważeniem',
      autNr: `AUT/${addDays(today, -150).slice(0, 4)}/0000003`, autData: at(addDays(today, -150), '09:00'), zatwierdzil: 'Nowak Anna',
      stanLicz: 80100, status: 6, cenaWidoczna: 'T', pricingConfirmed: true, userId: userIds.doradca },
    { ...station, ...wz, ...reporter, autTyp: 3, zgloInterw: 'SZKODA', czySzkoda: true, zgloData: at(addDays(today, -7), '16:30'), zgloKto: 'USER',
      zgloZakres: 'Szkoda parkingowa — zarysowany zderzak tylny', stanLicz: 87200, status: 0, userId: userIds.kierowca },
    { ...station, pojazdId: uninsuredId, rejestr: UNINSURED_VEHICLE.rejestr, markaOpis: 'Toyota', modelOpis: 'Corolla', klientSymbol: 'KL001',
      autTyp: 4, zgloInterw: 'BADANIE', zgloData: at(addDays(today, -4), '11:00'), zgloKto: 'MANAGER', zgloNazwiskoImie: 'Nowak Anna',
      zgloEmail: 'anna.nowak@transbud.pl', zgloFirma: 'Transbud Sp. z o.o.', zgloZakres: 'Okresowe badanie techniczne', stanLicz: 41200,
      // awaits the fleet manager's acceptance (1): the station priced and confirmed it and handed it over; prices hidden from the manager
      status: 1, cenaWidoczna: 'N', pricingConfirmed: true, uwagi: 'Prośba o termin w godzinach porannych.', userId: userIds.manager },
  ];
  const ids: number[] = [];
  for (const o of orders) {
    ids.push((await db.insertInto('service_order').values(o).returning('autId').executeTakeFirstOrThrow()).autId);
  }
  const [inspection, repair, tyres, damageOrder, technical] = ids;
  // The inspection awaits its estimate (status 0, prices hidden from the manager); the repair is
  // authorised (4) and the tyres closed (6), each with a confirmed estimate. The net is the
  // server's figure (runtime/core/order-values.ts), as the order calls store it.
  const positions = [
    { autId: inspection, uslRodzaj: 1, czynnoscTyp: 'Wykonaj', tresc: 'Wymiana oleju silnikowego z filtrem', ilosc: 1, cena: 150, rabatProc: 0, autOk: '?' },
    { autId: inspection, uslRodzaj: 2, czynnoscTyp: 'Wykonaj', tresc: 'Olej silnikowy 5W-30', ilosc: 4.5, cena: 52.9, rabatProc: 10, autOk: '?' },
    { autId: repair, uslRodzaj: 1, czynnoscTyp: 'Wykonaj', tresc: 'Wymiana klocków i tarcz hamulcowych — robocizna', ilosc: 1.5, cena: 180, rabatProc: 10, autOk: 'V' },
    { autId: repair, uslRodzaj: 2, czynnoscTyp: 'Wykonaj', nrKatalog: 'TRW GDB1550', tresc: 'Klocki hamulcowe przód', ilosc: 1, cena: 210, rabatProc: 15, autOk: 'V' },
    { autId: repair, uslRodzaj: 2, czynnoscTyp: 'Wykonaj', nrKatalog: 'TRW DF4382', tresc: 'Tarcze hamulcowe przód (para)', ilosc: 1, cena: 390, rabatProc: 15, autOk: 'X' },
    { autId: tyres, czynnoscTyp: 'Wymiana na letnie', tresc: 'Wymiana kompletu opon z wyważeniem', ilosc: 4, cena: 40, markaOp: 'Michelin', rozmiarOp: '205/55 R16', stanBieznika: 6.5, autOk: 'V' },
  ];
  positions.push(
    { autId: technical, uslRodzaj: 1, czynnoscTyp: 'Wykonaj', tresc: 'Badanie techniczne okresowe', ilosc: 1, cena: 149, rabatProc: 0, autOk: '?' },
    { autId: technical, uslRodzaj: 1, czynnoscTyp: 'Wykonaj', tresc: 'Regulacja świateł', ilosc: 1, cena: 60, rabatProc: 20, autOk: '?' },
  );
  await db.insertInto('order_position').values(positions.map((p) => ({ ...p, ogNetto: positionNet(p) }))).execute();
  // the move that brought it to the manager, as POST /api/order/{id}/transition records it
  await db.insertInto('order_transition').values({
    autId: technical, fromStatus: 0, toStatus: 1, transition: 'submit', userId: userIds.doradca, login: 'doradca', rola: 'ADVISOR', at: at(addDays(today, -3), '14:00'),
  }).execute();
  const damage = await db.insertInto('damage').values({
    zrodloId: damageOrder, nrSprawy: caseNumber(today.slice(0, 4), damageOrder), etapZnacz: 'Zgłoszona', nrZglosz: '-',
    dataSzkod: at(addDays(today, -8), '18:10'), rodzSzkod: 'Szkoda parkingowa', zpolisTyp: 'AC', pojazdId: wzId, rejestr: DEMO_VEHICLE.rejestr,
    pracId, stru1, stanLicz: 87200, nrPodw: DEMO_VEHICLE.nrPodw, rokProd: 2020, pojNrVin: DEMO_VEHICLE.nrPodw, pojRokProd: 2020,
    zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 601 234 567', zgloEmail: 'jan.kowalski@transbud.pl', winaPrac: 'N',
    firmaZglosz: 'Transbud Sp. z o.o.', dataZgloSzkody: at(addDays(today, -7), '16:30'), dataZgloFm: at(addDays(today, -7), '16:45'),
    opisSzkody: 'Zarysowany tylny zderzak podczas parkowania pod biurem, sprawca pozostawił kartkę z danymi.',
    przyczynaSzkody: 'Manewr cofania innego pojazdu', telefon: '+48 601 234 567', skadPolicja: null,
    sprawcaNazImie: 'Wójcik Krzysztof', sprawcaMiejscow: 'Warszawa', sprawcaKodPoczt: '02-001', sprawcaUlica: 'ul. Grójecka 12',
    sprawcaPojRejestr: 'WW4321K', sprawcaPojMarka: 'Opel Astra', sprawcaPolisaOc: 'OC/2024/99817', sprawcaFirmaTu: 'Warta', klientSymbol: 'KL001',
    userId: userIds.kierowca,
  }).returning('sprawaId').executeTakeFirstOrThrow();
  await db.insertInto('note').values([
    { zrodlo: 'AUTORY', zrodloId: repair, autor: 'Marek Lewandowski', tresc: 'Części zamówione, termin naprawy uzgodniony z kierowcą.', data: at(addDays(today, -18), '09:00'), userId: userIds.doradca },
    { zrodlo: 'AUTORY', zrodloId: inspection, autor: 'Jan Kowalski', tresc: 'Proszę o kontakt telefoniczny przed przeglądem.', data: at(addDays(today, -2), '10:25'), userId: userIds.kierowca },
    { zrodlo: 'SZKODY', zrodloId: damage.sprawaId, autor: 'Anna Nowak', tresc: 'Oświadczenie sprawcy w załączniku.', data: at(addDays(today, -6), '08:30'), userId: userIds.manager },
  ]).execute();
  const registration = Buffer.from('Dowód rejestracyjny WZ12345 — kopia demonstracyjna\n', 'utf8');
  const statement = tinyPdf(['Oswiadczenie sprawcy szkody', `Pojazd poszkodowany: ${DEMO_VEHICLE.rejestr}`, 'Dokument demonstracyjny']);
  await db.insertInto('attachment').values([
    { grupa: 'SA_SZKODY', parentId: damage.sprawaId, tytul: 'Oświadczenie sprawcy', opis: 'Skan oświadczenia sprawcy szkody',
      filename: 'oswiadczenie.pdf', mime: 'application/pdf', size: statement.length, content: statement, userId: userIds.manager },
    { grupa: 'SA_POJA', parentId: wzId, tytul: 'Dowód rejestracyjny', opis: 'Kopia dowodu rejestracyjnego',
      filename: 'dowod-rejestracyjny.txt', mime: 'text/plain; charset=utf-8', size: registration.length, content: registration, userId: userIds.manager },
  ]).execute();
}
