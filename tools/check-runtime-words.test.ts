import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRuntimeWords, configuredLocaleWords, configuredRoles, entityFields, findingsIn, formatRuntimeWords } from './check-runtime-words.ts';

const root = resolve(import.meta.dirname, '..');
const ROLES = ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'];

describe('the runtime code check (config, not code)', () => {
  it('finds a role name and Polish words in code: strings, template texts and JSX text', () => {
    const source = [
      "const ROLES = ['ADMIN', 'MANAGER'] as const;",
      "const price = `${n} zł`;",
      'const el = <span>Zapisz</span>;',
      "const path = [...at, '(kolejność)'];",
      "if (answer === 'Tak') go();",
    ].join('\n');
    const found = findingsIn('runtime/src/x.tsx', source, ROLES).map((f) => [f.line, f.kind, f.text]);
    expect(found).toEqual([
      [1, 'role', 'ADMIN'],
      [1, 'role', 'MANAGER'],
      [2, 'polish', 'zł'],
      [3, 'polish', 'Zapisz'],
      [4, 'polish', '(kolejność)'],
      [5, 'polish', 'Tak'],
    ]);
  });

  it('leaves comments, keys, imports and English words alone', () => {
    const source = [
      "import x from './zł-helper';",
      '// the login choice starts on USER; "Zapisz" is the button',
      "/** Polish: zamknij */ const key = 'app:roles.USER';",
      "const word = t('config-studio:texts.none'); const role = 'USERS'; const ok = 'Take a note';",
    ].join('\n');
    expect(findingsIn('runtime/src/y.ts', source, ROLES)).toEqual([]);
  });

  it('finds a locale, zone or currency named in code, and Polish words in a regular expression', () => {
    const source = [
      "const upper = name.toLocaleUpperCase('pl');",
      "const fmt = new Intl.NumberFormat('pl-PL', { style: 'currency', currency: 'PLN' });",
      "const zone = config.timeZone ?? 'Europe/Warsaw';",
      'const money = /^-\\d+(?:\\s(?:zł|km))?$/;',
      'const yes = /^(tak|nie)$/i;',
      'const spaced = /\\snie\\b/;',
    ].join('\n');
    const found = findingsIn('runtime/src/z.ts', source, ROLES).map((f) => [f.line, f.kind, f.text]);
    expect(found).toEqual([
      [1, 'locale', 'pl'],
      [2, 'locale', 'pl-PL'],
      [2, 'locale', 'PLN'],
      [3, 'locale', 'Europe/Warsaw'],
      [4, 'polish', '/^-\\d+(?:\\s(?:zł|km))?$/'],
      [5, 'polish', '/^(tak|nie)$/i'],
      [6, 'polish', '/\\snie\\b/'],
    ]);
  });

  it('leaves other locales, words merely containing them, and English regular expressions alone', () => {
    const source = [
      "const parts = new Intl.DateTimeFormat('en-CA', { timeZone });",
      "const file = 'plik.pl'; const code = 'PLNX'; const tag = 'pl-PL-x';",
      'const word = /^(take|none|planet)$/i;',
      'const unicode = /\\u0142|\\p{L}+/u;',
    ].join('\n');
    expect(findingsIn('runtime/src/w.ts', source, ROLES)).toEqual([]);
  });

  it('names the portal\'s own locale, zone and currency as locale words (screens/app.json)', () => {
    expect(configuredLocaleWords(root)).toEqual(expect.arrayContaining(['pl', 'pl-PL', 'Europe/Warsaw', 'PLN']));
  });

  it('finds a field of a resource read or written by name: a property, an index, a key, a destructured name (issue 45)', () => {
    const FIELDS = ['pojazdId', 'rejestr', 'markaModel', 'pwdDo', 'rola'];
    const source = [
      'const vehicle = record.pojazdId as number;',
      "const plate = item['rejestr'];",
      'const ctx = { ...user, rola: role };',
      'const { pwdDo } = user;',
      "runAction({ kind: 'openDialog', idField: 'pojazdId' }, item);",
      'const shown = item?.markaModel ?? null;',
      'const url = `${decl.templates}?pojazdId=${id}`; const at = `${recordPath}.rejestr`;',
    ].join('\n');
    const found = findingsIn('runtime/src/f.ts', source, ROLES, [], FIELDS).map((f) => [f.line, f.kind, f.text]);
    expect(found).toEqual([
      [1, 'field', 'pojazdId'],
      [2, 'field', 'rejestr'],
      [3, 'field', 'rola'],
      [4, 'field', 'pwdDo'],
      [5, 'field', 'pojazdId'],
      [6, 'field', 'markaModel'],
      [7, 'field', 'pojazdId'],
      [7, 'field', 'rejestr'],
    ]);
  });

  it('leaves types, other names and texts that merely contain a field alone', () => {
    const FIELDS = ['pojazdId', 'rejestr', 'markaModel', 'pwdDo', 'rola'];
    const source = [
      "export type RoleName = UserDetails['rola'];",
      "type Shown = Pick<ReminderItem, 'rejestr' | 'markaModel'>;",
      'interface Row { pojazdId: number; rejestr?: string }',
      'const field = fields.role; const plate = decl.plate;',
      "const path = `/app/vehicle/${id}?vehicle=${n}`; const key = 'car:fields.rejestr'; const k = `car:fields.${f}`;",
      '// reads record.pojazdId, see "rejestr"',
    ].join('\n');
    expect(findingsIn('runtime/src/g.ts', source, ROLES, [], FIELDS)).toEqual([]);
  });

  it('takes the fields from every entity schema, nested properties too', () => {
    const fields = entityFields(root);
    expect(fields).toEqual(expect.arrayContaining(['pojazdId', 'rejestr', 'markaModel', 'pwdDo', 'rola']));
  });

  it('reads the roles from the configuration (the user entity\'s rola)', () => {
    expect(configuredRoles(root)).toEqual(expect.arrayContaining(ROLES));
  });

  describe('on a tree', () => {
    let dir = '';
    afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
    const tree = (files: Record<string, string>) => {
      dir = mkdtempSync(join(tmpdir(), 'runtime-words-'));
      mkdirSync(join(dir, 'schemas/entities'), { recursive: true });
      cpSync(join(root, 'schemas/entities/user.schema.json'), join(dir, 'schemas/entities/user.schema.json'));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(dir, path, '..'), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      return dir;
    };

    it('catches a planted role and word, and not in tests or generated files', () => {
      const base = tree({
        'runtime/src/screens/planted.tsx': "export const who = 'ADVISOR';\nexport const Hi = () => <b>Wyślij</b>;\nexport const when = (d: Date) => d.toLocaleDateString('pl-PL');\n",
        'runtime/src/screens/planted.test.ts': "expect(role).toBe('ADVISOR');\n",
        'runtime/core/generated/meta.ts': "export type R = 'ADVISOR';\n",
      });
      const { findings } = checkRuntimeWords(base, ['runtime/src', 'runtime/core'], []);
      expect(findings.map((f) => `${f.file}:${f.line} ${f.text}`)).toEqual(['runtime/src/screens/planted.tsx:1 ADVISOR', 'runtime/src/screens/planted.tsx:2 Wyślij', 'runtime/src/screens/planted.tsx:3 pl-PL']);
    });

    it('catches the locale, zone and currency the configuration names, whatever they are', () => {
      const base = tree({
        'screens/app.json': JSON.stringify({ config: { locale: 'cs-CZ', timeZone: 'Europe/Prague', currency: 'CZK', languages: [{ id: 'cs', locale: 'cs-CZ', name: 'Čeština', datePattern: 'DD. MM. YYYY' }] } }),
        'runtime/src/money.ts': "export const money = new Intl.NumberFormat('cs-CZ', { currency: 'CZK', timeZone: 'Europe/Prague' });\nexport const lang = 'cs';\nexport const day = 'DD. MM. YYYY';\n",
      });
      const { findings } = checkRuntimeWords(base, ['runtime/src'], []);
      expect(findings.map((f) => `${f.line} ${f.kind} ${f.text}`)).toEqual(['1 locale cs-CZ', '1 locale CZK', '1 locale Europe/Prague', '2 locale cs', '3 locale DD. MM. YYYY']);
    });

    it('catches a field of an entity named in code, and lets a generic word and an allowed place be (issue 45)', () => {
      const base = tree({
        'schemas/entities/vehicle.schema.json': JSON.stringify({ type: 'object', properties: { id: { type: 'integer' }, pojazdId: { type: 'integer' }, rejestr: { type: 'string' }, positions: { type: 'array', items: { properties: { cena: { type: 'number' } } } } } }),
        'runtime/src/screens/vehicle.tsx': "export const plate = (item: Record<string, unknown>) => item.rejestr;\nexport const open = { idField: 'pojazdId', id: 1 };\nexport const net = (p: { cena: number }) => p.cena;\n",
      });
      const generic = [{ names: ['id'], reason: 'every record has one' }];
      const found = checkRuntimeWords(base, ['runtime/src'], [], generic);
      expect(found.findings.map((f) => `${f.file}:${f.line} ${f.kind} ${f.text}`)).toEqual([
        'runtime/src/screens/vehicle.tsx:1 field rejestr',
        'runtime/src/screens/vehicle.tsx:2 field pojazdId',
        'runtime/src/screens/vehicle.tsx:3 field cena',
      ]);
      expect(formatRuntimeWords(found)).toContain('runtime/src/screens/vehicle.tsx:1  field of a resource: "rejestr"');
      // the reasoned place is allowed; the rest are still found
      const allowed = checkRuntimeWords(base, ['runtime/src'], [{ file: 'runtime/src/screens/vehicle.tsx', text: 'cena', reason: 'the money rule shared with the server' }], generic);
      expect(allowed.findings.map((f) => f.text)).toEqual(['rejestr', 'pojazdId']);
      expect(allowed.badEntries).toEqual([]);
      // without the generic word, id is a field like any other; a generic entry needs a reason and real fields
      expect(checkRuntimeWords(base, ['runtime/src'], [], []).findings.map((f) => f.text)).toContain('id');
      const bad = checkRuntimeWords(base, ['runtime/src'], [], [{ names: ['id', 'label'], reason: ' ' }]);
      expect(bad.badGeneric.map((b) => `${b.why} ${b.name ?? ''}`.trim())).toEqual(['no reason', 'not a field label']);
      expect(bad.findings.map((f) => f.text)).toContain('id');
    });

    it('lets an allow-list entry with a reason excuse a place, and fails one without a reason or unused', () => {
      const base = tree({ 'runtime/core/a.ts': "export const unit = 'zł';\n" });
      const reasoned = { file: 'runtime/core/a.ts', text: 'zł', reason: 'the test says why' };
      expect(checkRuntimeWords(base, ['runtime/core'], [reasoned])).toEqual({ findings: [], badEntries: [], badGeneric: [] });
      const bare = { file: 'runtime/core/a.ts', text: 'zł', reason: ' ' };
      const unused = { file: 'runtime/core/b.ts', text: 'Tak', reason: 'gone' };
      const result = checkRuntimeWords(base, ['runtime/core'], [bare, unused]);
      expect(result.findings).toHaveLength(1);
      expect(result.badEntries.map((b) => b.why)).toEqual(['no reason', 'unused']);
    });
  });

  it('finds nothing in the checkout\'s runtime', () => {
    const { findings, badEntries, badGeneric } = checkRuntimeWords(root);
    expect(findings).toEqual([]);
    expect(badEntries).toEqual([]);
    expect(badGeneric).toEqual([]);
  });
});
