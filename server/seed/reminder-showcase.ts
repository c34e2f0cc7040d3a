/**
 * Demo data for the reminders and the cockpit (issue 24): in every client (the generated ones and
 * the variants' own) a few vehicles whose dates and limits fall due around the seed's day, and a
 * few orders and a damage that wait for someone, so that every rule of screens/reminders.json has
 * items for every client's manager, whatever day the seed runs on.
 *
 * A showcase vehicle takes one of three slots; each slot sets every due field of the car to a
 * state (past due, due within a week, due within a month …), and the slots differ, so that two
 * vehicles already cover every rule and three cover every state of the insurance rules:
 *
 * | field (rule)                     | slot 0        | slot 1           | slot 2              |
 * |----------------------------------|---------------|------------------|---------------------|
 * | ocDataDo (insuranceOc)           | 6 days ago    | in 3 days        | in 26 days          |
 * | acDataDo (insuranceAc)           | in 4 days     | in 18 days       | 2 days ago          |
 * | nwDataDo (insuranceNw)           | in 21 days    | 9 days ago       | in 5 days           |
 * | asDataDo (insuranceAs)           | 12 days ago   | in 6 days        | in 27 days          |
 * | dataPrzeg (inspection)           | in 5 days     | 3 days ago       | in 22 days          |
 * | otDoDaty (serviceDate)           | in 24 days    | in 6 days        | 5 days ago          |
 * | otDoKm (serviceDistance)         | +1 500 km     | +300 km          | 250 km over         |
 * | kontrDataDo (contractEnd)        | in 45 days    | in 20 days       | in 55 days          |
 * | contract limit (contractMileage) | projected over| (far)            | 1 000 km under      |
 * | kpalDataDo (fuelCard)            | in 10 days    | 4 days ago       | in 27 days          |
 * | planLikData (liquidationDate)    | in 25 days    | in 6 days        | 8 days ago          |
 * | planLikLicznik (liquidationDist.)| +2 500 km     | +700 km          | 400 km over         |
 * | aktDataLicz (staleReading)       | 2 days ago    | 100 days ago     | 82 days ago         |
 *
 * Kilometre limits count from the vehicle's current reading; the projected contract mileage from
 * the vehicle's daily average (`kmPerDay`, the slope of the readings the seed writes for it).
 */
import type { Insertable, Kysely } from 'kysely';
import { positionNet } from '../../runtime/core/order-values.ts';
import type { Car, DB } from '../db/types.generated.ts';
import { COMPANIES, STATIONS } from './data.ts';
import { addDays, at, caseNumber } from './sql-util.ts';

/** Showcase vehicles per client (fewer when the client has fewer vehicles). */
export const SHOWCASE_SLOTS = 3;
/** Showcase orders per client: two awaiting acceptance (prices shown, hidden), one to clarify, one unconfirmed estimate, one damage. */
export const SHOWCASE_ORDERS = 5;
/** The days since the last reading of each slot (the stale-reading rule looks 90 days back). */
export const SHOWCASE_READING_AGE = [2, 100, 82] as const;

const INSURANCES = ['oc', 'ac', 'nw', 'as'] as const;
const DAYS: Record<string, [number, number, number]> = {
  oc: [-6, 3, 26], ac: [4, 18, -2], nw: [21, -9, 5], as: [-12, 6, 27],
  dataPrzeg: [5, -3, 22], otDoDaty: [24, 6, -5], kontrDataDo: [45, 20, 55], kpalDataDo: [10, -4, 27], planLikData: [25, 6, -8],
};
const KM = { otDoKm: [1500, 300, -250], planLikLicznik: [2500, 700, -400] } as const;

/** The colour the portal stores with a policy (bulk.ts uses the same rule): red past due, yellow within 30 days. */
const colour = (days: number) => (days < 0 ? 'red' : days < 30 ? 'yellow' : 'green');

export interface ShowcaseVehicle {
  /** Current reading. */
  km: number;
  /** Average kilometres a day of the vehicle's readings. */
  kmPerDay: number;
  /** Whether it has policies (only those get policy dates) and a fuel card (only then a card expiry). */
  insurer: string | null;
  fuelCard: boolean;
}

/**
 * The car fields of a showcase slot, relative to `today` and the vehicle's reading. The contract's
 * km limit (kontrLimitKmOgol, copied to the contract) is set for slots 0 and 2 only.
 */
export function showcaseCar(slot: number, today: string, v: ShowcaseVehicle): Partial<Insertable<Car>> {
  const s = slot % SHOWCASE_SLOTS;
  const day = (field: string) => addDays(today, DAYS[field][s]);
  const fields: Record<string, unknown> = {
    dataPrzeg: day('dataPrzeg'), otDoDaty: day('otDoDaty'), otDoKm: v.km + KM.otDoKm[s],
    kontrDataDo: day('kontrDataDo'), planLikData: day('planLikData'), planLikLicznik: Math.max(v.km + KM.planLikLicznik[s], 0),
    aktDataLicz: addDays(today, -SHOWCASE_READING_AGE[s]), zapasPrzekr: 0,
  };
  if (v.insurer) {
    for (const p of INSURANCES) {
      fields[`${p}DataDo`] = day(p);
      fields[`${p}DataOd`] = addDays(day(p), -364);
      fields[`${p}Kolor`] = colour(DAYS[p][s]);
      fields[`${p}Firma`] = v.insurer;
    }
  }
  if (v.fuelCard) fields.kpalDataDo = day('kpalDataDo');
  // slot 0: the projected mileage at the contract's end is over its limit; slot 2: 1 000 km under it
  const untilEnd = DAYS.kontrDataDo[s] + SHOWCASE_READING_AGE[s];
  if (s === 0) fields.kontrLimitKmOgol = v.km + 200;
  if (s === 2) fields.kontrLimitKmOgol = Math.round(v.km + v.kmPerDay * untilEnd + 1000);
  return fields as Partial<Insertable<Car>>;
}

/** Where a client's showcase orders go: one of its vehicles, and the station that prices them. */
export interface ShowcaseTarget { pojazdId: number; stacjaSerw: string }

/**
 * The showcase orders of each target's client, SHOWCASE_ORDERS each: awaiting the fleet manager's
 * acceptance with prices shown (cenaWidoczna T) and hidden (N), sent back to clarify (10), an
 * estimate the station has not confirmed yet (0), and a damage not closed.
 */
export async function seedShowcaseOrders(db: Kysely<DB>, today: string, targets: ShowcaseTarget[]): Promise<void> {
  for (const target of targets) {
    const car = await db.selectFrom('car as c').leftJoin('employee as e', 'e.pracId', 'c.pracId')
      .innerJoin('client as k', 'k.klient', 'c.klientSymbol')
      .select(['c.pojazdId', 'c.klientSymbol', 'c.rejestr', 'c.nrPodw', 'c.rokProd', 'c.markaOpis', 'c.modelOpis', 'c.pracId', 'c.aktStanLicz',
        'e.imie', 'e.nazwisko', 'e.telefonKom', 'e.email', 'e.stru1', 'k.klientNazwa'])
      .where('c.pojazdId', '=', target.pojazdId).executeTakeFirstOrThrow();
    const station = STATIONS.find((s) => s.stacjaSerw === target.stacjaSerw)!;
    const firma = COMPANIES.find((c) => c.firma === station.firma)!.firmaNazwa;
    const driver = car.nazwisko ? `${car.nazwisko} ${car.imie}` : null;
    const common = {
      pojazdId: car.pojazdId, klientSymbol: car.klientSymbol, rejestr: car.rejestr, markaOpis: car.markaOpis, modelOpis: car.modelOpis,
      pracId: car.pracId, stru1: car.stru1, uzytkPojazdu: driver ? `${car.imie} ${car.nazwisko}` : null,
      stacjaSerw: station.stacjaSerw, firma, naprMiejsce: `${station.nazwa}, ${station.ulica}`, stanLicz: car.aktStanLicz,
    };
    const byAdvisor = { zgloKto: 'ADVISOR', zgloNazwiskoImie: station.advisor, zgloTelef: station.telefon, zgloFirma: firma, zgloPrzyjal: station.advisor };
    const byDriver = driver
      ? { zgloKto: 'USER', zgloNazwiskoImie: driver, zgloTelef: car.telefonKom, zgloEmail: car.email, zgloFirma: car.klientNazwa }
      : byAdvisor;
    const orders = [
      { ...byAdvisor, autTyp: 0, zgloInterw: 'PRZEGLAD', zgloData: at(addDays(today, -1), '09:30'), zgloZakres: 'Przegląd okresowy z wymianą oleju',
        status: 1, cenaWidoczna: 'T', pricingConfirmed: true },
      { ...byAdvisor, autTyp: 1, zgloInterw: 'NAPRAWA', zgloData: at(addDays(today, -5), '11:15'), zgloZakres: 'Wymiana sprzęgła — pedał sprzęgła wysoko',
        status: 1, cenaWidoczna: 'N', pricingConfirmed: true, uwagi: 'Kosztorys do akceptacji Fleet Managera.' },
      { ...byDriver, autTyp: 1, zgloInterw: 'NAPRAWA', zgloData: at(addDays(today, -4), '08:40'), zgloZakres: 'Stuki z zawieszenia tylnego',
        status: 10, cenaWidoczna: 'T', pricingConfirmed: true, uwagi: 'Prośba o doprecyzowanie zakresu naprawy przed akceptacją.' },
      { ...byDriver, autTyp: 0, zgloInterw: 'PRZEGLAD', zgloData: at(addDays(today, -3), '14:05'), zgloZakres: 'Przegląd okresowy, wymiana klocków hamulcowych',
        status: 0, cenaWidoczna: 'N', pricingConfirmed: false },
      { ...byDriver, autTyp: 3, zgloInterw: 'SZKODA', czySzkoda: true, zgloData: at(addDays(today, -9), '17:20'), zgloZakres: 'Stłuczka na parkingu — wgnieciony błotnik przedni',
        status: 0, cenaWidoczna: 'N', pricingConfirmed: false },
    ];
    const ids: number[] = [];
    for (const o of orders) ids.push((await db.insertInto('service_order').values({ ...common, ...o }).returning('autId').executeTakeFirstOrThrow()).autId);
    const [pricedId, hiddenId, clarifyId, estimateId, damageOrderId] = ids;
    const positions = [
      { autId: pricedId, uslRodzaj: 1, rodzaj: 'podstawowa', czynnoscTyp: 'Wykonaj', tresc: 'Przegląd okresowy — robocizna', ilosc: 1.5, cena: 160, rabatProc: 0, autOk: '?' },
      { autId: pricedId, uslRodzaj: 2, rodzaj: 'dodatkowa', czynnoscTyp: 'Wykonaj', tresc: 'Olej silnikowy 5W-30 z filtrem', ilosc: 5, cena: 48, rabatProc: 10, autOk: '?' },
      { autId: hiddenId, uslRodzaj: 1, rodzaj: 'podstawowa', czynnoscTyp: 'Wykonaj', tresc: 'Wymiana sprzęgła — robocizna', ilosc: 6, cena: 170, rabatProc: 5, autOk: '?' },
      { autId: hiddenId, uslRodzaj: 2, rodzaj: 'dodatkowa', czynnoscTyp: 'Wykonaj', tresc: 'Zestaw sprzęgła z kołem dwumasowym', ilosc: 1, cena: 2890, rabatProc: 12, autOk: '?' },
      { autId: clarifyId, uslRodzaj: 1, rodzaj: 'podstawowa', czynnoscTyp: 'Wykonaj', tresc: 'Diagnostyka zawieszenia', ilosc: 1, cena: 120, rabatProc: 0, autOk: '?' },
      { autId: estimateId, uslRodzaj: 1, rodzaj: 'podstawowa', czynnoscTyp: 'Wykonaj', tresc: 'Przegląd okresowy — robocizna', ilosc: 1, cena: 160, rabatProc: 0, autOk: '?' },
      { autId: estimateId, uslRodzaj: 2, rodzaj: 'dodatkowa', czynnoscTyp: 'Wykonaj', tresc: 'Klocki hamulcowe przód', ilosc: 1, cena: 260, rabatProc: 10, autOk: '?' },
    ];
    await db.insertInto('order_position').values(positions.map((p) => ({ ...p, ogNetto: positionNet(p) }))).execute();
    // the moves that brought them where they are, as POST /api/order/{id}/transition records them:
    // by the station's advisor and the client's fleet manager (the administrator where there is none)
    const advisor = await accountOf(db, 'ADVISOR', { stacjaSerw: station.stacjaSerw });
    const manager = await accountOf(db, 'MANAGER', { klientSymbol: car.klientSymbol });
    await db.insertInto('order_transition').values([
      { autId: pricedId, fromStatus: 0, toStatus: 1, transition: 'submit', ...advisor, at: at(addDays(today, -1), '13:00') },
      { autId: hiddenId, fromStatus: 0, toStatus: 1, transition: 'submit', ...advisor, at: at(addDays(today, -4), '10:00') },
      { autId: clarifyId, fromStatus: 0, toStatus: 1, transition: 'submit', ...advisor, at: at(addDays(today, -3), '12:00') },
      { autId: clarifyId, fromStatus: 1, toStatus: 10, transition: 'clarify', ...manager, at: at(addDays(today, -2), '09:15') },
    ]).execute();
    await db.insertInto('damage').values({
      zrodloId: damageOrderId, nrSprawy: caseNumber(today.slice(0, 4), damageOrderId), etapZnacz: 'W likwidacji', nrZglosz: '-',
      dataSzkod: at(addDays(today, -10), '16:45'), rodzSzkod: 'Szkoda parkingowa', zpolisTyp: 'AC', pojazdId: car.pojazdId, rejestr: car.rejestr,
      pracId: car.pracId, stru1: car.stru1, stanLicz: car.aktStanLicz, nrPodw: car.nrPodw, rokProd: car.rokProd, pojNrVin: car.nrPodw, pojRokProd: car.rokProd,
      zgloNazwiskoImie: byDriver.zgloNazwiskoImie, zgloTelef: byDriver.zgloTelef ?? null, winaPrac: 'N', firmaZglosz: car.klientNazwa,
      dataZgloSzkody: at(addDays(today, -9), '17:20'), dataZgloFm: at(addDays(today, -9), '17:40'),
      opisSzkody: 'Wgnieciony przedni błotnik po manewrze innego pojazdu na parkingu.', przyczynaSzkody: 'Manewr cofania innego pojazdu',
      klientSymbol: car.klientSymbol,
    }).execute();
  }
}

/** The first account of a role at a station or client, else the first administrator: who a recorded move names. */
async function accountOf(db: Kysely<DB>, rola: 'ADVISOR' | 'MANAGER', where: { stacjaSerw?: string; klientSymbol?: string }) {
  let q = db.selectFrom('app_user').select(['id', 'login', 'rola']).where('rola', '=', rola).where('firstLogin', '=', false);
  if (where.stacjaSerw) q = q.where('stacjaSerw', '=', where.stacjaSerw);
  if (where.klientSymbol) q = q.where('klientSymbol', '=', where.klientSymbol);
  const found = await q.orderBy('id').executeTakeFirst()
    ?? await db.selectFrom('app_user').select(['id', 'login', 'rola']).where('rola', '=', 'ADMIN').orderBy('id').executeTakeFirstOrThrow();
  return { userId: found.id, login: found.login, rola: found.rola };
}
