/**
 * Polish demo vocabulary. Plain constants: the seed picks from them deterministically (in
 * TypeScript for the handful of named rows, in SQL by row number for the bulk rows).
 */

export interface DemoClient {
  klient: string; klientNazwa: string; nip: string; miejscow: string; domain: string;
  /** Registration prefixes of the client's region. */
  plates: string[];
  /** "Nazwisko Imię" of the client's fleet manager (reporter/approver on generated orders). */
  fleetManager: string;
}

/** Client 1 is the demo manager's, client 2 is manager2's. */
export const CLIENTS: DemoClient[] = [
  { klient: 'KL001', klientNazwa: 'Transbud Sp. z o.o.', nip: '5213456789', miejscow: 'Warszawa', domain: 'transbud.pl', plates: ['WZ', 'WA', 'WI'], fleetManager: 'Nowak Anna' },
  { klient: 'KL002', klientNazwa: 'Mleczpol S.A.', nip: '6762345678', miejscow: 'Kraków', domain: 'mleczpol.pl', plates: ['KR', 'KK', 'KWI'], fleetManager: 'Wiśniewski Tomasz' },
  { klient: 'KL003', klientNazwa: 'Agrotech Sp. z o.o.', nip: '7792345671', miejscow: 'Poznań', domain: 'agrotech.pl', plates: ['PO', 'PZ', 'PN'], fleetManager: 'Kaczmarek Ewa' },
];

export interface DemoCompany { firma: string; firmaNazwa: string; nip: string; rodzaj: string; miejscow: string }

export const COMPANIES: DemoCompany[] = [
  { firma: 'KOWALCZYK', firmaNazwa: 'Auto-Serwis Kowalczyk Sp. j.', nip: '5252112233', rodzaj: 'SERWIS', miejscow: 'Warszawa' },
  { firma: 'MOTORKRK', firmaNazwa: 'Motor-Kraków Sp. z o.o.', nip: '6792233445', rodzaj: 'SERWIS', miejscow: 'Kraków' },
  { firma: 'PCS', firmaNazwa: 'Poznańskie Centrum Serwisowe Sp. z o.o.', nip: '7822334455', rodzaj: 'SERWIS', miejscow: 'Poznań' },
  { firma: 'ACGDANSK', firmaNazwa: 'Auto Centrum Gdańsk S.A.', nip: '5842334456', rodzaj: 'SERWIS', miejscow: 'Gdańsk' },
  { firma: 'ORLEN', firmaNazwa: 'ORLEN S.A.', nip: '7740001454', rodzaj: 'PALIWO', miejscow: 'Płock' },
  { firma: 'BP', firmaNazwa: 'BP Europa SE Oddział w Polsce', nip: '5272522200', rodzaj: 'PALIWO', miejscow: 'Kraków' },
  { firma: 'SHELL', firmaNazwa: 'Shell Polska Sp. z o.o.', nip: '5260206000', rodzaj: 'PALIWO', miejscow: 'Warszawa' },
  { firma: 'PZU', firmaNazwa: 'PZU SA', nip: '5260251049', rodzaj: 'UBEZPIECZYCIEL', miejscow: 'Warszawa' },
  { firma: 'WARTA', firmaNazwa: 'TUiR Warta S.A.', nip: '5210422675', rodzaj: 'UBEZPIECZYCIEL', miejscow: 'Warszawa' },
  { firma: 'HESTIA', firmaNazwa: 'STU Ergo Hestia SA', nip: '5850001690', rodzaj: 'UBEZPIECZYCIEL', miejscow: 'Sopot' },
  { firma: 'ALLIANZ', firmaNazwa: 'TUiR Allianz Polska S.A.', nip: '5261007055', rodzaj: 'UBEZPIECZYCIEL', miejscow: 'Warszawa' },
  { firma: 'PCFMLEASING', firmaNazwa: 'Partner CFM Leasing Sp. z o.o.', nip: '5213300112', rodzaj: 'LEASING', miejscow: 'Warszawa' },
  { firma: 'OPONIARZ', firmaNazwa: 'Oponiarz Przechowalnia Opon Sp. z o.o.', nip: '5213300998', rodzaj: 'OPONY', miejscow: 'Warszawa' },
];

export interface DemoStation {
  stacjaSerw: string; nazwa: string; firma: string; miejscow: string; kodPoczt: string; ulica: string; telefon: string;
  /** "Nazwisko Imię" of the station's service advisor. */
  advisor: string;
}

/** SS01 is the demo advisor's station. */
export const STATIONS: DemoStation[] = [
  { stacjaSerw: 'SS01', nazwa: 'Auto-Serwis Kowalczyk Warszawa', firma: 'KOWALCZYK', miejscow: 'Warszawa', kodPoczt: '02-495', ulica: 'ul. Połczyńska 31', telefon: '22 665 12 30', advisor: 'Lewandowski Marek' },
  { stacjaSerw: 'SS02', nazwa: 'Motor-Kraków Serwis', firma: 'MOTORKRK', miejscow: 'Kraków', kodPoczt: '31-564', ulica: 'al. Pokoju 44', telefon: '12 411 20 10', advisor: 'Dudek Paweł' },
  { stacjaSerw: 'SS03', nazwa: 'Poznańskie Centrum Serwisowe', firma: 'PCS', miejscow: 'Poznań', kodPoczt: '61-131', ulica: 'ul. Gdyńska 72', telefon: '61 874 33 00', advisor: 'Mazur Katarzyna' },
  { stacjaSerw: 'SS04', nazwa: 'Auto Centrum Gdańsk', firma: 'ACGDANSK', miejscow: 'Gdańsk', kodPoczt: '80-298', ulica: 'ul. Słowackiego 111', telefon: '58 340 55 66', advisor: 'Król Jakub' },
];

export const INSURERS = ['PZU SA', 'TUiR Warta S.A.', 'STU Ergo Hestia SA', 'TUiR Allianz Polska S.A.'];
export const FUEL_ISSUERS = ['ORLEN S.A.', 'BP Europa SE', 'Shell Polska Sp. z o.o.'];

/** Makes and models: marka is the code, markaOpis/modelOpis the descriptions; wmi + code build the VIN. */
export interface DemoModel { marka: string; markaOpis: string; modelOpis: string; wmi: string; code: string; tyre: string; fuel: string }

export const MODELS: DemoModel[] = [
  { marka: 'SKODA', markaOpis: 'Škoda', modelOpis: 'Octavia', wmi: 'TMB', code: 'AG7NE', tyre: '205/55 R16', fuel: 'ON' },
  { marka: 'SKODA', markaOpis: 'Škoda', modelOpis: 'Superb', wmi: 'TMB', code: 'JH73V', tyre: '215/55 R17', fuel: 'ON' },
  { marka: 'SKODA', markaOpis: 'Škoda', modelOpis: 'Fabia', wmi: 'TMB', code: 'EP6NJ', tyre: '185/65 R15', fuel: 'PB95' },
  { marka: 'TOYOTA', markaOpis: 'Toyota', modelOpis: 'Corolla', wmi: 'SB1', code: 'ZS3JE', tyre: '205/55 R16', fuel: 'PB95' },
  { marka: 'TOYOTA', markaOpis: 'Toyota', modelOpis: 'Yaris', wmi: 'VNK', code: 'KTUD3', tyre: '185/65 R15', fuel: 'PB95' },
  { marka: 'TOYOTA', markaOpis: 'Toyota', modelOpis: 'RAV4', wmi: 'JTM', code: 'W3FV1', tyre: '225/60 R18', fuel: 'PB95' },
  { marka: 'VW', markaOpis: 'Volkswagen', modelOpis: 'Passat', wmi: 'WVW', code: 'ZZZ3C', tyre: '215/55 R17', fuel: 'ON' },
  { marka: 'VW', markaOpis: 'Volkswagen', modelOpis: 'Golf', wmi: 'WVW', code: 'ZZZCD', tyre: '205/55 R16', fuel: 'PB95' },
  { marka: 'FORD', markaOpis: 'Ford', modelOpis: 'Focus', wmi: 'WF0', code: 'XXGCD', tyre: '205/60 R16', fuel: 'ON' },
  { marka: 'OPEL', markaOpis: 'Opel', modelOpis: 'Astra', wmi: 'W0L', code: 'BE8ED', tyre: '205/55 R16', fuel: 'ON' },
  { marka: 'KIA', markaOpis: 'Kia', modelOpis: 'Ceed', wmi: 'U5Y', code: 'H5187', tyre: '205/55 R16', fuel: 'PB95' },
  { marka: 'HYUNDAI', markaOpis: 'Hyundai', modelOpis: 'i30', wmi: 'TMA', code: 'D81DB', tyre: '205/55 R16', fuel: 'PB95' },
  { marka: 'RENAULT', markaOpis: 'Renault', modelOpis: 'Megane', wmi: 'VF1', code: 'RFB00', tyre: '205/55 R16', fuel: 'ON' },
  { marka: 'DACIA', markaOpis: 'Dacia', modelOpis: 'Duster', wmi: 'UU1', code: 'HSDJ4', tyre: '215/65 R16', fuel: 'PB95' },
];

export const MALE_NAMES = ['Jan', 'Piotr', 'Krzysztof', 'Andrzej', 'Tomasz', 'Paweł', 'Michał', 'Marcin', 'Grzegorz', 'Adam', 'Łukasz', 'Zbigniew', 'Jerzy', 'Tadeusz', 'Mateusz', 'Dariusz', 'Mariusz', 'Wojciech', 'Ryszard', 'Jakub'];
export const FEMALE_NAMES = ['Anna', 'Maria', 'Katarzyna', 'Małgorzata', 'Agnieszka', 'Barbara', 'Ewa', 'Krystyna', 'Magdalena', 'Elżbieta', 'Joanna', 'Aleksandra', 'Monika', 'Zofia', 'Teresa', 'Danuta', 'Natalia', 'Karolina', 'Marta', 'Beata'];
/** Male surname forms; feminine() derives the female form (-ski → -ska …). */
export const SURNAMES = ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kowalczyk', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Woźniak', 'Dąbrowski', 'Kozłowski', 'Jankowski', 'Mazur', 'Kwiatkowski', 'Krawczyk', 'Piotrowski', 'Grabowski', 'Nowakowski', 'Pawłowski', 'Michalski', 'Nowicki', 'Adamczyk', 'Dudek', 'Zając', 'Wieczorek', 'Jabłoński', 'Król', 'Majewski', 'Olszewski'];

export function feminine(surname: string): string {
  return surname.replace(/(ski|cki|dzki)$/, (m) => m.slice(0, -1) + 'a');
}

export interface DemoTown { miejscow: string; kodPoczt: string; policja: string }

export const TOWNS: DemoTown[] = [
  { miejscow: 'Warszawa', kodPoczt: '00-950', policja: 'KRP Warszawa I' },
  { miejscow: 'Kraków', kodPoczt: '31-007', policja: 'KMP Kraków' },
  { miejscow: 'Poznań', kodPoczt: '61-806', policja: 'KMP Poznań' },
  { miejscow: 'Gdańsk', kodPoczt: '80-803', policja: 'KMP Gdańsk' },
  { miejscow: 'Wrocław', kodPoczt: '50-076', policja: 'KMP Wrocław' },
  { miejscow: 'Łódź', kodPoczt: '90-001', policja: 'KMP Łódź' },
  { miejscow: 'Lublin', kodPoczt: '20-001', policja: 'KMP Lublin' },
  { miejscow: 'Katowice', kodPoczt: '40-001', policja: 'KMP Katowice' },
  { miejscow: 'Szczecin', kodPoczt: '70-001', policja: 'KMP Szczecin' },
  { miejscow: 'Białystok', kodPoczt: '15-001', policja: 'KMP Białystok' },
];

export const STREETS = ['ul. Marszałkowska', 'ul. Długa', 'ul. Polna', 'ul. Leśna', 'ul. Słoneczna', 'ul. Krótka', 'ul. Szkolna', 'ul. Ogrodowa', 'ul. Lipowa', 'ul. Kościuszki', 'ul. Mickiewicza', 'al. Jana Pawła II', 'ul. Sienkiewicza', 'ul. Kwiatowa', 'ul. Parkowa'];

/** Organisational structure of every demo client: regions (level 2) and departments (level 3). */
export const REGIONS = ['Region Centralny', 'Region Południowy', 'Region Zachodni'];
export const DEPARTMENTS = ['Dział Sprzedaży', 'Dział Logistyki'];

/** What a periodic inspection includes (service plan), per make. uslRodzaj: spec §9 codes 1–6. */
export const SERVICE_PLAN_ITEMS: { tresc: string; uslRodzaj: number; ilosc: number }[] = [
  { tresc: 'Wymiana oleju silnikowego z filtrem', uslRodzaj: 1, ilosc: 1 },
  { tresc: 'Olej silnikowy 5W-30', uslRodzaj: 2, ilosc: 5 },
  { tresc: 'Filtr oleju', uslRodzaj: 2, ilosc: 1 },
  { tresc: 'Filtr powietrza', uslRodzaj: 2, ilosc: 1 },
  { tresc: 'Filtr kabinowy', uslRodzaj: 2, ilosc: 1 },
  { tresc: 'Kontrola układu hamulcowego', uslRodzaj: 1, ilosc: 1 },
];

export const ORDER_SCOPES: Record<number, string[]> = {
  0: ['Przegląd okresowy 30 000 km', 'Przegląd okresowy 60 000 km', 'Przegląd roczny z wymianą oleju'],
  1: ['Wymiana klocków hamulcowych przód', 'Naprawa klimatyzacji', 'Wymiana akumulatora', 'Wymiana żarówki świateł mijania', 'Diagnostyka komputerowa — kontrolka silnika'],
  2: ['Wymiana opon na zimowe', 'Wymiana opon na letnie', 'Naprawa przebitej opony'],
  3: ['Szkoda parkingowa — zarysowany zderzak', 'Kolizja drogowa — uszkodzony błotnik', 'Pęknięta szyba czołowa'],
  4: ['Okresowe badanie techniczne'],
  6: ['Raport stanu technicznego pojazdu'],
};

export const DAMAGE_KINDS = ['Kolizja drogowa', 'Szkoda parkingowa', 'Uszkodzenie szyby', 'Kradzież elementów', 'Zderzenie ze zwierzęciem'];
export const DAMAGE_STAGES = ['Zgłoszona', 'W likwidacji', 'Oczekuje na dokumenty', 'Zakończona'];
export const RISK_TYPES = ['AC', 'OC', 'AC z regresem', 'OC nasze'];
export const NOTE_TEXTS = [
  'Klient prosi o kontakt telefoniczny przed rozpoczęciem naprawy.',
  'Pojazd dostępny od poniedziałku, kluczyki w recepcji.',
  'Uzgodniono termin naprawy z kierowcą.',
  'Oczekujemy na części zamienne, przewidywany czas dostawy 3 dni.',
  'Kosztorys przekazany do akceptacji Fleet Managera.',
];
export const TYRE_BRANDS = [['Michelin', 'Primacy 4'], ['Continental', 'PremiumContact 6'], ['Goodyear', 'EfficientGrip'], ['Bridgestone', 'Turanza T005'], ['Dębica', 'Presto HP2'], ['Pirelli', 'Cinturato P7']];
