/**
 * Demo data for the reminders and the cockpit (issue 24, made believable in issue 38): in every
 * client (the generated ones and the variants' own) a few vehicles whose dates and limits fall due
 * around the seed's day, and a few orders and a damage that wait for someone, so that a fleet
 * manager's Pulpit shows what a real fleet does on an ordinary day: most things fine, some soon,
 * a few late — not a wall of red.
 *
 * A client's showcase vehicles take slots 0, 1 and 2. Each vehicle rule (below, RULES) is in one
 * state for each slot — late (past due), urgent, soon or fine — chosen by the client's index, so
 * that each client has one rule late, one urgent and five soon among its showcase vehicles, and
 * the clients together have every rule in every state (the late rule turns through RULES with the
 * client's index, 5 being prime to their number). The rest of the fleet (bulk.ts) is nearly all
 * fine: a policy or an inspection falls due within the month here and there.
 *
 * | state  | a date (days from the seed's day) | a contract end | km to a service / liquidation | contract's km limit                    |
 * |--------|-----------------------------------|----------------|-------------------------------|----------------------------------------|
 * | late   | 6 days ago                        | 5 days ago     | 250 / 400 km over             | already passed (500 km under the reading) |
 * | urgent | in 9 days                         | in 20 days     | 300 / 700 km                  | projected 200 km over at the end      |
 * | soon   | in 24 days                        | in 50 days     | 1 500 / 2 500 km              | projected 1 000 km under at the end   |
 * | fine   | in 200 days                       | in 400 days    | 15 000 / 40 000 km            | projected 20 000 km under at the end  |
 *
 * The last reading (staleReading, due 90 days after it) is 100 days old on slot 1 of the first
 * client (the driver kierowca.licznik enters one in the journey of "Podaj stan licznika"), 82 days
 * (soon) on slot 1 of every third other client, and recent otherwise.
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

export type ShowcaseState = 'late' | 'urgent' | 'soon' | 'fine';
/** The vehicle rules of screens/reminders.json a showcase vehicle is set for, by the field each watches. */
export const RULES = ['oc', 'ac', 'nw', 'as', 'dataPrzeg', 'otDoDaty', 'otDoKm', 'kontrDataDo', 'contractMileage', 'kpalDataDo', 'planLikData', 'planLikLicznik'] as const;
export type ShowcaseRule = (typeof RULES)[number];

/** Which rule is in which state on which slot, for the client of index `client`: one late, one urgent, five soon. */
export function showcaseStates(client: number): Record<ShowcaseRule, [ShowcaseState, ShowcaseState, ShowcaseState]> {
  const states = Object.fromEntries(RULES.map((r) => [r, ['fine', 'fine', 'fine']])) as Record<ShowcaseRule, [ShowcaseState, ShowcaseState, ShowcaseState]>;
  const at = (step: number) => RULES[(client * 5 + step) % RULES.length];
  const put: [number, number, ShowcaseState][] = [[0, 0, 'late'], [1, 1, 'urgent'], [2, 2, 'soon'], [3, 0, 'soon'], [4, 1, 'soon'], [6, 2, 'soon'], [8, 0, 'soon']];
  for (const [step, slot, state] of put) states[at(step)][slot] = state;
  return states;
}

/** The days since the last reading of a client's slot (the stale-reading rule looks 90 days back). */
export function readingAge(client: number, slot: number): number {
  if (slot !== 1) return slot === 0 ? 2 : 10;
  return client === 0 ? 100 : client % 3 === 1 ? 82 : 30;
}

const DAYS: Record<ShowcaseState, number> = { late: -6, urgent: 9, soon: 24, fine: 200 };
const CONTRACT_END_DAYS: Record<ShowcaseState, number> = { late: -5, urgent: 20, soon: 50, fine: 400 };
const SERVICE_KM: Record<ShowcaseState, number> = { late: -250, urgent: 300, soon: 1500, fine: 15000 };
const LIQUIDATION_KM: Record<ShowcaseState, number> = { late: -400, urgent: 700, soon: 2500, fine: 40000 };

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

/** The car fields of a client's showcase slot, relative to `today` and the vehicle's reading. */
export function showcaseCar(slot: number, today: string, v: ShowcaseVehicle, client = 0): Partial<Insertable<Car>> {
  const s = slot % SHOWCASE_SLOTS;
  const states = showcaseStates(client);
  const state = (rule: ShowcaseRule) => states[rule][s];
  const day = (rule: ShowcaseRule) => addDays(today, DAYS[state(rule)]);
  const age = readingAge(client, s);
  const contractDays = CONTRACT_END_DAYS[state('kontrDataDo')];
  const fields: Record<string, unknown> = {
    dataPrzeg: day('dataPrzeg'), otDoDaty: day('otDoDaty'), otDoKm: v.km + SERVICE_KM[state('otDoKm')],
    kontrDataDo: addDays(today, contractDays), planLikData: day('planLikData'), planLikLicznik: Math.max(v.km + LIQUIDATION_KM[state('planLikLicznik')], 0),
    aktDataLicz: addDays(today, -age), zapasPrzekr: 0,
  };
  if (v.insurer) {
    for (const p of ['oc', 'ac', 'nw', 'as'] as const) {
      fields[`${p}DataDo`] = day(p);
      fields[`${p}DataOd`] = addDays(day(p), -364);
      fields[`${p}Kolor`] = colour(DAYS[state(p)]);
      fields[`${p}Firma`] = v.insurer;
    }
  }
  if (v.fuelCard) fields.kpalDataDo = day('kpalDataDo');
  // the km limit of the contract (copied to it), from the mileage projected at its end
  const projected = v.km + v.kmPerDay * Math.max(contractDays + age, 0);
  const limit = { late: v.km - 500, urgent: projected - 200, soon: projected + 1000, fine: projected + 20000 }[state('contractMileage')];
  fields.kontrLimitKmOgol = Math.max(Math.round(limit), 1000);
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
  for (const [index, target] of targets.entries()) {
    const car = await db.selectFrom('car as c').leftJoin('employee as e', 'e.pracId', 'c.pracId')
      .innerJoin('client as k', 'k.klient', 'c.klientSymbol')
      .select(['c.pojazdId', 'c.klientSymbol', 'c.rejestr', 'c.nrPodw', 'c.rokProd', 'c.markaOpis', 'c.modelOpis', 'c.pracId', 'c.aktStanLicz',
        'e.imie', 'e.nazwisko', 'e.telefonKom', 'e.email', 'e.stru1', 'k.klientNazwa'])
      .where('c.pojazdId', '=', target.pojazdId).executeTakeFirstOrThrow();
    const station = STATIONS.find((s) => s.stacjaSerw === target.stacjaSerw)!;
    // the damage reported 4 days ago (soon), or for every third client 10 days ago (urgent)
    const damageAge = index % 3 === 2 ? -10 : -4;
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
      { ...byAdvisor, autTyp: 1, zgloInterw: 'NAPRAWA', zgloData: at(addDays(today, -2), '11:15'), zgloZakres: 'Wymiana sprzęgła — pedał sprzęgła wysoko',
        status: 1, cenaWidoczna: 'N', pricingConfirmed: true, uwagi: 'Kosztorys do akceptacji Fleet Managera.' },
      { ...byDriver, autTyp: 1, zgloInterw: 'NAPRAWA', zgloData: at(addDays(today, -4), '08:40'), zgloZakres: 'Stuki z zawieszenia tylnego',
        status: 10, cenaWidoczna: 'T', pricingConfirmed: true, uwagi: 'Prośba o doprecyzowanie zakresu naprawy przed akceptacją.' },
      { ...byDriver, autTyp: 0, zgloInterw: 'PRZEGLAD', zgloData: at(addDays(today, -1), '14:05'), zgloZakres: 'Przegląd okresowy, wymiana klocków hamulcowych',
        status: 0, cenaWidoczna: 'N', pricingConfirmed: false },
      { ...byDriver, autTyp: 3, zgloInterw: 'SZKODA', czySzkoda: true, zgloData: at(addDays(today, damageAge + 1), '17:20'), zgloZakres: 'Stłuczka na parkingu — wgnieciony błotnik przedni',
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
    // each station prices a little differently (the same estimate at every client would read as made up)
    const priced = positions.map((p) => ({ ...p, cena: Math.round(p.cena * (1 + (index % 5) * 0.07) * 100) / 100 }));
    await db.insertInto('order_position').values(priced.map((p) => ({ ...p, ogNetto: positionNet(p) }))).execute();
    // the moves that brought them where they are, as POST /api/order/{id}/transition records them:
    // by the station's advisor and the client's fleet manager (the administrator where there is none)
    const advisor = await accountOf(db, 'ADVISOR', { stacjaSerw: station.stacjaSerw });
    const manager = await accountOf(db, 'MANAGER', { klientSymbol: car.klientSymbol });
    await db.insertInto('order_transition').values([
      { autId: pricedId, fromStatus: 0, toStatus: 1, transition: 'submit', ...advisor, at: at(addDays(today, -1), '13:00') },
      { autId: hiddenId, fromStatus: 0, toStatus: 1, transition: 'submit', ...advisor, at: at(addDays(today, -1), '10:00') },
      { autId: clarifyId, fromStatus: 0, toStatus: 1, transition: 'submit', ...advisor, at: at(addDays(today, -3), '12:00') },
      { autId: clarifyId, fromStatus: 1, toStatus: 10, transition: 'clarify', ...manager, at: at(addDays(today, -2), '09:15') },
    ]).execute();
    await db.insertInto('damage').values({
      zrodloId: damageOrderId, nrSprawy: caseNumber(today.slice(0, 4), damageOrderId), etapZnacz: 'W likwidacji', nrZglosz: '-',
      dataSzkod: at(addDays(today, damageAge), '16:45'), rodzSzkod: 'Szkoda parkingowa', zpolisTyp: 'AC', pojazdId: car.pojazdId, rejestr: car.rejestr,
      pracId: car.pracId, stru1: car.stru1, stanLicz: car.aktStanLicz, nrPodw: car.nrPodw, rokProd: car.rokProd, pojNrVin: car.nrPodw, pojRokProd: car.rokProd,
      zgloNazwiskoImie: byDriver.zgloNazwiskoImie, zgloTelef: byDriver.zgloTelef ?? null, winaPrac: 'N', firmaZglosz: car.klientNazwa,
      dataZgloSzkody: at(addDays(today, damageAge + 1), '17:20'), dataZgloFm: at(addDays(today, damageAge + 1), '17:40'),
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
