import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { bundleSchema } from './bundle-schema';
import { problemDiagnostics, schemaDiagnostics, schemaValidator, syntaxDiagnostics } from './diagnostics';
import { markRange, placeOfPointer } from './positions';

const root = join(import.meta.dirname, '../../../../..');
const texts = JSON.parse(readFileSync(join(root, 'locales/pl/config-preview.json'), 'utf8'));
const i18n = i18next.createInstance();
await i18n.init({ lng: 'pl', resources: { pl: { 'config-preview': texts } }, interpolation: { escapeValue: false }, initAsync: false });
const t = (key: string, vars?: Record<string, unknown>) => String(i18n.t(key, vars as any));

const stateOf = (doc: string) => EditorState.create({ doc, extensions: [json()] });
/** The text a diagnostic underlines. */
const marked = (state: EditorState, d: { from: number; to: number }) => state.doc.sliceString(d.from, d.to);

const metaDir = join(root, 'schemas/meta');
const metaSchemas = readdirSync(metaDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(metaDir, f), 'utf8')));

describe('pointer places', () => {
  const doc = `{
  "type": "table",
  "columns": [
    { "id": "rejestr", "width": 120 },
    { "id": "a/b~c", "hidden": true }
  ],
  "tricky\\"key": [1, 2, 3]
}`;
  const state = stateOf(doc);

  it('finds values, array items and escaped keys', () => {
    expect(marked(state, placeOfPointer(state, '/type')!)).toBe('"table"');
    expect(marked(state, placeOfPointer(state, '/columns/0/width')!)).toBe('120');
    expect(marked(state, placeOfPointer(state, '/tricky"key/2')!)).toBe('3');
    const place = placeOfPointer(state, '/columns/1')!;
    expect(marked(state, place)).toBe('{ "id": "a/b~c", "hidden": true }');
    expect(place.exact).toBe(true);
    expect(placeOfPointer(state, '')!.from).toBe(0);
    // a pointer in the fragment form the server may send
    expect(marked(state, placeOfPointer(state, '#/columns/0/id')!)).toBe('"rejestr"');
  });

  it('gives the deepest place found when the rest is missing', () => {
    const place = placeOfPointer(state, '/columns/7/width')!;
    expect(place.exact).toBe(false);
    expect(marked(state, { from: place.keyFrom!, to: place.keyTo! })).toBe('"columns"');
  });

  it('marks a long value by its property name, a short one itself', () => {
    expect(marked(state, markRange(state, placeOfPointer(state, '/columns')!))).toBe('"columns"');
    expect(marked(state, markRange(state, placeOfPointer(state, '/columns/0')!))).toBe('{ "id": "rejestr", "width": 120 }');
    expect(marked(state, markRange(state, placeOfPointer(state, '')!))).toBe('{');
  });

  it('reads text that is not JSON yet', () => {
    const broken = stateOf('{ "a": { "b": 1, }, "c": [1, ');
    expect(marked(broken, placeOfPointer(broken, '/a/b')!)).toBe('1');
  });
});

describe('editor findings', () => {
  const schema = {
    type: 'object',
    required: ['type', 'columns'],
    additionalProperties: false,
    properties: {
      type: { const: 'table' },
      columns: { type: 'array', items: { $ref: '#/$defs/column' } },
      mode: { enum: ['a', 'b'] },
    },
    $defs: { column: { type: 'object', required: ['id'], properties: { id: { type: 'string', minLength: 1 }, width: { type: 'integer', minimum: 40 } } } },
  };
  const validate = schemaValidator(schema);

  it('says where the text stops being JSON', () => {
    const state = stateOf('{\n  "type": "table"\n  "columns": []\n}');
    const [d] = syntaxDiagnostics(state, t);
    expect(d.message).toMatch(/Niepoprawny JSON/);
    expect(state.doc.lineAt(d.from).number).toBe(3);
    expect(syntaxDiagnostics(stateOf('{"a": 1}'), t)).toEqual([]);
  });

  it('checks the schema while typing, in Polish, at the places concerned', () => {
    const state = stateOf(`{
  "type": "tabela",
  "columns": [{ "width": "wide" }, { "id": "", "width": 10 }],
  "mode": "c",
  "colums": 1
}`);
    const found = schemaDiagnostics(state, validate, t).map((d) => [marked(state, d), d.message]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['"colums"', 'Nieznana właściwość „colums”: tu niedozwolona.'],
        ['"tabela"', 'Dozwolona jest tylko wartość "table".'],
        ['{ "width": "wide" }', 'Brak wymaganej właściwości „id”.'],
        ['"wide"', 'Oczekiwano: liczba całkowita.'],
        ['""', 'Za krótki tekst: co najmniej 1 znaków.'],
        ['10', 'Za mała liczba: co najmniej 40.'],
        ['"c"', 'Dozwolone wartości: "a", "b".'],
      ]),
    );
    expect(schemaDiagnostics(stateOf('{"type": "table", "columns": []}'), validate, t)).toEqual([]);
    // nothing to say about a text that is not JSON: the syntax finding says it
    expect(schemaDiagnostics(stateOf('{"type": '), validate, t)).toEqual([]);
  });

  it('marks the server problems at their pointers', () => {
    const state = stateOf('{\n  "columns": [\n    { "id": "rejestr", "width": 120 }\n  ]\n}');
    const found = problemDiagnostics(state, [
      { pointer: '/columns/0/id', message: 'Kolumna „rejestr” nie jest polem encji car.' },
      { pointer: '/columns/3', message: 'Usunięto nieistniejącą kolumnę.' },
    ], t);
    expect(marked(state, found[0])).toBe('"rejestr"');
    expect(found[0].message).toBe('Kolumna „rejestr” nie jest polem encji car.');
    expect(found[0].source).toBe('sprawdzenie przed publikacją');
    expect(marked(state, found[1])).toBe('"columns"');
    expect(found[1].message).toBe('Usunięto nieistniejącą kolumnę. (miejsce: /columns/3)');
  });

  it('checks a real screen file against its bundled meta-schema', () => {
    const validateTable = schemaValidator(bundleSchema('meta/table', metaSchemas));
    const screens = join(root, 'screens');
    const file = readdirSync(screens).find((f) => f.endsWith('.json') && JSON.parse(readFileSync(join(screens, f), 'utf8')).type === 'table')!;
    const text = readFileSync(join(screens, file), 'utf8');
    expect(schemaDiagnostics(stateOf(text), validateTable, t)).toEqual([]);
    const broken = stateOf(text.replace('"columns"', '"kolumny"'));
    const messages = schemaDiagnostics(broken, validateTable, t).map((d) => d.message);
    expect(messages).toContain('Brak wymaganej właściwości „columns”.');
    expect(messages).toContain('Nieznana właściwość „kolumny”: tu niedozwolona.');
  });

  it('gives no validator for a schema that does not compile', () => {
    expect(schemaValidator({ $ref: '#/$defs/missing' })).toBeNull();
    expect(schemaValidator(undefined)).toBeNull();
  });
});
