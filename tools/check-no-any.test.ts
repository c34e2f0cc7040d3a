import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { anyLines, serverAnys } from './check-no-any.ts';

describe('no any in server code', () => {
  const made: string[] = [];
  const tree = (files: Record<string, string>) => {
    const base = mkdtempSync(join(tmpdir(), 'no-any-'));
    made.push(base);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(base, path, '..'), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    return base;
  };
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('finds every way of writing any, each line once', () => {
    const source = [
      'const a: any = 1;',
      'const b = x as any;',
      'const c = <any>x;',
      'type D = Record<string, any> | any[];',
      'function e(f: string): Promise<any> { return g; }',
      'const h = (i: unknown) => i;',
    ].join('\n');
    expect(anyLines('x.ts', source)).toEqual([1, 2, 3, 4, 5]);
  });

  it('leaves the word alone in comments, strings, names and unknown', () => {
    const source = [
      '// any of these',
      "const text = 'any';",
      'const anyRows = [] as unknown[];',
      'const many: unknown = `as any`;',
      '/** as any */ export {};',
    ].join('\n');
    expect(anyLines('x.ts', source)).toEqual([]);
  });

  it('names file and line under server/, leaving migrations and tests out', () => {
    const base = tree({
      'server/a.ts': 'export const ok = 1;\nexport const bad = JSON.parse("1") as any;\n',
      'server/deep/b.tsx': 'export function B(props: any) { return props; }\n',
      'server/migrations/001_x.ts': 'export async function up(db: Record<string, any>) {}\n',
      'server/a.test.ts': 'const t = {} as any;\n',
    });
    expect(serverAnys(base).sort()).toEqual([
      'server/a.ts:2: export const bad = JSON.parse("1") as any;',
      'server/deep/b.tsx:1: export function B(props: any) { return props; }',
    ]);
  });

  it('this tree: no any in server code', () => {
    expect(serverAnys()).toEqual([]);
  });
});
