/**
 * Password strength (score 0–4) by zxcvbn-ts with its common dictionaries and the Polish ones
 * (names, surnames, common words, Wikipedia), so "Warszawa2024!" scores as weak as it is. The
 * dictionaries are large: the browser imports this module lazily, when a new-password field
 * appears. Words the user gave (login, names, e-mail) count as guessable.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as polish from '@zxcvbn-ts/language-pl';

let factory: ZxcvbnFactory | null = null;

function estimator(): ZxcvbnFactory {
  factory ??= new ZxcvbnFactory({
    dictionary: { ...common.dictionary, ...polish.dictionary },
    graphs: common.adjacencyGraphs,
    translations: polish.translations,
  });
  return factory;
}

/** "Wiśniewski" → "wisniewski": people drop Polish letters in passwords, so both forms count as guessable. */
const withoutDiacritics = (s: string) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/Ł/g, 'L');

/** zxcvbn's score: 0 (too guessable) … 4 (very unguessable). */
export function passwordScore(password: string, userInputs: string[] = []): number {
  if (!password) return 0;
  const inputs = userInputs.filter(Boolean).flatMap((s) => [s, withoutDiacritics(s)]);
  return estimator().check(password, [...new Set(inputs)]).score;
}
