/**
 * 002 — one read view per table resource, `v_<resource>`.
 *
 * The generic table mechanism reads only from these views: their columns are the entity's field
 * names (what the table shows and may sort/filter on) plus the scope columns the access policy
 * needs (`klientSymbol` for client scope, `pojazdId` for own-vehicle scope, `stacjaSerw` for
 * station scope). Secrets (password hashes) and file contents are never in a view.
 *
 * Views are plain (not materialised): PostgreSQL inlines them, so a filter on a view column that
 * comes from the base table still uses that table's indexes.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

/** `"a", "b"` qualified by an alias: q('c', ['x','y']) → c."x", c."y". */
const q = (alias: string, columns: string[]) => columns.map((c) => `${alias}."${c}"`).join(',\n    ');

const STRU = ['stru1', 'stru2', 'stru3', 'stru4', 'stru5', 'stru6', 'stru7', 'stru8'];

const CAR_COLUMNS = [
  'pojazdId', 'klientSymbol', 'pracId', 'stacjaSerw',
  'rejestr', 'nrPodw', 'marka', 'markaOpis', 'modelOpis', 'markaModel', 'rokProd', 'pojStatus', 'grupa', 'kategoria', 'dataRej',
  'aktStanLicz', 'aktDataLicz', 'stanPal', 'dataPrzeg', 'otOstatData', 'otOstatKm', 'otDoDaty', 'otDoKm',
  'serwisWFirmie', 'czyWydany', 'dataWyd', 'planLikData', 'planLikLicznik', 'zapasPrzekr',
  ...['oc', 'ac', 'nw', 'as'].flatMap((p) => ['Polisa', 'DataOd', 'DataDo', 'Firma', 'Kolor'].map((f) => p + f)),
  'kpalFirma', 'kpalNrKarty', 'kpalDataOd', 'kpalDataDo', 'kpalPin', 'kpalLimitMcIlosc', 'kpalLimitMcWartosc',
  'kontrKontraktNr', 'kontrDataOd', 'kontrDataDo', 'kontrLimitKmOgol',
];

const ORDER_COLUMNS = [
  'autId', 'autTyp', 'autNr', 'autData', 'zgloData', 'zgloPrzyjal', 'zgloKto', 'zgloTelef', 'zgloNazwiskoImie',
  'zgloEmail', 'zgloFirma', 'zgloInterw', 'zgloZakres', 'zlecZakres', 'uwagi', 'zlecNr', 'zlecTyp', 'zlecOpis',
  'firma', 'naprMiejsce', 'pojazdId', 'pracId', 'stru1', 'stanLicz', 'rejestr', 'markaOpis', 'modelOpis',
  'status', 'zatwierdzil', 'cenaWidoczna', 'uzytkPojazdu', 'czySzkoda', 'pricingConfirmed', 'terminNapr',
  'stacjaSerw', 'klientSymbol',
];

const DAMAGE_COLUMNS = [
  'sprawaId', 'zrodloId', 'nrSprawy', 'etapZnacz', 'nrZglosz', 'dataSzkod', 'rodzSzkod', 'zpolisTyp', 'pojazdId',
  'rejestr', 'pracId', 'pracIdPrzel', 'stru1', 'stanLicz', 'nrPodw', 'rokProd', 'pojNrVin', 'pojRokProd',
  'zgloNazwiskoImie', 'zgloTelef', 'zgloEmail', 'winaPrac', 'firmaZglosz', 'dataZgloSzkody', 'dataZgloFm',
  'opisSzkody', 'przyczynaSzkody', 'telefon', 'skadPolicja', 'holowanyData',
  'sprawcaNazImie', 'sprawcaMiejscow', 'sprawcaKodPoczt', 'sprawcaUlica', 'sprawcaPojRejestr', 'sprawcaPojMarka',
  'sprawcaPolisaOc', 'sprawcaFirmaTu', 'uwagi', 'klientSymbol',
];

const POSITION_COLUMNS = [
  'pozId', 'autId', 'uslRodzaj', 'rodzaj', 'czynnoscTyp', 'nrKatalog', 'tresc', 'typk', 'ilosc', 'cena',
  'rabatProc', 'ogNetto', 'markaOp', 'rozmiarOp', 'stanBieznika', 'autOk',
];

export const VIEWS: Record<string, string> = {
  // Vehicles with their current driver's contact data (the "Użytkownik pojazdu" fields).
  v_car: `
  select
    ${q('c', CAR_COLUMNS)},
    cl."klientNazwa",
    e."nazwisko", e."imie", e."telefon", e."telefonKom", e."email", e."mpk"
  from car c
  join client cl on cl."klient" = c."klientSymbol"
  left join employee e on e."pracId" = c."pracId"`,

  v_assignment: `
  select
    a."przydzialId",
    c."rejestr", c."marka", c."markaOpis", c."modelOpis",
    e."imie", e."nazwisko", e."nrPrac", e."mpk",
    ${q('a', ['dataWy', 'licznikWy', 'palWy', 'uwagiWy', 'opWydal', 'dataZd', 'licznikZd', 'palZd', 'palStanZd', 'uwagiZd', 'opOdebral', 'pojazdId', 'pracId'])},
    ${q('e', STRU)},
    a."klientSymbol"
  from vehicle_assignment a
  join car c on c."pojazdId" = a."pojazdId"
  join employee e on e."pracId" = a."pracId"`,

  // Orders list: damage rows are the service_order rows with czySzkoda (sprawaId opens the damage).
  // czyKosztorys / czyTermin feed the icon columns K (has cost estimate) and T (repair scheduled).
  v_order: `
  select
    ${q('o', ORDER_COLUMNS)},
    s."statusZnaczenie",
    it."nazwa" as "zgloInterwNazwa",
    d."sprawaId",
    exists (select 1 from order_position p where p."autId" = o."autId") as "czyKosztorys",
    (o."terminNapr" is not null) as "czyTermin"
  from service_order o
  join order_status s on s."code" = o."status"
  left join intervention_type it on it."kod" = o."zgloInterw"
  left join damage d on d."zrodloId" = o."autId"`,

  v_order_position: `
  select
    ${q('p', POSITION_COLUMNS)},
    o."cenaWidoczna", o."pricingConfirmed", o."klientSymbol", o."pojazdId", o."stacjaSerw"
  from order_position p
  join service_order o on o."autId" = p."autId"`,

  v_damage: `
  select
    ${q('d', DAMAGE_COLUMNS)},
    c."markaOpis", c."modelOpis"
  from damage d
  join car c on c."pojazdId" = d."pojazdId"`,

  // Users without their password hash.
  v_users: `
  select
    ${q('u', ['id', 'login', 'rola', 'firstName', 'lastName', 'email', 'telefon', 'telefonKom', 'dataOd', 'dataDo', 'pwdDo', 'klientSymbol', 'stacjaSerw', 'pracId', 'firstLogin', 'failedLogins', 'lockedUntil', 'createdAt'])},
    cl."klientNazwa",
    st."nazwa" as "stacjaNazwa"
  from app_user u
  left join client cl on cl."klient" = u."klientSymbol"
  left join service_station st on st."stacjaSerw" = u."stacjaSerw"`,

  v_login_history: `
  select "id", "login", "loginDate", "uwagi", "rola", "rodzaj", "success"
  from login_history`,

  v_invoice: `
  select
    i."faktId", i."faktNrCaly", i."faktDataWyst",
    i."klientSymbol" as "klient",
    cl."klientNazwa",
    i."dokument", i."korFaktNrCaly", i."ogNetto", i."ogVat", i."ogBrutto", i."dataZap",
    (select count(*)::integer from invoice_file f where f."faktId" = i."faktId") as "iloscZal",
    i."klientSymbol"
  from invoice i
  join client cl on cl."klient" = i."klientSymbol"`,

  v_fuel_card: `
  select
    ${q('k', ['kartaId', 'nrKarty', 'firma', 'dataOd', 'dataDo', 'pin', 'status', 'rodzKarty', 'pracPoja', 'uwagi', 'limWaMiePal', 'katPal', 'prodPozaPal'])},
    c."rejestr",
    k."pojazdId", k."pracId", k."klientSymbol"
  from fuel_card k
  left join car c on c."pojazdId" = k."pojazdId"`,

  // dataTyp drives the filter Aktualne / Archiwalne / Wszystkie: 'current' while dataDo is today or
  // later (or open-ended), 'archive' afterwards. current_date is the Polish day (session time zone).
  v_contract: `
  select
    k."kontraktId", k."umowaNr", k."limitKmOgol", k."oplPrzekmIle",
    p."opmRataTresc", p."opmRataIle", p."opmSerwTresc", p."opmSerwIle", p."opmUbezTresc", p."opmUbezIle",
    c."rejestr", k."dataOd", k."dataDo",
    case when k."dataDo" is null or k."dataDo" >= current_date then 'current' else 'archive' end as "dataTyp",
    k."pojazdId", k."klientSymbol"
  from contract k
  left join car c on c."pojazdId" = k."pojazdId"
  left join lateral (
    select
      string_agg(x."tresc", ', ' order by x."pozId") filter (where x."rodzaj" = 'RATA') as "opmRataTresc",
      sum(x."ile") filter (where x."rodzaj" = 'RATA') as "opmRataIle",
      string_agg(x."tresc", ', ' order by x."pozId") filter (where x."rodzaj" = 'SERW') as "opmSerwTresc",
      sum(x."ile") filter (where x."rodzaj" = 'SERW') as "opmSerwIle",
      string_agg(x."tresc", ', ' order by x."pozId") filter (where x."rodzaj" = 'UBEZ') as "opmUbezTresc",
      sum(x."ile") filter (where x."rodzaj" = 'UBEZ') as "opmUbezIle"
    from contract_position x
    where x."kontraktId" = k."kontraktId"
  ) p on true`,

  v_tire: `
  select
    t."oponaId", t."statusOp", t."miejscow", c."rejestr",
    ${q('t', ['rodzajOp', 'markaOp', 'rozmiarOp', 'bieznikOp', 'stanBieznika', 'dataZmianyOp', 'magazynSkladOpis', 'firmaSkladNazwa', 'pojazdId', 'klientSymbol'])}
  from tire t
  left join car c on c."pojazdId" = t."pojazdId"`,

  v_unit: `
  select
    u."jednId", u."kod", u."nazwa", u."poziom", u."parentId",
    p."nazwa" as "parentNazwa",
    u."klient" as "klientSymbol"
  from unit u
  left join unit p on p."jednId" = u."parentId"`,

  v_employee: `
  select
    ${q('e', ['pracId', 'nazwisko', 'imie', 'nrPrac', 'kodStan', 'email', 'telefon', 'telefonKom', 'kodPoczt', 'miejscow', 'ulica', 'dataJednOd', 'jednId', 'mpk', ...STRU])},
    u."nazwa" as "jednNazwa",
    e."klient" as "klientSymbol"
  from employee e
  left join unit u on u."jednId" = e."jednId"`,

  // Notes take the scope of the order (AUTORY) or damage (SZKODY) they belong to.
  v_note: `
  select
    n."id", n."data", n."autor", n."tresc", n."zrodlo", n."zrodloId", n."userId",
    coalesce(o."klientSymbol", d."klientSymbol") as "klientSymbol",
    coalesce(o."pojazdId", d."pojazdId") as "pojazdId",
    o."stacjaSerw"
  from note n
  left join service_order o on n."zrodlo" = 'AUTORY' and o."autId" = n."zrodloId"
  left join damage d on n."zrodlo" = 'SZKODY' and d."sprawaId" = n."zrodloId"`,

  // Attachments (without content) take the scope of their parent record.
  v_attachment: `
  select
    ${q('a', ['zalaczId', 'grupa', 'parentId', 'tytul', 'opis', 'filename', 'mime', 'size', 'dataMod', 'userId'])},
    coalesce(pa."klientSymbol", c."klientSymbol", o."klientSymbol", d."klientSymbol") as "klientSymbol",
    coalesce(pa."pojazdId", c."pojazdId", o."pojazdId", d."pojazdId") as "pojazdId",
    o."stacjaSerw"
  from attachment a
  left join vehicle_assignment pa on a."grupa" = 'SA_PRZYDZ' and pa."przydzialId" = a."parentId"
  left join car c on a."grupa" = 'SA_POJA' and c."pojazdId" = a."parentId"
  left join service_order o on a."grupa" = 'SA_AUTO' and o."autId" = a."parentId"
  left join damage d on a."grupa" = 'SA_SZKODY' and d."sprawaId" = a."parentId"`,

  // Acceptance history (spec: login, name, surname, client, templateName, group, acceptedAt).
  v_terms_acceptance: `
  select
    ta."id", ta."userId", u."login",
    u."firstName" as "name", u."lastName" as "surname",
    cl."klientNazwa" as "client",
    ta."templateId", t."name" as "templateName", t."grupa" as "group",
    ta."acceptedAt",
    u."klientSymbol"
  from terms_acceptance ta
  join app_user u on u."id" = ta."userId"
  join terms_template t on t."id" = ta."templateId"
  left join client cl on cl."klient" = u."klientSymbol"`,
};

export const VIEW_NAMES = Object.keys(VIEWS);

export const migration002: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, Object.entries(VIEWS).map(([name, body]) => `create view ${name} as ${body}`));
  },
  async down(db: Kysely<any>) {
    await runStatements(db, VIEW_NAMES.map((name) => `drop view if exists ${name}`));
  },
};
