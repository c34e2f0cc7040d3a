/**
 * The demo invoices' files (spec §2 "Invoices": 'Faktura' and 'Załącznik do faktury'): real,
 * readable PDFs rendered with the shared renderer (server/pdf/document.ts, DejaVu Sans, so Polish
 * letters survive), each one about its own invoice — number, dates, the client, positions that add
 * up to the net total stored in the database, VAT and gross, the amount in words — and an
 * attachment that specifies the vehicles billed.
 *
 * Pure and deterministic: the same invoice facts give the same document bytes (the renderer fixes
 * the PDF dates), so both database backends seed identical files.
 */
import { renderPdf, type PdfBlock, type PdfDocumentSpec } from '../pdf/document.ts';
import { COMPANIES } from './data.ts';
import { DEFAULT_LOCALE } from '../config/locale.ts';

export interface InvoiceFacts {
  faktId: number;
  faktNrCaly: string;
  /** YYYY-MM-DD */
  faktDataWyst: string;
  dokument: string | null;
  korFaktNrCaly: string | null;
  ogNetto: number;
  ogVat: number;
  ogBrutto: number;
  /** YYYY-MM-DD when paid. */
  dataZap: string | null;
  klientNazwa: string;
  nip: string | null;
  miejscow: string | null;
}

export interface BilledVehicle {
  rejestr: string;
  markaOpis: string | null;
  modelOpis: string | null;
}

/** The issuer of every demo invoice: the fleet-management company of the portal. */
const SELLER = COMPANIES.find((c) => c.firma === 'PCFMLEASING')!;
const SELLER_ADDRESS = 'ul. Prosta 68, 00-838 Warszawa';
const SELLER_ACCOUNT = '12 1050 1025 1000 0090 3012 3456';
const VAT_RATE = 23;
/** Days from issue to the payment term printed on the invoice. */
const PAYMENT_DAYS = 14;

/** File names as the browser window shows them ('/' cannot be part of a file name). */
export const invoiceFileName = (faktNrCaly: string) => `Faktura ${faktNrCaly.replaceAll('/', '_')}.pdf`;
export const attachmentFileName = (faktNrCaly: string) => `Załącznik do faktury ${faktNrCaly.replaceAll('/', '_')}.pdf`;

const moneyFormat = new Intl.NumberFormat(DEFAULT_LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true });
const money = (cents: number) => `${moneyFormat.format(cents / 100)} zł`;
const amount = (cents: number) => moneyFormat.format(cents / 100);
const day = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const toCents = (value: number) => Math.round(value * 100);

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** One position per billed vehicle: its share of the net total, split further in the attachment. */
interface Position {
  vehicle: BilledVehicle;
  netCents: number;
  leaseCents: number;
  serviceCents: number;
  insuranceCents: number;
}

/**
 * Splits the invoice's net total over 1–4 of the client's vehicles, in whole grosze, so that the
 * positions add up to the stored net exactly (the VAT is computed on that sum, per rate, as the
 * invoice in the database has it).
 */
export function invoicePositions(facts: Pick<InvoiceFacts, 'faktId' | 'ogNetto'>, vehicles: BilledVehicle[]): Position[] {
  const total = toCents(facts.ogNetto);
  const pool = vehicles.length ? vehicles : [{ rejestr: '—', markaOpis: null, modelOpis: null }];
  const count = Math.min(1 + (facts.faktId % 4), pool.length, Math.max(1, Math.floor(total / 100)));
  const start = (facts.faktId * 7) % pool.length;
  const weights = Array.from({ length: count }, (_, i) => 3 + ((facts.faktId * (i + 3)) % 5));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  let left = total;
  return weights.map((w, i) => {
    const netCents = i === count - 1 ? left : Math.floor((total * w) / weightSum);
    left -= netCents;
    const leaseCents = Math.floor(netCents * 0.7);
    const serviceCents = Math.floor(netCents * 0.18);
    return { vehicle: pool[(start + i) % pool.length], netCents, leaseCents, serviceCents, insuranceCents: netCents - leaseCents - serviceCents };
  });
}

const vehicleName = (v: BilledVehicle) => [v.markaOpis, v.modelOpis].filter(Boolean).join(' ') || 'pojazd';
const period = (iso: string) => `${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
const isCorrection = (facts: InvoiceFacts) => Boolean(facts.korFaktNrCaly);

function parties(facts: InvoiceFacts): PdfBlock {
  return {
    kind: 'table',
    widths: [0.5, 0.5],
    rows: [
      ['Sprzedawca', 'Nabywca'],
      [SELLER.firmaNazwa, facts.klientNazwa],
      [SELLER_ADDRESS, facts.miejscow ?? ''],
      [`NIP: ${SELLER.nip}`, facts.nip ? `NIP: ${facts.nip}` : ''],
    ],
  };
}

export function invoiceDocument(facts: InvoiceFacts, vehicles: BilledVehicle[]): PdfDocumentSpec {
  const positions = invoicePositions(facts, vehicles);
  const net = positions.reduce((a, p) => a + p.netCents, 0);
  const vat = toCents(facts.ogVat);
  const gross = toCents(facts.ogBrutto);
  const kind = facts.dokument ?? 'Faktura VAT';
  const title = `${kind} nr ${facts.faktNrCaly}`;
  const due = addDays(facts.faktDataWyst, PAYMENT_DAYS);
  const blocks: PdfBlock[] = [
    { kind: 'title', text: title },
    { kind: 'paragraph', text: `Miejsce wystawienia: Warszawa. Oryginał.` },
  ];
  if (isCorrection(facts)) {
    blocks.push({ kind: 'paragraph', text: `Dotyczy faktury nr ${facts.korFaktNrCaly}. Przyczyna korekty: zmiana wartości usług w okresie rozliczeniowym.` });
  }
  blocks.push(
    {
      kind: 'table',
      widths: [0.25, 0.25, 0.25, 0.25],
      rows: [
        ['Data wystawienia', 'Data sprzedaży', 'Termin płatności', 'Sposób płatności'],
        [day(facts.faktDataWyst), day(facts.faktDataWyst), day(due), 'przelew'],
      ],
    },
    parties(facts),
    { kind: 'heading', text: 'Pozycje faktury' },
    {
      kind: 'table',
      widths: [0.06, 0.48, 0.08, 0.08, 0.15, 0.15],
      alignRight: [2, 4, 5],
      rows: [
        ['Lp.', 'Nazwa usługi', 'Ilość', 'J.m.', 'Cena netto', 'Wartość netto'],
        ...positions.map((p, i) => [
          String(i + 1),
          `${isCorrection(facts) ? 'Korekta: najem' : 'Najem'} długoterminowy z obsługą serwisową, ${p.vehicle.rejestr} (${vehicleName(p.vehicle)}), okres ${period(facts.faktDataWyst)}`,
          '1',
          'usł.',
          amount(p.netCents),
          amount(p.netCents),
        ]),
      ],
    },
    {
      kind: 'table',
      widths: [0.31, 0.23, 0.23, 0.23],
      alignRight: [1, 2, 3],
      rows: [
        ['Stawka VAT', 'Wartość netto', 'Kwota VAT', 'Wartość brutto'],
        [`${VAT_RATE}%`, amount(net), amount(vat), amount(gross)],
        ['Razem', amount(net), amount(vat), amount(gross)],
      ],
    },
    { kind: 'heading', text: `Do zapłaty: ${money(gross)}` },
    { kind: 'paragraph', text: `Słownie: ${amountInWords(gross)}.` },
    { kind: 'paragraph', text: `Numer rachunku: ${SELLER_ACCOUNT}. W tytule przelewu prosimy podać numer faktury.` },
    {
      kind: 'paragraph',
      text: facts.dataZap ? `Zapłacono dnia ${day(facts.dataZap)}.` : `Płatność oczekuje na zaksięgowanie (termin: ${day(due)}).`,
    },
    { kind: 'paragraph', text: `Specyfikacja pojazdów objętych fakturą znajduje się w załączniku do faktury, jeśli został wystawiony.` },
  );
  return { title, author: SELLER.firmaNazwa, blocks, footer: `${title} — dokument demonstracyjny portalu Partner CFM` };
}

export function attachmentDocument(facts: InvoiceFacts, vehicles: BilledVehicle[]): PdfDocumentSpec {
  const positions = invoicePositions(facts, vehicles);
  const sum = (f: (p: Position) => number) => positions.reduce((a, p) => a + f(p), 0);
  const title = `Załącznik do faktury nr ${facts.faktNrCaly}`;
  return {
    title,
    author: SELLER.firmaNazwa,
    blocks: [
      { kind: 'title', text: title },
      { kind: 'heading', text: 'Specyfikacja pojazdów i usług objętych fakturą' },
      {
        kind: 'paragraph',
        text: `Nabywca: ${facts.klientNazwa}${facts.nip ? `, NIP ${facts.nip}` : ''}. Okres rozliczeniowy: ${period(facts.faktDataWyst)}. Data wystawienia faktury: ${day(facts.faktDataWyst)}.`,
      },
      {
        kind: 'table',
        widths: [0.05, 0.13, 0.2, 0.15, 0.13, 0.17, 0.17],
        alignRight: [3, 4, 5, 6],
        rows: [
          ['Lp.', 'Nr rej.', 'Pojazd', 'Rata najmu', 'Serwis', 'Ubezpieczenie', 'Razem netto'],
          ...positions.map((p, i) => [
            String(i + 1),
            p.vehicle.rejestr,
            vehicleName(p.vehicle),
            amount(p.leaseCents),
            amount(p.serviceCents),
            amount(p.insuranceCents),
            amount(p.netCents),
          ]),
          ['', 'Razem', '', amount(sum((p) => p.leaseCents)), amount(sum((p) => p.serviceCents)), amount(sum((p) => p.insuranceCents)), amount(sum((p) => p.netCents))],
        ],
      },
      { kind: 'paragraph', text: `Kwoty netto. Podatek VAT (${VAT_RATE}%) naliczono na fakturze nr ${facts.faktNrCaly}: ${money(toCents(facts.ogVat))}.` },
      { kind: 'paragraph', text: 'Ubezpieczenie obejmuje OC, AC, NW i assistance; serwis obejmuje przeglądy okresowe, wymianę opon sezonowych i ich przechowanie.' },
    ],
    footer: `${title} — dokument demonstracyjny portalu Partner CFM`,
  };
}

/** Both files of an invoice as PDF bytes; the attachment only when asked for. */
export async function renderInvoiceFiles(facts: InvoiceFacts, vehicles: BilledVehicle[], withAttachment: boolean) {
  const invoice = await renderPdf(invoiceDocument(facts, vehicles));
  const attachment = withAttachment ? await renderPdf(attachmentDocument(facts, vehicles)) : null;
  return { invoice, attachment };
}

/**
 * For the large benchmark seed only: one generic document per kind, shared by the invoices beyond
 * the rendered ones. It says what it is rather than pretending to be a particular invoice.
 */
export async function renderSharedInvoiceFiles() {
  const note = 'Baza demonstracyjna dużej skali: dla tej faktury nie wygenerowano osobnego dokumentu. Numer, daty, nabywca i kwoty faktury są widoczne w portalu (Faktury).';
  const invoice = await renderPdf({
    title: 'Faktura VAT — wzór dokumentu',
    author: SELLER.firmaNazwa,
    blocks: [{ kind: 'title', text: 'Faktura VAT — wzór dokumentu' }, { kind: 'paragraph', text: note }],
    footer: 'Dokument demonstracyjny portalu Partner CFM',
  });
  const attachment = await renderPdf({
    title: 'Załącznik do faktury — wzór dokumentu',
    author: SELLER.firmaNazwa,
    blocks: [{ kind: 'title', text: 'Załącznik do faktury — wzór dokumentu' }, { kind: 'paragraph', text: note }],
    footer: 'Dokument demonstracyjny portalu Partner CFM',
  });
  return { invoice, attachment };
}

/* ---- the amount in words, as Polish invoices print it ("… złotych 56/100") ---- */

const UNITS = ['', 'jeden', 'dwa', 'trzy', 'cztery', 'pięć', 'sześć', 'siedem', 'osiem', 'dziewięć'];
const TEENS = ['dziesięć', 'jedenaście', 'dwanaście', 'trzynaście', 'czternaście', 'piętnaście', 'szesnaście', 'siedemnaście', 'osiemnaście', 'dziewiętnaście'];
const TENS = ['', '', 'dwadzieścia', 'trzydzieści', 'czterdzieści', 'pięćdziesiąt', 'sześćdziesiąt', 'siedemdziesiąt', 'osiemdziesiąt', 'dziewięćdziesiąt'];
const HUNDREDS = ['', 'sto', 'dwieście', 'trzysta', 'czterysta', 'pięćset', 'sześćset', 'siedemset', 'osiemset', 'dziewięćset'];
const GROUPS: [string, string, string][] = [
  ['złoty', 'złote', 'złotych'],
  ['tysiąc', 'tysiące', 'tysięcy'],
  ['milion', 'miliony', 'milionów'],
];

/** Which of the three Polish noun forms a count takes: 1 → [0]; 2–4, 22–24 … → [1]; else [2]. */
function nounForm(n: number): 0 | 1 | 2 {
  if (n === 1) return 0;
  const last = n % 10;
  const lastTwo = n % 100;
  return last >= 2 && last <= 4 && !(lastTwo >= 12 && lastTwo <= 14) ? 1 : 2;
}

function below1000(n: number): string[] {
  const words = [HUNDREDS[Math.floor(n / 100)]];
  const rest = n % 100;
  if (rest >= 10 && rest < 20) words.push(TEENS[rest - 10]);
  else words.push(TENS[Math.floor(rest / 10)], UNITS[rest % 10]);
  return words.filter(Boolean);
}

/** 123456 grosze → "jeden tysiąc dwieście trzydzieści cztery złote 56/100". */
export function amountInWords(cents: number): string {
  const zloty = Math.floor(Math.abs(cents) / 100);
  const grosze = String(Math.abs(cents) % 100).padStart(2, '0');
  if (zloty === 0) return `zero złotych ${grosze}/100`;
  const words: string[] = [];
  let rest = zloty;
  const parts: number[] = [];
  while (rest > 0) {
    parts.push(rest % 1000);
    rest = Math.floor(rest / 1000);
  }
  for (let g = parts.length - 1; g >= 0; g--) {
    const n = parts[g];
    if (n === 0) continue;
    // "tysiąc", "milion" alone, not "jeden tysiąc"
    if (!(n === 1 && g > 0)) words.push(...below1000(n));
    if (g > 0) words.push(GROUPS[g][nounForm(n)]);
  }
  // the noun follows the last group: "dwa złote", "tysiąc jeden złotych", but "jeden złoty" alone
  const last = parts[0];
  words.push(GROUPS[0][zloty === 1 ? 0 : last === 1 ? 2 : nounForm(last)]);
  return `${cents < 0 ? 'minus ' : ''}${words.join(' ')} ${grosze}/100`;
}
