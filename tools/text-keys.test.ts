import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const code = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  if (statSync(path).isDirectory()) return name === 'generated' ? [] : code(path);
  return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
});

describe('the text keys the runtime\'s code names (issue 48)', () => {
  it('are checked by TypeScript: every module takes useTranslation from config/texts.ts, not react-i18next', () => {
    const untyped = [...code(join(root, 'runtime/src')), ...code(join(root, 'runtime/core'))]
      .filter((path) => !path.endsWith('config/texts.ts'))
      .filter((path) => /import\s*\{[^}]*\buseTranslation\b[^}]*\}\s*from\s*'react-i18next'/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(root, path));
    expect(untyped).toEqual([]);
  });

  it('are every key of locales/pl by namespace, a plural by its key without the form', () => {
    const generated = readFileSync(join(root, 'runtime/core/generated/text-keys.ts'), 'utf8');
    const app = JSON.parse(readFileSync(join(root, 'locales/pl/app.json'), 'utf8'));
    expect(typeof app.loading).toBe('string');
    expect(generated).toContain("| 'loading'");
    // a plural's forms and the key `t` is given with a count
    const plurals = generated.match(/\| '([^']+)_few'/);
    expect(plurals, 'some text has a plural').not.toBeNull();
    expect(generated).toContain(`| '${plurals![1]}'\n`);
  });
});
