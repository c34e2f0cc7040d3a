import { describe, expect, it } from 'vitest';
import { acceptedLanguages, chooseLanguage, configuredLanguages, cookieValue } from './languages.ts';

const offered = [
  { id: 'pl', locale: 'pl-PL', name: 'Polski', datePattern: 'DD.MM.YYYY' },
  { id: 'en', locale: 'en-GB', name: 'English', datePattern: 'DD/MM/YYYY' },
  { id: 'uk', locale: 'uk-UA', name: 'Українська', datePattern: 'DD.MM.YYYY' },
];

describe('which language a caller reads (issue 48)', () => {
  it('orders Accept-Language by its weights, each tag followed by its primary language', () => {
    expect(acceptedLanguages('en-US,en;q=0.8,uk;q=0.9')).toEqual(['en-us', 'en', 'uk']);
    expect(acceptedLanguages('de;q=0.5, uk-UA')).toEqual(['uk-ua', 'uk', 'de']);
    expect(acceptedLanguages('*, fr;q=0')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('takes the first wanted language offered, else the default (the first offered)', () => {
    expect(chooseLanguage(offered, [null, 'de', 'UK']).id).toBe('uk');
    expect(chooseLanguage(offered, acceptedLanguages('en-GB,pl;q=0.5')).id).toBe('en');
    expect(chooseLanguage(offered, ['de']).id).toBe('pl');
    expect(chooseLanguage(offered.slice(1), []).id).toBe('en');
  });

  it('reads the sign-in page’s choice from the cookies', () => {
    expect(cookieValue('a=1; portal.lang=uk; b=2', 'portal.lang')).toBe('uk');
    expect(cookieValue('a=1', 'portal.lang')).toBeUndefined();
  });

  it('speaks the configured locale alone when no languages are configured', () => {
    expect(configuredLanguages({ locale: 'pl-PL' })).toEqual([{ id: 'pl', locale: 'pl-PL', name: 'pl', datePattern: 'DD.MM.YYYY' }]);
    expect(configuredLanguages({ languages: offered })).toEqual(offered);
  });
});
