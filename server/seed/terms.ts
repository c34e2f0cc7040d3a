/**
 * The demo terms documents: the terms of the Customer Portal and the privacy policy, rendered as
 * real PDFs and stored as version 1 (current) of their groups. A deployment replaces them with
 * its own PDFs through `npm run terms` (tools/publish-terms.ts); each new version has to be
 * accepted again by every USER and MANAGER.
 */
import type { Kysely } from 'kysely';
import { renderPdf, type PdfBlock } from '../pdf/document.ts';
import type { DB } from '../db/types.generated.ts';

export interface TermsSource {
  grupa: string;
  name: string;
  blocks: PdfBlock[];
}

const section = (heading: string, ...paragraphs: string[]): PdfBlock[] => [
  { kind: 'heading', text: heading },
  ...paragraphs.map((text) => ({ kind: 'paragraph' as const, text })),
];

export const DEMO_TERMS: TermsSource[] = [
  {
    grupa: 'REGULAMIN',
    name: 'Regulamin Portalu Klienta',
    blocks: [
      { kind: 'title', text: 'Regulamin Portalu Klienta Partner CFM' },
      ...section('§ 1. Postanowienia ogólne',
        '1. Regulamin określa zasady korzystania z Portalu Klienta Partner CFM (dalej: Portal), udostępnianego klientom flotowym, ich kierowcom oraz partnerom serwisowym.',
        '2. Portal służy do przeglądania danych pojazdów, przydziałów, kontraktów, kart paliwowych, opon, faktur, zleceń i szkód, a także do zamawiania usług serwisowych, zgłaszania szkód i aktualizacji stanu licznika.',
        '3. Korzystanie z Portalu wymaga zapoznania się z Regulaminem i jego akceptacji przy pierwszym logowaniu oraz po każdej zmianie Regulaminu.'),
      ...section('§ 2. Konto użytkownika',
        '1. Konto zakłada administrator Portalu na wniosek klienta. Użytkownik otrzymuje login oraz hasło jednorazowe, które zmienia przy pierwszym logowaniu.',
        '2. Hasło musi spełniać zasady bezpieczeństwa wskazane w Portalu. Użytkownik nie udostępnia hasła osobom trzecim i niezwłocznie zmienia je w razie podejrzenia, że zostało ujawnione.',
        '3. Po kilku nieudanych próbach logowania konto jest czasowo blokowane. Hasło można odzyskać funkcją „Nie pamiętasz hasła?”.'),
      ...section('§ 3. Zasady korzystania',
        '1. Użytkownik widzi wyłącznie dane, do których uprawnia go rola: kierowca — dane swojego pojazdu, Fleet Manager — dane pojazdów swojej firmy, doradca serwisowy — dane zleceń swojej stacji obsługi.',
        '2. Dane wprowadzane w Portalu (stan licznika, zgłoszenia szkód, zamówienia usług) muszą być zgodne z prawdą.',
        '3. Zabronione jest podejmowanie działań mogących zakłócić działanie Portalu.'),
      ...section('§ 4. Postanowienia końcowe',
        '1. Operator może zmienić Regulamin. O zmianie użytkownik dowiaduje się przy najbliższym logowaniu, gdy zostanie poproszony o akceptację nowej wersji.',
        '2. W sprawach nieuregulowanych stosuje się przepisy prawa polskiego.'),
    ],
  },
  {
    grupa: 'POLITYKA_PRYWATNOSCI',
    name: 'Polityka prywatności',
    blocks: [
      { kind: 'title', text: 'Polityka prywatności Portalu Klienta' },
      ...section('1. Administrator danych',
        'Administratorem danych osobowych przetwarzanych w Portalu jest operator Portalu. Kontakt w sprawach danych osobowych: iod@partnercfm.pl.'),
      ...section('2. Zakres i cel przetwarzania',
        'Przetwarzamy imię, nazwisko, adres e-mail, numery telefonów, login oraz dane pojazdów i zleceń w celu świadczenia usług zarządzania flotą (art. 6 ust. 1 lit. b i f RODO).',
        'Historia logowań jest przechowywana w celu zapewnienia bezpieczeństwa kont.'),
      ...section('3. Pliki cookie i pamięć przeglądarki',
        'Portal zapisuje w przeglądarce wyłącznie dane niezbędne do utrzymania sesji oraz ustawienia tabel. Nie używamy plików cookie reklamowych.'),
      ...section('4. Prawa użytkownika',
        'Użytkownik ma prawo dostępu do danych, ich sprostowania, usunięcia lub ograniczenia przetwarzania, a także prawo wniesienia skargi do Prezesa Urzędu Ochrony Danych Osobowych.'),
    ],
  },
];

/** Inserts each document as version 1 of its group, current; returns their ids. */
export async function seedTerms(db: Kysely<DB>): Promise<number[]> {
  const ids: number[] = [];
  for (const doc of DEMO_TERMS) {
    const pdf = await renderPdf({ title: doc.name, author: 'Partner CFM', blocks: doc.blocks, footer: `${doc.name}, wersja 1` });
    const row = await db.insertInto('terms_template')
      .values({ name: doc.name, grupa: doc.grupa, version: 1, current: true, pdf })
      .returning('id').executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}
