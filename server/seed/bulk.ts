/**
 * The bulk of the demo data, generated inside the database with generate_series
 * (INSERT … SELECT), so that 100 000 vehicles and 1 000 000 orders take minutes, not hours, and
 * the small default uses the very same code path.
 *
 * Every "random" choice is sqlHash(row number, salt): deterministic for a given seed option.
 * Rows that later statements address by arithmetic (employee g drives car g; order g belongs to
 * car 1 + (g-1) mod cars) get explicit ids base + g; their identity sequences are moved past
 * them afterwards.
 */
import { sql, type Insertable, type Kysely } from 'kysely';
import {
  CLIENTS, DAMAGE_KINDS, DAMAGE_STAGES, FEMALE_NAMES, FUEL_ISSUERS, INSURERS, MALE_NAMES, MODELS, NOTE_TEXTS,
  ORDER_SCOPES, RISK_TYPES, STATIONS, STREETS, SURNAMES, TOWNS, TYRE_BRANDS, COMPANIES, feminine,
} from './data.ts';
import type { UnitLeaf } from './demo.ts';
import { withBulkLoad } from './bulk-load.ts';
import { sqlHash } from './prng.ts';
import { attachmentFileName, invoiceFileName, renderInvoiceFiles, renderSharedInvoiceFiles, type BilledVehicle, type InvoiceFacts } from './invoice-pdfs.ts';
import { addDays, CASE_NUMBER_DIGITS, exec, int, lit, maxId, pick, syncIdentity, textArray } from './sql-util.ts';
import { readingAge, SHOWCASE_SLOTS, showcaseCar, type ShowcaseTarget } from './reminder-showcase.ts';
import type { DB, InvoiceFile } from '../db/types.generated.ts';

export interface BulkPlan {
  today: string;      // YYYY-MM-DD, the anchor of all relative dates
  salt: number;       // from the seed option
  cars: number;       // generated vehicles (besides the demo ones)
  orders: number;     // generated orders (besides the demo ones)
  loginHistory: number;
  leaves: UnitLeaf[];
  log: (msg: string) => void;
}

/** Tables the bulk statements fill (indexes and foreign keys deferred while loading). */
const BULK_TABLES = [
  'employee', 'car', 'vehicle_assignment', 'mileage_reading', 'fuel_card', 'contract', 'contract_position', 'tire',
  'service_order', 'order_position', 'damage', 'note', 'login_history',
];
/** Tables of seedInvoices, which runs once the variants' clients exist too. */
const INVOICE_TABLES = ['invoice', 'invoice_file'];

const NC = CLIENTS.length;
const KL = textArray(CLIENTS.map((c) => c.klient));
const CLIENT_NAMES = textArray(CLIENTS.map((c) => c.klientNazwa));
const DOMAINS = textArray(CLIENTS.map((c) => c.domain));
/** The fleet manager of each client (reporter and approver names on orders). */
const MANAGER_NAMES = textArray(CLIENTS.map((c) => c.fleetManager));
const ST_CODES = textArray(STATIONS.map((s) => s.stacjaSerw));
const ST_FIRMS = textArray(STATIONS.map((s) => COMPANIES.find((c) => c.firma === s.firma)!.firmaNazwa));
const ST_PLACES = textArray(STATIONS.map((s) => `${s.nazwa}, ${s.ulica}, ${s.kodPoczt} ${s.miejscow}`));
const ADVISOR_NAMES = textArray(STATIONS.map((s) => s.advisor));
const NS = STATIONS.length;

/**
 * Independent pseudo-random columns h1…hN for row number `g` (a lateral subquery body). Callers
 * close the subquery with OFFSET 0: that keeps the planner from inlining it, which would paste
 * the whole hash expression into every reference of hN and compute it again each time.
 */
function hashes(plan: Pick<BulkPlan, 'salt'>, stream: number, count: number, g = 'g'): string {
  return Array.from({ length: count }, (_, i) => `${sqlHash(g, plan.salt * 1000 + stream * 50 + i + 1)} as h${i + 1}`).join(',\n      ');
}

function timed(plan: Pick<BulkPlan, 'log'>, label: string) {
  const start = Date.now();
  return (rows: number) => plan.log(`  ${label}: ${rows} rows in ${((Date.now() - start) / 1000).toFixed(1)} s`);
}

export async function seedBulk(db: Kysely<DB>, plan: BulkPlan): Promise<{ carBase: number; empBase: number; orderBase: number; showcase: ShowcaseTarget[] }> {
  const empBase = await maxId(db, 'employee', 'pracId');
  const carBase = await maxId(db, 'car', 'pojazdId');
  const orderBase = await maxId(db, 'service_order', 'autId');
  const nEmp = plan.cars + Math.ceil(plan.cars / 10);
  let showcase: ShowcaseTarget[] = [];

  await withBulkLoad(db, BULK_TABLES, plan.log, async () => {
    await employees(db, plan, empBase, nEmp);
    await cars(db, plan, carBase, empBase);
    showcase = await showcaseVehicles(db, plan, carBase);
    await assignments(db, plan, carBase, empBase, nEmp);
    await vehicleChildren(db, plan, carBase);
    await orders(db, plan, orderBase, carBase);
    await orderChildren(db, plan, orderBase);
    await loginHistory(db, plan);
  });
  for (const [table, column] of [['employee', 'pracId'], ['car', 'pojazdId'], ['service_order', 'autId']]) {
    await syncIdentity(db, table, column);
  }
  return { carBase, empBase, orderBase, showcase };
}

async function employees(db: Kysely<DB>, plan: BulkPlan, base: number, n: number) {
  const done = timed(plan, 'employee');
  const leafN = plan.leaves.length / NC;
  const leaf = (field: keyof UnitLeaf) => textArray(plan.leaves.map((l) => String(l[field])));
  const jobs = ['Przedstawiciel handlowy', 'Kierownik regionu', 'Specjalista ds. logistyki', 'Serwisant', 'Kierowca', 'Doradca klienta'];
  done(await exec(db, `
    insert into employee ("pracId", "klient", "nazwisko", "imie", "nrPrac", "kodStan", "email", "telefon", "telefonKom",
      "kodPoczt", "miejscow", "ulica", "dataJednOd", "jednId", "mpk", "stru1", "stru2", "stru3")
    select ${base} + g, (${KL})[x.ci + 1], p.nazwisko, p.imie, lpad((${base} + g)::text, 6, '0'), ${pick(jobs, 'r.h4')},
      translate(lower(p.imie || '.' || p.nazwisko), 'ąćęłńóśźż', 'acelnoszz') || '@' || (${DOMAINS})[x.ci + 1],
      case when r.h5 % 3 = 0 then '22 ' || (600 + r.h6 % 300) || ' ' || lpad((r.h7 % 100)::text, 2, '0') || ' ' || lpad((r.h8 % 100)::text, 2, '0') end,
      '+48 ' || (500 + r.h6 % 300) || ' ' || lpad((r.h7 % 1000)::text, 3, '0') || ' ' || lpad((r.h8 % 1000)::text, 3, '0'),
      ${pick(TOWNS.map((t) => t.kodPoczt), 'r.h9')}, ${pick(TOWNS.map((t) => t.miejscow), 'r.h9')},
      ${pick(STREETS, 'r.h10')} || ' ' || (1 + r.h11 % 120),
      date ${lit(plan.today)} - (30 + r.h12 % 3000)::integer,
      (${leaf('jednId')})[x.li]::integer, (${leaf('mpk')})[x.li], (${leaf('stru1')})[x.li], (${leaf('stru2')})[x.li], (${leaf('stru3')})[x.li]
    from generate_series(1, ${int(n)}) g
    cross join lateral (select
      ${hashes(plan, 1, 12)} offset 0) r
    cross join lateral (select (g - 1) % ${NC} as ci, ((g - 1) % ${NC}) * ${leafN} + 1 + r.h3 % ${leafN} as li, r.h1 % 3 = 0 as female) x
    cross join lateral (select
      case when x.female then ${pick(FEMALE_NAMES, 'r.h2')} else ${pick(MALE_NAMES, 'r.h2')} end as imie,
      case when x.female then ${pick(SURNAMES.map(feminine), 'r.h11')} else ${pick(SURNAMES, 'r.h11')} end as nazwisko) p`));
}

async function cars(db: Kysely<DB>, plan: BulkPlan, base: number, empBase: number) {
  const done = timed(plan, 'car');
  const today = `date ${lit(plan.today)}`;
  const m = (field: 'marka' | 'markaOpis' | 'modelOpis' | 'wmi' | 'code') => `(${textArray(MODELS.map((x) => x[field]))})[x.mi]`;
  const plates = textArray(CLIENTS.flatMap((c) => c.plates)); // three prefixes per client
  // VIN: WMI(3) + model code(5) + check(1) + model-year letter(1) + plant(1) + serial(6) = 17.
  // Serials start at 200001, so no generated VIN ends in 000123 (WZ12345's) below 800 000 cars.
  const yearLetters = textArray(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'J', 'K', 'L', 'M', 'N', 'P', 'R', 'S', 'T', 'V', 'W', 'X', 'Y']);
  const insured = (p: string, n: number) => `
      ${lit(p.toUpperCase() + '/')} || extract(year from i.od) || '/' || lpad((${base} + g)::text, 7, '0') || '-${n}', i.od, i.do, i.firma, i.kolor`;
  done(await exec(db, `
    insert into car ("pojazdId", "klientSymbol", "pracId", "stacjaSerw", "rejestr", "nrPodw", "marka", "markaOpis", "modelOpis",
      "rokProd", "pojStatus", "grupa", "kategoria", "dataRej", "aktStanLicz", "aktDataLicz", "stanPal", "dataPrzeg",
      "otOstatData", "otOstatKm", "otDoDaty", "otDoKm", "serwisWFirmie", "czyWydany", "dataWyd", "planLikData", "planLikLicznik", "zapasPrzekr",
      "ocPolisa", "ocDataOd", "ocDataDo", "ocFirma", "ocKolor", "acPolisa", "acDataOd", "acDataDo", "acFirma", "acKolor",
      "nwPolisa", "nwDataOd", "nwDataDo", "nwFirma", "nwKolor", "asPolisa", "asDataOd", "asDataDo", "asFirma", "asKolor",
      "kpalFirma", "kpalNrKarty", "kpalDataOd", "kpalDataDo", "kpalPin", "kpalLimitMcIlosc", "kpalLimitMcWartosc",
      "kontrKontraktNr", "kontrDataOd", "kontrDataDo", "kontrLimitKmOgol")
    select ${base} + g, (${KL})[x.ci + 1], case when x.driver then ${empBase} + g end, (${ST_CODES})[1 + r.h1 % ${NS}],
      (${plates})[x.ci * 3 + 1 + r.h2 % 3] || (20000 + g)::text,
      ${m('wmi')} || ${m('code')} || (r.h3 % 10)::text || (${yearLetters})[1 + (x.rok - 2010) % 21] || 'P' || lpad(((g + 200000) % 1000000)::text, 6, '0'),
      ${m('marka')}, ${m('markaOpis')}, ${m('modelOpis')}, x.rok,
      case r.h6 % 20 when 0 then 'W serwisie' when 1 then 'Zawieszony' else 'Aktywny' end,
      case when ${m('modelOpis')} in ('RAV4', 'Duster') then 'SUV' else 'Osobowe' end, 'B', x.rej,
      x.km, ${today} - (r.h7 % 45)::integer, (r.h8 % 55)::numeric, ${today} + (r.h9 % 700)::integer - 2,
      x.ot, greatest(x.km - (r.h10 % 15000)::integer, 0), x.ot + 365, greatest(x.km - (r.h10 % 15000)::integer, 0) + 30000,
      case when r.h11 % 4 = 0 then 'T' else 'N' end, x.driver, case when x.driver then x.wyd end,
      -- five years after registration, or (for a vehicle already older) a date from a month ago to
      -- two and a half years ahead: a fleet renews its plan, so few liquidations are long overdue
      greatest((x.rej + interval '5 years')::date, ${today} + (r.h12 % 900)::integer - 3),
      greatest(150000 + (r.h12 % 3) * 25000, x.km + 20000 + (r.h12 % 60000)::integer), (r.h13 % 8000)::integer,
      ${insured('oc', 1)}, ${insured('ac', 2)}, ${insured('nw', 3)}, ${insured('as', 4)},
      case when x.card then ${pick(FUEL_ISSUERS, 'r.h14')} end,
      case when x.card then '7077' || lpad((${base} + g)::text, 12, '0') end,
      case when x.card then x.kontr end,
      case when x.card then ${today} + (r.h16 % 1100)::integer - 2 end,
      case when x.card then lpad((r.h15 % 10000)::text, 4, '0') end,
      case when x.card then 150 + (r.h16 % 6) * 50 end,
      case when x.card then 1000 + (r.h17 % 5) * 500 end,
      'UM/' || extract(year from x.kontr) || '/' || lpad((${base} + g)::text, 6, '0'), x.kontr, (x.kontr + interval '4 years')::date,
      (round((x.km + x.km::numeric / greatest(${today} - x.rej, 1) * ((x.kontr + interval '4 years')::date - ${today}))
        * (1.1 + (r.h18 % 30) / 100.0) / 1000) * 1000)::integer
    from generate_series(1, ${int(plan.cars)}) g
    cross join lateral (select
      ${hashes(plan, 2, 20)} offset 0) r
    cross join lateral (select
      (g - 1) % ${NC} as ci, 1 + r.h4 % ${MODELS.length} as mi, g % 10 <> 7 as driver, g % 5 <> 4 as card,
      extract(year from ${today})::integer - 1 - (r.h5 % 7)::integer as rok) x0
    cross join lateral (select x0.*,
      make_date(x0.rok, 1 + (r.h19 % 12)::integer, 1 + (r.h20 % 28)::integer) as rej,
      ${today} - (r.h8 % 330)::integer as ot) x1
    cross join lateral (select x1.*,
      greatest(((${today} - x1.rej) * (35 + r.h6 % 70))::integer, 100) as km,
      greatest(x1.rej, ${today} - (r.h13 % 1400)::integer) as kontr) x2
    cross join lateral (select x2.*, least(x2.kontr + (r.h3 % 20)::integer, ${today}) as wyd) x
    cross join lateral (select
      ${today} - (r.h9 % 366)::integer as od,
      ${today} - (r.h9 % 366)::integer + 364 as do,
      ${pick(INSURERS, 'r.h10')} as firma,
      case when ${today} - (r.h9 % 366)::integer + 364 < ${today} then 'red'
           when ${today} - (r.h9 % 366)::integer + 364 < ${today} + 30 then 'yellow' else 'green' end as kolor) i`));
  // Every tenth vehicle has no policies at all (the Polisy tab is disabled for it).
  await exec(db, `
    update car set ${['oc', 'ac', 'nw', 'as'].flatMap((p) => ['Polisa', 'DataOd', 'DataDo', 'Firma', 'Kolor'].map((f) => `"${p}${f}" = null`)).join(', ')}
    where "pojazdId" > ${base} and ("pojazdId" - ${base}) % 10 = 5`);
}

/** Generated vehicles of each client left as they are before its showcase vehicles (tests and the extra drivers use the first ones). */
const SHOWCASE_SKIP = 4;

/**
 * Each client's showcase vehicles (reminder-showcase.ts): after its first SHOWCASE_SKIP generated
 * vehicles, the next ones with policies, a fuel card and over a year of history get the slots'
 * due dates and limits, before their cards, contracts and readings are written from them. The
 * first of each client takes the client's showcase orders, priced by the client's station.
 */
async function showcaseVehicles(db: Kysely<DB>, plan: BulkPlan, carBase: number): Promise<ShowcaseTarget[]> {
  const candidates = await db.selectFrom('car')
    .select(['pojazdId', 'klientSymbol', 'aktStanLicz', 'dataRej', 'ocFirma', 'kpalNrKarty'])
    .where('pojazdId', '>', carBase).where('pojazdId', '<=', carBase + NC * (SHOWCASE_SKIP + 4 * SHOWCASE_SLOTS))
    .orderBy('pojazdId').execute();
  const old = addDays(plan.today, -420);
  const suits = (c: (typeof candidates)[number]) => c.kpalNrKarty !== null && c.ocFirma !== null && c.dataRej !== null && c.dataRej < old;
  const targets: ShowcaseTarget[] = [];
  for (const [ci, client] of CLIENTS.entries()) {
    const own = candidates.filter((c) => c.klientSymbol === client.klient);
    // the best after the first few, else (a small seed) whatever the client has
    const chosen = [...own.slice(SHOWCASE_SKIP).filter(suits), ...own.slice(SHOWCASE_SKIP).filter((c) => !suits(c)), ...own.slice(0, SHOWCASE_SKIP)]
      .slice(0, SHOWCASE_SLOTS);
    for (const [slot, car] of chosen.entries()) {
      const lastReading = addDays(plan.today, -readingAge(ci, slot));
      // the slope vehicleChildren gives its readings: the current reading over the days since registration
      const days = Math.max((Date.parse(lastReading) - Date.parse(car.dataRej ?? lastReading)) / 86_400_000, 1);
      const fields = showcaseCar(slot, plan.today, { km: car.aktStanLicz ?? 0, kmPerDay: (car.aktStanLicz ?? 0) / days, insurer: car.ocFirma, fuelCard: car.kpalNrKarty !== null }, ci);
      await db.updateTable('car').set(fields).where('pojazdId', '=', car.pojazdId).execute();
    }
    if (chosen.length) targets.push({ pojazdId: chosen[0].pojazdId, stacjaSerw: STATIONS[ci % NS].stacjaSerw });
  }
  return targets;
}

async function assignments(db: Kysely<DB>, plan: BulkPlan, carBase: number, empBase: number, nEmp: number) {
  const done = timed(plan, 'vehicle_assignment');
  const today = `date ${lit(plan.today)}`;
  const opening = `greatest((c."aktStanLicz"::bigint * (c."dataWyd" - c."dataRej") / greatest(${today} - c."dataRej", 1))::integer, 10)`;
  // The open handover of every vehicle with a driver…
  let rows = await exec(db, `
    insert into vehicle_assignment ("pojazdId", "pracId", "klientSymbol", "dataWy", "licznikWy", "palWy", "uwagiWy", "opWydal")
    select c."pojazdId", c."pracId", c."klientSymbol", c."dataWyd" + time '09:00', ${opening}, 30 + c."pojazdId" % 25,
      case when c."pojazdId" % 4 = 0 then 'Pojazd czysty, bez uszkodzeń.' end,
      (${MANAGER_NAMES})[1 + (c."pojazdId" - ${carBase} - 1) % ${NC}]
    from car c where c."pojazdId" > ${carBase} and c."pracId" is not null`);
  // …and, for every third vehicle, an earlier, closed one with a colleague from the same client.
  rows += await exec(db, `
    insert into vehicle_assignment ("pojazdId", "pracId", "klientSymbol", "dataWy", "licznikWy", "palWy", "opWydal",
      "dataZd", "licznikZd", "palZd", "palStanZd", "uwagiZd", "opOdebral")
    select c."pojazdId", ${empBase} + x.ge, c."klientSymbol", c."dataWyd" - 400 + time '08:30', greatest(${opening} - 30000, 0), 40,
      (${MANAGER_NAMES})[1 + x.ci], c."dataWyd" - 1 + time '16:00', greatest(${opening} - 20, greatest(${opening} - 30000, 0)), 15, 15,
      case when c."pojazdId" % 2 = 0 then 'Rysa na drzwiach kierowcy.' else 'Bez uwag.' end, (${MANAGER_NAMES})[1 + x.ci]
    from car c
    cross join lateral (select c."pojazdId" - ${carBase} as g, (c."pojazdId" - ${carBase} - 1) % ${NC} as ci) x0
    cross join lateral (select x0.ci, case when x0.g + ${NC} <= ${int(nEmp)} then x0.g + ${NC} else x0.g - ${NC} end as ge) x
    where c."pojazdId" > ${carBase} and c."pracId" is not null and x0.g % 3 = 0 and x.ge >= 1`);
  done(rows);
}

async function vehicleChildren(db: Kysely<DB>, plan: BulkPlan, carBase: number) {
  const today = `date ${lit(plan.today)}`;
  let done = timed(plan, 'mileage_reading');
  // A reading every 30 days back from the current one, over 13 months (the cockpit's kilometres per
  // month and the reminders' projections need a history), none before the registration. The slope
  // is the vehicle's average since registration, each month a little more or less
  // (f(k) = k + w(k) - w(0) with |w| <= 0.2 grows with k, so the readings only ever go up).
  const wobble = (k: string) => `(((${k}) * 7 + c."pojazdId") % 5 - 2) / 10.0`;
  done(await exec(db, `
    insert into mileage_reading ("pojazdId", "licznik", "palStan", "data")
    select c."pojazdId",
      greatest(c."aktStanLicz" - round(x.rate * 30 * (k.back + ${wobble('k.back')} - ${wobble('0')})), 0)::integer,
      case when k.back = 0 then c."stanPal" else (10 + (c."pojazdId" + k.back * 17) % 45)::numeric end,
      (c."aktDataLicz" - k.back * 30) + time '17:30'
    from car c
    cross join lateral (select c."aktStanLicz"::numeric / greatest(c."aktDataLicz" - c."dataRej", 1) as rate) x
    cross join generate_series(0, 13) k(back)
    where c."pojazdId" > ${carBase} and (k.back = 0 or c."aktDataLicz" - k.back * 30 >= c."dataRej")`));

  done = timed(plan, 'fuel_card');
  done(await exec(db, `
    insert into fuel_card ("klientSymbol", "pojazdId", "pracId", "nrKarty", "firma", "dataOd", "dataDo", "pin", "status",
      "rodzKarty", "pracPoja", "uwagi", "limWaMiePal", "katPal", "prodPozaPal")
    select c."klientSymbol", c."pojazdId", c."pracId", c."kpalNrKarty", c."kpalFirma", c."kpalDataOd", c."kpalDataDo", c."kpalPin",
      case when c."kpalDataDo" < ${today} then 'Wygasła' else 'Aktywna' end, 'Flotowa',
      case when c."pracId" is null then 'Pojazd' else 'Pracownik i pojazd' end,
      case when c."pojazdId" % 9 = 0 then 'Limit podniesiony na okres wakacyjny.' end,
      c."kpalLimitMcWartosc",
      (${textArray(MODELS.map((x) => x.fuel))})[array_position(${textArray(MODELS.map((x) => x.modelOpis))}, c."modelOpis")],
      case when c."pojazdId" % 3 = 0 then 'T' else 'N' end
    from car c where c."pojazdId" > ${carBase} and c."kpalNrKarty" is not null`));

  done = timed(plan, 'contract + contract_position');
  const contractBase = await maxId(db, 'contract', 'kontraktId');
  const leasing = `(select "firmaId" from company where "firma" = 'PCFMLEASING')`;
  let rows = await exec(db, `
    insert into contract ("umowaNr", "pojazdId", "klientSymbol", "firmaId", "dataOd", "dataDo", "limitKmOgol", "oplPrzekmIle")
    select c."kontrKontraktNr", c."pojazdId", c."klientSymbol", ${leasing}, c."kontrDataOd", c."kontrDataDo", c."kontrLimitKmOgol",
      0.12 + (c."pojazdId" % 5) * 0.04
    from car c where c."pojazdId" > ${carBase}`);
  // Archived predecessors (filter Archiwalne) for every fourth vehicle.
  rows += await exec(db, `
    insert into contract ("umowaNr", "pojazdId", "klientSymbol", "firmaId", "dataOd", "dataDo", "limitKmOgol", "oplPrzekmIle")
    select c."kontrKontraktNr" || '/P', c."pojazdId", c."klientSymbol", ${leasing}, (c."kontrDataOd" - interval '4 years')::date,
      c."kontrDataOd" - 1, 120000, 0.15
    from car c where c."pojazdId" > ${carBase} and c."pojazdId" % 4 = 0`);
  rows += await exec(db, `
    insert into contract_position ("kontraktId", "rodzaj", "tresc", "ile")
    select k."kontraktId", p.rodzaj, p.tresc, round((p.base + (k."kontraktId" * p.mult) % p.spread)::numeric, 2)
    from contract k
    cross join (values ('RATA', 'Rata leasingowa', 1200, 37, 1600), ('SERW', 'Obsługa serwisowa', 150, 13, 250),
                       ('UBEZ', 'Pakiet ubezpieczeń OC/AC/NW/AS', 200, 17, 250)) p(rodzaj, tresc, base, mult, spread)
    where k."kontraktId" > ${contractBase}`);
  done(rows);

  done = timed(plan, 'tire');
  const month = Number(plan.today.slice(5, 7));
  const onCar = month >= 4 && month <= 10 ? 'Letnie' : 'Zimowe';
  done(await exec(db, `
    insert into tire ("klientSymbol", "pojazdId", "statusOp", "miejscow", "rodzajOp", "markaOp", "rozmiarOp", "bieznikOp",
      "stanBieznika", "dataZmianyOp", "magazynSkladOpis", "firmaSkladNazwa")
    select c."klientSymbol", c."pojazdId", case when k.rodzaj = ${lit(onCar)} then 'Na pojeździe' else 'W magazynie' end,
      ${pick(TOWNS.map((t) => t.miejscow), `c."pojazdId" % 3`)}, k.rodzaj,
      ${pick(TYRE_BRANDS.map((b) => b[0]), `c."pojazdId" + k.n`)},
      (${textArray(MODELS.map((x) => x.tyre))})[array_position(${textArray(MODELS.map((x) => x.modelOpis))}, c."modelOpis")],
      ${pick(TYRE_BRANDS.map((b) => b[1]), `c."pojazdId" + k.n`)},
      (3 + (c."pojazdId" * 7 + k.n) % 11 * 0.5)::numeric(3,1),
      date ${lit(plan.today)} - (40 + c."pojazdId" % 150)::integer,
      case when k.rodzaj <> ${lit(onCar)} then 'Przechowalnia opon, ul. Przemysłowa 12, Warszawa' end,
      case when k.rodzaj <> ${lit(onCar)} then 'Oponiarz Przechowalnia Opon Sp. z o.o.' end
    from car c cross join (values ('Letnie', 0), ('Zimowe', 1)) k(rodzaj, n)
    where c."pojazdId" > ${carBase}`));
}

async function orders(db: Kysely<DB>, plan: BulkPlan, base: number, carBase: number) {
  const done = timed(plan, 'service_order');
  const today = `date ${lit(plan.today)}`;
  const scopeCase = Object.entries(ORDER_SCOPES).map(([typ, list]) => `when ${typ} then ${pick(list, 'r.h8')}`).join(' ');
  done(await exec(db, `
    insert into service_order ("autId", "autTyp", "autNr", "autData", "zgloData", "zgloPrzyjal", "zgloKto", "zgloTelef",
      "zgloNazwiskoImie", "zgloEmail", "zgloFirma", "zgloInterw", "zgloZakres", "zlecZakres", "uwagi", "zlecNr", "zlecTyp", "zlecOpis",
      "firma", "naprMiejsce", "stacjaSerw", "pojazdId", "pracId", "stru1", "stanLicz", "rejestr", "markaOpis", "modelOpis",
      "status", "zatwierdzil", "cenaWidoczna", "uzytkPojazdu", "czySzkoda", "pricingConfirmed", "terminNapr", "klientSymbol")
    select ${base} + g, t.typ,
      case when s.auth then 'AUT/' || to_char(t.zglo, 'YYYY') || '/' || lpad((${base} + g)::text, 7, '0') end,
      case when s.auth then t.zglo + interval '1 day' end,
      t.zglo,
      case when s.status > 0 then (${ADVISOR_NAMES})[t.si] end,
      s.kto,
      case when s.kto = 'USER' and e."pracId" is not null then e."telefonKom" else '22 500 ' || lpad((g % 100)::text, 2, '0') || ' 00' end,
      case when s.kto = 'USER' and e."pracId" is not null then e."nazwisko" || ' ' || e."imie"
           when s.kto = 'ADVISOR' then (${ADVISOR_NAMES})[t.si]
           when s.kto = 'ADMIN' then 'Zieliński Piotr'
           else (${MANAGER_NAMES})[t.ci] end,
      case when s.kto = 'USER' and e."pracId" is not null then e."email" else 'flota@' || (${DOMAINS})[t.ci] end,
      case when s.kto = 'ADVISOR' then (${ST_FIRMS})[t.si] else (${CLIENT_NAMES})[t.ci] end,
      (ARRAY['PRZEGLAD', 'NAPRAWA', 'OPONY', 'SZKODA', 'BADANIE', null, 'RAPORT'])[t.typ + 1],
      s.zakres,
      case when s.status between 2 and 6 then s.zakres end,
      case when r.h10 % 8 = 0 then ${pick(NOTE_TEXTS, 'r.h9')} end,
      case when s.auth then 'ZL/' || (${ST_CODES})[t.si] || '/' || to_char(t.zglo, 'YYYY') || '/' || lpad((${base} + g)::text, 7, '0') end,
      (ARRAY['Przegląd', 'Naprawa mechaniczna', 'Usługa oponiarska', 'Naprawa powypadkowa', 'Badanie techniczne', null, 'Raport'])[t.typ + 1],
      case when s.status between 2 and 6 then s.zakres end,
      (${ST_FIRMS})[t.si], (${ST_PLACES})[t.si], (${ST_CODES})[t.si],
      c."pojazdId", c."pracId", e."stru1",
      greatest(c."aktStanLicz" - (${today} - t.zglo::date) * 60, 0),
      c."rejestr", c."markaOpis", c."modelOpis",
      s.status,
      case when s.status between 2 and 6 then (${MANAGER_NAMES})[t.ci] end,
      -- prices are shown to the client once the order is authorised (and on a third of the others)
      case when s.status in (4, 5, 6) or r.h11 % 3 = 0 then 'T' else 'N' end,
      e."imie" || ' ' || e."nazwisko",
      t.typ = 3,
      s.status in (4, 5, 6),
      case when s.status in (4, 5) then t.zglo + interval '3 days' end,
      c."klientSymbol"
    from generate_series(1, ${int(plan.orders)}) g
    cross join lateral (select
      ${hashes(plan, 3, 11)} offset 0) r
    join car c on c."pojazdId" = ${carBase} + 1 + (g - 1) % ${int(plan.cars)}
    left join employee e on e."pracId" = c."pracId"
    cross join lateral (select
      case when g % 10 = 3 then 3 else (ARRAY[0, 0, 0, 1, 1, 1, 2, 4, 6])[1 + r.h1 % 9] end as typ,
      (${today} - (case when r.h1 % 3 = 0 then r.h2 % 90 else r.h2 % 1095 end)::integer) + make_interval(hours => 7 + (r.h3 % 10)::integer, mins => (r.h4 % 60)::integer) as zglo,
      1 + (c."pojazdId" - ${carBase} - 1) % ${NC} as ci,
      case when r.h5 % 10 < 7 and c."stacjaSerw" is not null then array_position(${ST_CODES}, c."stacjaSerw")
           else 1 + (r.h6 % ${NS})::integer end as si) t
    cross join lateral (select
      case when ${today} - t.zglo::date > 60 then (ARRAY[6, 6, 6, 6, 6, 6, 6, 7, 8])[1 + r.h7 % 9]
           when ${today} - t.zglo::date <= 2 then (ARRAY[0, 0, 1, 1, 10, 2, 4])[1 + r.h7 % 7]
           when r.h7 % 20 = 0 then (ARRAY[0, 1, 10])[1 + r.h8 % 3]
           else (ARRAY[2, 3, 4, 4, 5, 6, 6, 9])[1 + r.h7 % 8] end as status,
      case when t.typ = 3 then (ARRAY['USER', 'MANAGER'])[1 + r.h9 % 2]
           else (ARRAY['USER', 'USER', 'USER', 'USER', 'MANAGER', 'MANAGER', 'MANAGER', 'ADVISOR', 'ADVISOR', 'ADMIN'])[1 + r.h9 % 10] end as kto,
      case t.typ ${scopeCase} end as zakres) s0
    cross join lateral (select s0.*, s0.status in (4, 5, 6) as auth) s`));
}

async function orderChildren(db: Kysely<DB>, plan: BulkPlan, orderBase: number) {
  const today = `date ${lit(plan.today)}`;
  let done = timed(plan, 'order_position');
  const autOk = `case when o."status" in (4, 6) then 'V' when o."status" = 8 then 'X' when o."status" = 5 then (ARRAY['V', 'X'])[1 + o."autId" % 2] else '?' end`;
  // A cost estimate (two positions) on every authorised or closed non-damage order, and on every third other one.
  done(await exec(db, `
    insert into order_position ("autId", "uslRodzaj", "rodzaj", "czynnoscTyp", "nrKatalog", "tresc", "typk", "ilosc", "cena",
      "rabatProc", "markaOp", "rozmiarOp", "stanBieznika", "autOk", "ogNetto")
    select x."autId", x."uslRodzaj", x."rodzaj", x."czynnoscTyp", x."nrKatalog", x."tresc", x."typk", x."ilosc", x."cena",
      x."rabatProc", x."markaOp", x."rozmiarOp", x."stanBieznika", x."autOk",
      -- the net of runtime/core/order-values.ts (the server stores its figure since migration 010), in SQL for speed
      round((x."cena" - x."cena" * x."rabatProc" / 100.0) * x."ilosc", 2)
    from (select o."autId",
      case when o."autTyp" = 2 then null else k.n end as "uslRodzaj",
      case when k.n = 1 then 'podstawowa' else 'dodatkowa' end as "rodzaj",
      case when o."autTyp" = 2 then (ARRAY['Wymiana na letnie', 'Wymiana na zimowe', 'Depozyt', 'Naprawa'])[1 + (o."autId" + k.n) % 4]
           else 'Wykonaj' end as "czynnoscTyp",
      case when k.n = 2 and o."autTyp" <> 2 then 'KAT-' || lpad((o."autId" % 99991)::text, 5, '0') end as "nrKatalog",
      case when o."autTyp" = 2 then (ARRAY['Wymiana kompletu opon z wyważeniem', 'Przechowanie opon — sezon'])[k.n]
           when k.n = 1 then 'Robocizna — ' || coalesce(o."zgloZakres", 'usługa serwisowa')
           else ${pick(['Olej silnikowy 5W-30', 'Klocki hamulcowe przód', 'Filtr kabinowy', 'Akumulator 70 Ah', 'Pióra wycieraczek'], 'o."autId"')} end as "tresc",
      case when k.n = 1 then 'R' else 'M' end as "typk",
      case when k.n = 1 then 1 + (o."autId" % 3) * 0.5 else 1 + o."autId" % 4 end as "ilosc",
      case when k.n = 1 then 160 else 45 + (o."autId" % 20) * 15 end as "cena",
      (ARRAY[0, 0, 5, 10, 15])[1 + o."autId" % 5] as "rabatProc",
      case when o."autTyp" = 2 then ${pick(TYRE_BRANDS.map((b) => b[0]), 'o."autId"')} end as "markaOp",
      case when o."autTyp" = 2 then '205/55 R16' end as "rozmiarOp",
      case when o."autTyp" = 2 then 7 end as "stanBieznika",
      ${autOk} as "autOk"
    from service_order o cross join (values (1), (2)) k(n)
    where o."autId" > ${orderBase} and (o."autId" % 3 = 0 or o."status" in (4, 5, 6)) and not o."czySzkoda") x`));

  done = timed(plan, 'damage');
  const damageBase = await maxId(db, 'damage', 'sprawaId');
  done(await exec(db, `
    insert into damage ("zrodloId", "nrSprawy", "etapZnacz", "nrZglosz", "dataSzkod", "rodzSzkod", "zpolisTyp", "pojazdId", "rejestr",
      "pracId", "stru1", "stanLicz", "nrPodw", "rokProd", "pojNrVin", "pojRokProd", "zgloNazwiskoImie", "zgloTelef", "zgloEmail",
      "winaPrac", "firmaZglosz", "dataZgloSzkody", "dataZgloFm", "opisSzkody", "przyczynaSzkody", "telefon", "skadPolicja",
      "holowanyData", "sprawcaNazImie", "sprawcaMiejscow", "sprawcaKodPoczt", "sprawcaUlica", "sprawcaPojRejestr", "sprawcaPojMarka",
      "sprawcaPolisaOc", "sprawcaFirmaTu", "klientSymbol")
    select o."autId", 'SZK/' || to_char(o."zgloData", 'YYYY') || '/' || lpad(o."autId"::text, ${CASE_NUMBER_DIGITS}, '0'),
      case when o."status" in (6, 7, 8) or o."zgloData" < ${today} - 45 then 'Zakończona' else ${pick(DAMAGE_STAGES.filter((s) => s !== 'Zakończona'), 'r.h1')} end,
      case when r.h2 % 2 = 0 then 'TU/' || to_char(o."zgloData", 'YYYY') || '/' || lpad((r.h3 % 1000000)::text, 6, '0') else '-' end,
      x.dataszkod, x.rodzaj, ${pick(RISK_TYPES, 'r.h4')}, o."pojazdId", o."rejestr", o."pracId", o."stru1", o."stanLicz",
      c."nrPodw", c."rokProd", c."nrPodw", c."rokProd", o."zgloNazwiskoImie", o."zgloTelef", o."zgloEmail",
      x.wina, o."zgloFirma", o."zgloData", o."zgloData" + interval '30 minutes', o."zgloZakres",
      ${pick(['Nieustąpienie pierwszeństwa', 'Niedostosowanie prędkości', 'Manewr cofania', 'Śliska nawierzchnia', 'Zdarzenie losowe'], 'r.h5')},
      o."zgloTelef",
      case when x.rodzaj = 'Kolizja drogowa' then ${pick(TOWNS.map((t) => t.policja), 'r.h6')} end,
      case when r.h7 % 10 = 0 then x.dataszkod + interval '2 hours' end,
      case when x.sprawca then p.nazwisko || ' ' || p.imie end,
      case when x.sprawca then ${pick(TOWNS.map((t) => t.miejscow), 'r.h6')} end,
      case when x.sprawca then ${pick(TOWNS.map((t) => t.kodPoczt), 'r.h6')} end,
      case when x.sprawca then ${pick(STREETS, 'r.h8')} || ' ' || (1 + r.h9 % 90) end,
      case when x.sprawca then ${pick(['WW', 'KR', 'PO', 'GD', 'DW', 'EL'], 'r.h9')} || lpad((r.h10 % 100000)::text, 5, '0') end,
      case when x.sprawca then ${pick(MODELS.map((x) => `${x.markaOpis} ${x.modelOpis}`), 'r.h10')} end,
      case when x.sprawca then 'OC/' || lpad((r.h11 % 10000000)::text, 7, '0') end,
      case when x.sprawca then ${pick(['PZU', 'Warta', 'Hestia', 'Allianz', 'Generali', 'Link4'], 'r.h11')} end,
      o."klientSymbol"
    from service_order o
    join car c on c."pojazdId" = o."pojazdId"
    cross join lateral (select
      ${hashes(plan, 4, 11, 'o."autId"')} offset 0) r
    cross join lateral (select
      o."zgloData" - make_interval(days => 1 + (r.h1 % 3)::integer, hours => (r.h2 % 8)::integer) as dataszkod,
      ${pick(DAMAGE_KINDS, 'r.h3')} as rodzaj,
      case when r.h4 % 3 = 0 then 'T' else 'N' end as wina) x0
    cross join lateral (select x0.*, x0.wina = 'N' and x0.rodzaj in ('Kolizja drogowa', 'Szkoda parkingowa') as sprawca) x
    cross join lateral (select ${pick(MALE_NAMES, 'r.h5')} as imie, ${pick(SURNAMES, 'r.h7')} as nazwisko) p
    where o."autId" > ${orderBase} and o."czySzkoda"`));

  done = timed(plan, 'note');
  let rows = await exec(db, `
    insert into note ("data", "autor", "tresc", "zrodlo", "zrodloId")
    select o."zgloData" + interval '2 hours', coalesce(o."zgloPrzyjal", o."zgloNazwiskoImie"),
      ${pick(NOTE_TEXTS, 'o."autId"')}, 'AUTORY', o."autId"
    from service_order o where o."autId" > ${orderBase} and o."autId" % 7 = 0`);
  rows += await exec(db, `
    insert into note ("data", "autor", "tresc", "zrodlo", "zrodloId")
    select d."dataZgloFm" + interval '1 day', d."zgloNazwiskoImie",
      ${pick(['Dokumentacja zdjęciowa przekazana do TU.', 'Oczekujemy na oględziny rzeczoznawcy.', 'Poszkodowany przekazał oświadczenie sprawcy.'], 'd."sprawaId"')},
      'SZKODY', d."sprawaId"
    from damage d where d."sprawaId" > ${damageBase} and d."sprawaId" % 3 = 0`);
  done(rows);
}

export interface InvoicePlan {
  today: string;
  salt: number;
  invoices: number;
  /** Every client that gets invoices: the generated ones first, then the variants'. */
  clients: string[];
  /** How many of `clients` are generated ones (they share the invoices beyond everyone's first year). */
  generatedClients: number;
  log: (msg: string) => void;
}

/**
 * The invoices of every client, written once the variants' clients exist. The first year goes to
 * all clients in turn, each client's k-th invoice issued in the k-th month back from the seed's
 * month, so every client has one in each of the last 12 months (the cockpit's costs per month);
 * the rest to the generated clients in turn, month after month back again (a benchmark's many
 * invoices belong to its many vehicles, not to a variant's two).
 */
export async function seedInvoices(db: Kysely<DB>, plan: InvoicePlan): Promise<void> {
  await withBulkLoad(db, INVOICE_TABLES, plan.log, () => invoices(db, plan));
}

async function invoices(db: Kysely<DB>, plan: InvoicePlan) {
  const done = timed(plan, 'invoice + invoice_file');
  const base = await maxId(db, 'invoice', 'faktId');
  const n = plan.clients.length;
  const shared = plan.generatedClients;
  const year = 12 * n;
  const today = `date ${lit(plan.today)}`;
  // Every figure of invoice g is a function of g alone, so a correction can name its predecessor:
  // its client (index into clients), the how-manieth of that client (k), the same client's previous one.
  const clientOf = (g: string) => `(case when (${g}) <= ${year} then ((${g}) - 1) % ${n} else ((${g}) - ${year} - 1) % ${shared} end)`;
  const kOf = (g: string) => `(case when (${g}) <= ${year} then ((${g}) - 1) / ${n} else 12 + ((${g}) - ${year} - 1) / ${shared} end)`;
  const previous = (g: string) => `(case when (${g}) <= ${year} then (${g}) - ${n} when (${g}) - ${year} > ${shared} then (${g}) - ${shared} else (${g}) - ${year} + ${11 * n} end)`;
  const issued = (g: string) => `least(${today}, (date_trunc('month', ${today}::timestamp)
    - make_interval(months => ${kOf(g)} % 12))::date + (${sqlHash(g, plan.salt * 1000 + 5 * 50 + 40)} % 28)::integer)`;
  const number = (g: string) => `'FV/' || to_char(${issued(g)}, 'YYYY/MM') || '/' || lpad((${base} + ${g})::text, 6, '0')`;
  let rows = await exec(db, `
    insert into invoice ("faktId", "faktNrCaly", "faktDataWyst", "klientSymbol", "dokument", "korFaktNrCaly", "ogNetto", "ogVat", "ogBrutto", "dataZap")
    select ${base} + g, ${number('g')}, ${issued('g')}, (${textArray(plan.clients)})[1 + ${clientOf('g')}],
      case when g % 10 = 0 and g > ${n} then 'Faktura korygująca' else 'Faktura VAT' end,
      case when g % 10 = 0 and g > ${n} then ${number(previous('g'))} end,
      x.netto, round(x.netto * 0.23, 2), x.netto + round(x.netto * 0.23, 2),
      case when ${issued('g')} + 14 < date ${lit(plan.today)} then ${issued('g')} + 7 + (r.h2 % 10)::integer end
    from generate_series(1, ${int(plan.invoices)}) g
    cross join lateral (select
      ${hashes(plan, 5, 2)} offset 0) r
    cross join lateral (select round((300 + r.h1 % 14700 + (r.h2 % 100) / 100.0)::numeric, 2) as netto) x`);
  await syncIdentity(db, 'invoice', 'faktId');
  rows += await invoiceFiles(db, plan, base);
  done(rows);
}

/**
 * Invoices rendered one by one, newest first (the invoices table opens sorted by issue date,
 * newest first, so those are the ones a user opens). The default seed's 72 invoices are all
 * rendered; a benchmark seed of 100 000 invoices would take minutes and gigabytes, so beyond this
 * many the files are one shared, self-describing document per kind (docs/decisions.md).
 */
export const RENDERED_INVOICES = 300;
/** Billed vehicles are picked from the first this-many vehicles of the client. */
const BILLABLE_VEHICLES = 40;
/** Rows per INSERT of rendered files (each carries two PDFs of ~15 kB). */
const FILE_BATCH = 25;

/**
 * How many files invoice faktId has (iloscZal): 1 → the invoice (F), 2 → the invoice and its
 * attachment (F + A), 0 → none. The client follows faktId mod 3, so the count follows the next
 * digit in base 3: every client gets invoices of all three kinds, in turn.
 */
const fileCount = (faktId: number) => [1, 2, 0][Math.floor((faktId - 1) / 3) % 3];
const FILE_COUNT_SQL = `(array[1, 2, 0])[1 + ((i."faktId" - 1) / 3) % 3]`;

/** Writes the invoice_file rows of the new invoices; returns how many. */
async function invoiceFiles(db: Kysely<DB>, plan: InvoicePlan, base: number): Promise<number> {
  const withFiles = sql<boolean>`i."faktId" > ${base} and ${sql.raw(FILE_COUNT_SQL)} > 0`;
  const invoices = await db
    .selectFrom('invoice as i')
    .innerJoin('client as cl', 'cl.klient', 'i.klientSymbol')
    .select(['i.faktId', 'i.faktNrCaly', 'i.faktDataWyst', 'i.dokument', 'i.korFaktNrCaly', 'i.ogNetto', 'i.ogVat', 'i.ogBrutto', 'i.dataZap',
      'i.klientSymbol', 'cl.klientNazwa', 'cl.nip', 'cl.miejscow'])
    .where(withFiles)
    .orderBy('i.faktDataWyst', 'desc').orderBy('i.faktId', 'desc')
    .limit(RENDERED_INVOICES)
    .execute();
  const { rows: cars } = await sql<{ klientSymbol: string } & BilledVehicle>`
    select "klientSymbol", rejestr, "markaOpis", "modelOpis" from (
      select c.*, row_number() over (partition by "klientSymbol" order by "pojazdId") as n from car c) x
    where n <= ${BILLABLE_VEHICLES} order by "klientSymbol", "pojazdId"`.execute(db);
  const fleet = new Map<string, BilledVehicle[]>();
  for (const { klientSymbol, ...car } of cars) fleet.set(klientSymbol, [...(fleet.get(klientSymbol) ?? []), car]);

  let written = 0;
  for (let i = 0; i < invoices.length; i += FILE_BATCH) {
    const values: Insertable<InvoiceFile>[] = [];
    for (const inv of invoices.slice(i, i + FILE_BATCH)) {
      const facts = inv as InvoiceFacts & { klientSymbol: string };
      const files = await renderInvoiceFiles(facts, fleet.get(facts.klientSymbol) ?? [], fileCount(facts.faktId) === 2);
      values.push({ faktId: facts.faktId, kind: 'F', mime: 'application/pdf', filename: invoiceFileName(facts.faktNrCaly), content: files.invoice });
      if (files.attachment) {
        values.push({ faktId: facts.faktId, kind: 'A', mime: 'application/pdf', filename: attachmentFileName(facts.faktNrCaly), content: files.attachment });
      }
    }
    if (values.length) await db.insertInto('invoice_file').values(values).execute();
    written += values.length;
  }
  if (invoices.length < RENDERED_INVOICES) return written;

  // The rest (benchmark sizes only): the shared documents, named after their invoice all the same.
  const shared = await renderSharedInvoiceFiles();
  const result = await sql`
    insert into invoice_file ("faktId", "kind", "mime", "filename", "content")
    select i."faktId", k.kind, 'application/pdf',
      case k.kind when 'F' then 'Faktura ' else 'Załącznik do faktury ' end || translate(i."faktNrCaly", '/', '_') || '.pdf',
      case k.kind when 'F' then ${shared.invoice}::bytea else ${shared.attachment}::bytea end
    from invoice i cross join (values ('F'), ('A')) k(kind)
    where ${withFiles} and (k.kind = 'F' or ${sql.raw(FILE_COUNT_SQL)} = 2)
      and not exists (select 1 from invoice_file f where f."faktId" = i."faktId")`.execute(db);
  return written + Number(result.numAffectedRows ?? 0);
}

async function loginHistory(db: Kysely<DB>, plan: BulkPlan) {
  const done = timed(plan, 'login_history');
  const who: [string, string][] = [
    ['admin', 'ADMIN'], ['manager', 'MANAGER'], ['manager2', 'MANAGER'], ['manager3', 'MANAGER'], ['kierowca', 'USER'],
    ['kierowca2', 'USER'], ['kierowca3', 'USER'], ['doradca', 'ADVISOR'], ['doradca2', 'ADVISOR'], ['doradca3', 'ADVISOR'],
  ];
  done(await exec(db, `
    insert into login_history ("login", "loginDate", "uwagi", "rola", "rodzaj", "success")
    select (${textArray(who.map((w) => w[0]))})[x.u], timestamp ${lit(plan.today + ' 00:00')} - g * interval '47 minutes' - make_interval(secs => (r.h2 % 1800)::integer),
      case when x.ok then null else 'BAD_CREDENTIALS' end,
      (${textArray(who.map((w) => w[1]))})[x.u],
      case when not x.ok then 'SIGN_IN' when r.h3 % 5 = 0 then 'SIGN_OUT'
           when (${textArray(who.map((w) => w[1]))})[x.u] = 'ADVISOR' and r.h3 % 7 = 1 then 'VEHICLE_CHANGE' else 'SIGN_IN' end,
      x.ok
    from generate_series(1, ${int(plan.loginHistory)}) g
    cross join lateral (select
      ${hashes(plan, 6, 3)} offset 0) r
    cross join lateral (select 1 + (r.h1 % ${who.length})::integer as u, r.h3 % 12 <> 0 as ok) x`));
}
