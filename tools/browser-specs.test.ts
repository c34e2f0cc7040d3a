import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = resolve(import.meta.dirname, '../tests/browser');
const specs = readdirSync(dir).filter((f) => f.endsWith('.spec.ts'));

describe('the browser journeys', () => {
  // support.ts's `test` fails a journey on any console error (issue 38); Playwright's own would not
  it.each(specs)('%s takes test and expect from support.ts, not from @playwright/test', (file) => {
    const source = readFileSync(join(dir, file), 'utf8');
    const fromPlaywright = /import\s*\{([^}]*)\}\s*from\s*'@playwright\/test'/.exec(source)?.[1] ?? '';
    const values = fromPlaywright.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '));
    expect(values, `${file} imports values from @playwright/test`).toEqual([]);
    expect(source).toMatch(/import\s*\{[^}]*\btest\b[^}]*\}\s*from\s*'\.\/support(\.ts)?'/);
  });
});
