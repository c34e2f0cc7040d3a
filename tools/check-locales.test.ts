import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLocales, compareTexts, pluralForms } from './check-locales.ts';

describe('texts per language against Polish (issue 48)', () => {
  it('names a key missing in the language, and one Polish lacks', () => {
    const problems = compareTexts({ a: 'A', b: { c: 'C' } }, { a: 'A', x: 'X' }, 'en', 'locales/en/x.json');
    expect(problems).toEqual([
      { file: 'locales/en/x.json', key: 'b.c', reason: 'missing' },
      { file: 'locales/en/x.json', key: 'x', reason: 'not a key of the Polish texts' },
    ]);
  });

  it('names a placeholder the Polish text lacks, and one it has that the language dropped', () => {
    const problems = compareTexts({ a: 'Pojazd {{rejestr}}' }, { a: 'Vehicle {{plate}}' }, 'en', 'f');
    expect(problems.map((p) => p.reason)).toEqual(['placeholder {{rejestr}} of the Polish text missing', 'placeholder {{plate}} not in the Polish text']);
  });

  it("holds a plural to the language's own forms: English one/other, Ukrainian one/few/many/other", () => {
    expect(pluralForms('en')).toEqual(['one', 'other']);
    expect(pluralForms('uk')).toEqual(['few', 'many', 'one', 'other']);
    const pl = { n_one: '{{count}} pojazd', n_few: '{{count}} pojazdy', n_many: '{{count}} pojazdów', n_other: '{{count}} pojazdu' };
    expect(compareTexts(pl, { n_one: '{{count}} vehicle', n_other: '{{count}} vehicles' }, 'en', 'f')).toEqual([]);
    const broken = compareTexts(pl, { n_one: '{{count}} авто', n_few: '{{count}} авто', n_other: '{{count}} авто' }, 'uk', 'f');
    expect(broken).toEqual([{ file: 'f', key: 'n_many', reason: 'plural form "many" missing (uk needs few, many, one, other)' }]);
    expect(compareTexts(pl, { n_one: 'a', n_few: 'b', n_other: 'c {{count}}' }, 'en', 'f').map((p) => p.key)).toEqual(['n_few']);
    expect(compareTexts(pl, { n: '{{count}} vehicles' }, 'en', 'f')[0].reason).toMatch(/a plural in Polish/);
  });

  it('checks every language folder and each variant overlay against its Polish counterpart', () => {
    const root = mkdtempSync(join(tmpdir(), 'locales-'));
    const write = (path: string, value: unknown) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), JSON.stringify(value));
    };
    write('locales/pl/car.json', { title: 'Pojazdy' });
    write('locales/pl/menu.json', { a: 'A' });
    write('locales/en/car.json', { title: 'Vehicles' });
    write('client-variants/v/locales/pl/car.json', { title: 'Auta' });
    const { languages, problems } = checkLocales(root);
    expect(languages).toEqual(['en']);
    expect(problems.map((p) => `${p.file} ${p.key}`)).toEqual(['locales/en/menu.json *', 'client-variants/v/locales/en/car.json *']);
  });
});
