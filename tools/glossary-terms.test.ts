import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/glossary-terms.md (issue 48) names the domain's words in English and Ukrainian; a word it
 * names that the language's texts never say is a glossary that drifted from the portal.
 */
const root = resolve(import.meta.dirname, '..');

/** Every text of locales/<language>, lower-cased, in one string. */
function texts(language: string): string {
  const dir = join(root, 'locales', language);
  const all: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') all.push(value);
    else if (value && typeof value === 'object') Object.values(value).forEach(walk);
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) walk(JSON.parse(readFileSync(join(dir, file), 'utf8')));
  return all.join('\n').toLowerCase();
}

/** The glossary's rows: Polish, English, Ukrainian. */
function rows(): { pl: string; en: string; uk: string }[] {
  const doc = readFileSync(join(root, 'docs/glossary-terms.md'), 'utf8');
  return doc.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Polish'))
    .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()))
    .map(([pl, en, uk]) => ({ pl, en, uk }));
}

/** A cell's words: split at commas, slashes and semicolons, without what is in brackets or quotes. */
const words = (cell: string) => cell.replace(/\([^)]*\)/g, ' ').replace(/“[^”]*”/g, ' ')
  .split(/[,/;]/).map((w) => w.trim().toLowerCase()).filter(Boolean);

describe('the glossary of the domain\'s words (issue 48)', () => {
  it('has an English and a Ukrainian word for every Polish one', () => {
    const table = rows();
    expect(table.length).toBeGreaterThan(30);
    expect(table.filter((r) => !r.en || !r.uk).map((r) => r.pl)).toEqual([]);
  });

  it.each(['en', 'uk'] as const)('names in %s only words the portal\'s texts in that language use', (language) => {
    const said = texts(language);
    const unsaid = rows().flatMap((r) => words(r[language]).filter((w) => !said.includes(w)).map((w) => `${r.pl}: ${w}`));
    expect(unsaid).toEqual([]);
  });
});
