/**
 * The demo data of the client variants (issue 15): each `client-variants/<name>/demo.json` names
 * its own client, organisation, employees, vehicles, accounts and a few orders, so that a variant
 * can be seen working by signing in as its users (docs/variants.md). An implementer adds a
 * variant's demo data by writing that file; nothing here names a variant.
 *
 * `readVariantDemos` validates every file (schemas/meta/variant-demo.schema.json, plus the
 * references between its parts) and is run by `npm run check`; `seedVariantDemos` inserts them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { VariantDemoFile } from '../../runtime/core/generated/meta.ts';
import { hashPassword } from '../auth/password.ts';
import type { ConfigProblem } from '../config/bundle.ts';
import { ConfigError, createMetaValidator, describeSchemaErrors } from '../config/load-bundle.ts';
import { COMPANIES, STATIONS } from './data.ts';
import { addDays, at } from './sql-util.ts';
import { SHOWCASE_SLOTS, showcaseCar, type ShowcaseTarget } from './reminder-showcase.ts';
import type { DB } from '../db/types.generated.ts';

export interface VariantDemo { variant: string; file: string; demo: VariantDemoFile }

/** Every variant's demo.json, validated; any mistake (file, JSON pointer, reason) fails the whole read. */
export function readVariantDemos(root: string): VariantDemo[] {
  const dir = join(root, 'client-variants');
  if (!existsSync(dir)) return [];
  const ajv = createMetaValidator(root);
  const validate = ajv.getSchema('meta/variant-demo');
  if (!validate) throw new Error('schemas/meta/variant-demo.schema.json is missing');
  const problems: ConfigProblem[] = [];
  const demos: VariantDemo[] = [];
  const clients = new Map<string, string>();
  for (const variant of readdirSync(dir).sort()) {
    const file = `client-variants/${variant}/demo.json`;
    if (!statSync(join(dir, variant)).isDirectory() || !existsSync(join(root, file))) continue;
    let demo: VariantDemoFile;
    try {
      demo = JSON.parse(readFileSync(join(root, file), 'utf8'));
    } catch (e) {
      problems.push({ file, pointer: '', reason: `not valid JSON: ${(e as Error).message}` });
      continue;
    }
    if (!validate(demo)) {
      problems.push(...describeSchemaErrors(validate.errors).map((p) => ({ file, ...p })));
      continue;
    }
    const other = clients.get(demo.client.klient);
    if (other) problems.push({ file, pointer: '/client/klient', reason: `client "${demo.client.klient}" is the demo client of ${other} too` });
    clients.set(demo.client.klient, file);
    problems.push(...referenceProblems(demo).map((p) => ({ file, ...p })));
    demos.push({ variant, file, demo });
  }
  if (problems.length) throw new ConfigError(problems);
  return demos;
}

/** What the schema cannot say: the names one part of the file gives another must exist. */
function referenceProblems(demo: VariantDemoFile): Omit<ConfigProblem, 'file'>[] {
  const problems: Omit<ConfigProblem, 'file'>[] = [];
  const employees = new Set((demo.employees ?? []).map((e) => e.nrPrac));
  const vehicles = new Set((demo.vehicles ?? []).map((v) => v.rejestr));
  const logins = new Set((demo.users ?? []).map((u) => u.login));
  const stations = new Set(STATIONS.map((s) => s.stacjaSerw));
  const unique = (list: string[], pointer: (i: number) => string, what: string) => list.forEach((value, i) => {
    if (list.indexOf(value) !== i) problems.push({ pointer: pointer(i), reason: `${what} "${value}" is given twice` });
  });
  unique((demo.employees ?? []).map((e) => e.nrPrac), (i) => `/employees/${i}/nrPrac`, 'employee number');
  unique([...vehicles], (i) => `/vehicles/${i}/rejestr`, 'registration');
  unique((demo.users ?? []).map((u) => u.login), (i) => `/users/${i}/login`, 'login');
  (demo.vehicles ?? []).forEach((v, i) => {
    if (v.driver && !employees.has(v.driver)) problems.push({ pointer: `/vehicles/${i}/driver`, reason: `no employee with nrPrac "${v.driver}" in /employees` });
    if (v.stacjaSerw && !stations.has(v.stacjaSerw)) problems.push({ pointer: `/vehicles/${i}/stacjaSerw`, reason: `no station "${v.stacjaSerw}" (${[...stations].join(', ')})` });
  });
  (demo.users ?? []).forEach((u, i) => {
    if (u.rola === 'USER' && !(u.employee && employees.has(u.employee))) problems.push({ pointer: `/users/${i}/employee`, reason: 'a USER account needs the nrPrac of one of /employees' });
    if (u.rola === 'ADVISOR' && !(u.stacjaSerw && stations.has(u.stacjaSerw))) problems.push({ pointer: `/users/${i}/stacjaSerw`, reason: `an ADVISOR account needs a station (${[...stations].join(', ')})` });
  });
  (demo.orders ?? []).forEach((o, i) => {
    if (!vehicles.has(o.vehicle)) problems.push({ pointer: `/orders/${i}/vehicle`, reason: `no vehicle "${o.vehicle}" in /vehicles` });
    if (!logins.has(o.reportedBy)) problems.push({ pointer: `/orders/${i}/reportedBy`, reason: `no account "${o.reportedBy}" in /users` });
  });
  return problems;
}

/** Vehicles and orders the demo files add: the seed takes them off the generated rows so the totals stay as asked. */
export function variantDemoSizes(demos: VariantDemo[]) {
  return {
    cars: demos.reduce((n, d) => n + (d.demo.vehicles?.length ?? 0), 0),
    orders: demos.reduce((n, d) => n + (d.demo.orders?.length ?? 0), 0),
  };
}

/** Kilometres a day the variants' vehicles drive (their handover readings count back at this rate too). */
const KM_PER_DAY = 40;
/** Readings written per vehicle: the current one and one every 30 days before it. */
const READINGS = 14;

/**
 * Inserts each variant's demo data. Its accounts have signed in before (current terms accepted,
 * password not to be changed) and share `password`; dates count back from `today`. Its vehicles
 * (the first SHOWCASE_SLOTS) are the client's showcase of the reminders (reminder-showcase.ts),
 * with a contract, a fuel card and a year of readings each; the answer names, per client, the
 * vehicle its showcase orders go to (the last one).
 */
export async function seedVariantDemos(db: Kysely<DB>, demos: VariantDemo[], today: string, password: string): Promise<ShowcaseTarget[]> {
  if (!demos.length) return [];
  const passwordHash = await hashPassword(password);
  const templates = await db.selectFrom('terms_template').select('id').where('current', '=', true).execute();
  const targets: ShowcaseTarget[] = [];
  for (const { demo } of demos) {
    const target = await seedOne(db, demo, today, passwordHash, templates.map((t) => t.id));
    if (target) targets.push(target);
  }
  return targets;
}

async function seedOne(db: Kysely<DB>, demo: VariantDemoFile, today: string, passwordHash: string, templateIds: number[]): Promise<ShowcaseTarget | undefined> {
  const { client } = demo;
  await db.insertInto('client').values(client).execute();

  // the organisational path, level by level; everyone of the demo sits at its end
  let parentId: number | null = null;
  const stru: Record<string, string> = {};
  for (const [i, nazwa] of demo.units.entries()) {
    const row: { jednId: number } = await db.insertInto('unit').values({ klient: client.klient, nazwa, kod: `${client.klient}-${i + 1}`, poziom: i + 1, parentId })
      .returning('jednId').executeTakeFirstOrThrow();
    parentId = row.jednId;
    stru[`stru${i + 1}`] = nazwa;
  }
  const mpk = `MPK-${client.klient}`;

  const pracIds = new Map<string, number>();
  for (const e of demo.employees ?? []) {
    const row = await db.insertInto('employee').values({
      ...e, klient: client.klient, miejscow: e.miejscow ?? client.miejscow, dataJednOd: addDays(today, -700), jednId: parentId, mpk, ...stru,
    }).returning('pracId').executeTakeFirstOrThrow();
    pracIds.set(e.nrPrac, row.pracId);
  }

  const cars = new Map<string, { pojazdId: number; pracId: number | null; driver: string | null; markaOpis: string; modelOpis: string; aktStanLicz: number; stacjaSerw: string }>();
  const leasing = await db.selectFrom('company').select('firmaId').where('firma', '=', 'PCFMLEASING').executeTakeFirst();
  let target: ShowcaseTarget | undefined;
  for (const [i, v] of (demo.vehicles ?? []).entries()) {
    const { driver, handedOverDaysAgo, insurer, ...car } = v;
    const pracId = driver ? pracIds.get(driver)! : null;
    const handedOver = addDays(today, -(handedOverDaysAgo ?? 400));
    const stacjaSerw = v.stacjaSerw ?? STATIONS[0].stacjaSerw;
    const policy = insurer ? Object.fromEntries(['oc', 'ac', 'nw', 'as'].flatMap((p) => [
      [`${p}Polisa`, `${p.toUpperCase()}/${v.rejestr}`], [`${p}DataOd`, addDays(today, -120)], [`${p}DataDo`, addDays(today, 245)], [`${p}Firma`, insurer], [`${p}Kolor`, 'green'],
    ])) : {};
    const contractNo = `UM/${client.klient}/${String(i + 1).padStart(4, '0')}`;
    const card = `7079${client.klient.replace(/\D/g, '').padStart(4, '0')}${String(i + 1).padStart(8, '0')}`;
    const usual = {
      aktDataLicz: addDays(today, -3), dataPrzeg: addDays(today, 150), kontrDataDo: addDays(today, 700), kontrLimitKmOgol: v.aktStanLicz + 90_000,
      kpalDataDo: addDays(today, 700), otDoDaty: addDays(today, 200), otDoKm: v.aktStanLicz + 20_000, planLikData: addDays(today, 900), planLikLicznik: v.aktStanLicz + 100_000,
    };
    // the first vehicles are the client's showcase of the reminders: their due dates and limits around today
    const showcase = i < SHOWCASE_SLOTS ? showcaseCar(i, today, { km: v.aktStanLicz, kmPerDay: KM_PER_DAY, insurer: insurer ?? null, fuelCard: true }) : {};
    const values = {
      ...car, ...policy, klientSymbol: client.klient, pracId, stacjaSerw, pojStatus: 'Aktywny', grupa: v.grupa ?? 'Osobowe', kategoria: v.kategoria ?? 'B',
      dataRej: `${v.rokProd}-03-01`, serwisWFirmie: 'N', czyWydany: pracId !== null, dataWyd: pracId !== null ? handedOver : null,
      kontrKontraktNr: contractNo, kontrDataOd: addDays(today, -700),
      kpalFirma: 'ORLEN S.A.', kpalNrKarty: card, kpalDataOd: addDays(today, -700), kpalLimitMcIlosc: 200, kpalLimitMcWartosc: 1500,
      ...usual, ...showcase,
    };
    const row = await db.insertInto('car').values(values).returning('pojazdId').executeTakeFirstOrThrow();
    await db.insertInto('fuel_card').values({
      klientSymbol: client.klient, pojazdId: row.pojazdId, pracId, nrKarty: card, firma: values.kpalFirma, dataOd: values.kpalDataOd,
      dataDo: values.kpalDataDo!, status: values.kpalDataDo! < today ? 'Wygasła' : 'Aktywna', rodzKarty: 'Flotowa',
      pracPoja: pracId === null ? 'Pojazd' : 'Pracownik i pojazd', limWaMiePal: values.kpalLimitMcWartosc, katPal: 'ON', prodPozaPal: 'N',
    }).execute();
    const contract = await db.insertInto('contract').values({
      umowaNr: contractNo, pojazdId: row.pojazdId, klientSymbol: client.klient, firmaId: leasing?.firmaId ?? null, dataOd: values.kontrDataOd,
      dataDo: values.kontrDataDo!, limitKmOgol: values.kontrLimitKmOgol!, oplPrzekmIle: 0.15,
    }).returning('kontraktId').executeTakeFirstOrThrow();
    await db.insertInto('contract_position').values([
      { kontraktId: contract.kontraktId, rodzaj: 'RATA', tresc: 'Rata leasingowa', ile: 1650 },
      { kontraktId: contract.kontraktId, rodzaj: 'SERW', tresc: 'Obsługa serwisowa', ile: 210 },
      { kontraktId: contract.kontraktId, rodzaj: 'UBEZ', tresc: 'Pakiet ubezpieczeń OC/AC/NW/AS', ile: 280 },
    ]).execute();
    // a reading every 30 days back from the current one, KM_PER_DAY apart
    const last = values.aktDataLicz!;
    await db.insertInto('mileage_reading').values(Array.from({ length: READINGS }, (_, k) => ({
      pojazdId: row.pojazdId, licznik: Math.max(v.aktStanLicz - KM_PER_DAY * 30 * k, 0), palStan: k === 0 ? 30 : 15 + (k * 11) % 40,
      data: at(addDays(last, -30 * k), '17:30'),
    }))).execute();
    if (i < SHOWCASE_SLOTS) target = { pojazdId: row.pojazdId, stacjaSerw };
    const employee = (demo.employees ?? []).find((e) => e.nrPrac === driver);
    cars.set(v.rejestr, { pojazdId: row.pojazdId, pracId, driver: employee ? `${employee.imie} ${employee.nazwisko}` : null, markaOpis: v.markaOpis, modelOpis: v.modelOpis, aktStanLicz: v.aktStanLicz, stacjaSerw });
    if (pracId !== null) {
      await db.insertInto('vehicle_assignment').values({
        pojazdId: row.pojazdId, pracId, klientSymbol: client.klient, dataWy: at(handedOver, '09:00'),
        licznikWy: Math.max(v.aktStanLicz - KM_PER_DAY * (handedOverDaysAgo ?? 400), 10), palWy: 40, uwagiWy: 'Pojazd wydany z kompletem dokumentów.',
      }).execute();
    }
  }

  const userIds = new Map<string, { id: number; name: string; email?: string; telefon?: string }>();
  for (const u of demo.users ?? []) {
    const { employee, ...account } = u;
    const row = await db.insertInto('app_user').values({
      ...account, passwordHash, firstLogin: false, dataOd: addDays(today, -700), dataDo: addDays(today, 365), pwdDo: '2099-12-31',
      klientSymbol: u.rola === 'ADVISOR' ? null : client.klient, pracId: employee ? pracIds.get(employee) : null,
    }).returning('id').executeTakeFirstOrThrow();
    userIds.set(u.login, { id: row.id, name: `${u.lastName} ${u.firstName}`, email: u.email, telefon: u.telefon });
    if (u.rola !== 'ADVISOR' && templateIds.length) {
      await db.insertInto('terms_acceptance').values(templateIds.map((templateId) => ({ userId: row.id, templateId, acceptedAt: at(addDays(today, -30), '09:00') }))).execute();
    }
  }

  // the order's type and its name, from the intervention types the migrations hold
  const interventions = new Map((await db.selectFrom('intervention_type').select(['kod', 'autTyp', 'nazwa']).execute()).map((i) => [i.kod, i]));
  // an order the station took on (status 2 and on) was accepted by the client's fleet manager
  const fleetManager = (demo.users ?? []).find((u) => u.rola === 'MANAGER');
  for (const o of demo.orders ?? []) {
    const intervention = interventions.get(o.zgloInterw)!;
    const car = cars.get(o.vehicle)!;
    const user = userIds.get(o.reportedBy)!;
    const reporter = (demo.users ?? []).find((u) => u.login === o.reportedBy)!;
    const station = STATIONS.find((s) => s.stacjaSerw === car.stacjaSerw)!;
    const zgloData = addDays(today, -o.daysAgo);
    await db.insertInto('service_order').values({
      autTyp: intervention.autTyp, zgloInterw: o.zgloInterw, zgloZakres: o.zgloZakres, zlecZakres: o.zlecZakres ?? null,
      // the station names the order's type once it has taken the order on
      zlecTyp: o.status >= 2 ? intervention.nazwa : null,
      zatwierdzil: o.status >= 2 && fleetManager ? `${fleetManager.lastName} ${fleetManager.firstName}` : null, uzytkPojazdu: car.driver, status: o.status, zgloData: at(zgloData, '10:00'),
      zgloKto: reporter.rola, // who reported it: USER, MANAGER or ADVISOR, as the order table stores it
      zgloNazwiskoImie: user.name, zgloEmail: user.email ?? null, zgloTelef: user.telefon ?? null, zgloFirma: client.klientNazwa,
      stacjaSerw: station.stacjaSerw, firma: COMPANIES.find((c) => c.firma === station.firma)?.firmaNazwa ?? null, naprMiejsce: `${station.nazwa}, ${station.ulica}`,
      pojazdId: car.pojazdId, pracId: car.pracId, stru1: stru.stru1, rejestr: o.vehicle, markaOpis: car.markaOpis, modelOpis: car.modelOpis,
      stanLicz: Math.max(car.aktStanLicz - o.daysAgo * 40, 0), cenaWidoczna: 'T', pricingConfirmed: o.status >= 2, klientSymbol: client.klient,
      userId: user.id,
    }).execute();
  }
  return target;
}
