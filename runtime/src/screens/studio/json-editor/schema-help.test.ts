import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { bundleSchema } from './bundle-schema';
import { completionsAt, cursorPlace, hoverAt, schemasAt } from './schema-help';

const root = join(import.meta.dirname, '../../../../..');
const texts = JSON.parse(readFileSync(join(root, 'locales/pl/config-preview.json'), 'utf8'));
const i18n = i18next.createInstance();
await i18n.init({ lng: 'pl', resources: { pl: { 'config-preview': texts } }, interpolation: { escapeValue: false }, initAsync: false });
const t = (key: string, vars?: Record<string, unknown>) => String(i18n.t(key, vars as any));

const metaDir = join(root, 'schemas/meta');
const metaSchemas = readdirSync(metaDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(metaDir, f), 'utf8')));
const table = bundleSchema('meta/table', metaSchemas);
const screen = bundleSchema('meta/screen', metaSchemas);

/** The text with `|` for the cursor. */
function at(doc: string) {
  const pos = doc.indexOf('|');
  return { state: EditorState.create({ doc: doc.replace('|', ''), extensions: [json()] }), pos };
}
const labels = (doc: string, schema = table) => {
  const { state, pos } = at(doc);
  return completionsAt(state, pos, schema, t)?.options.map((o) => o.displayLabel ?? o.label) ?? [];
};

describe('what is typed at the cursor', () => {
  it('tells a key from a value, in text that is not JSON yet', () => {
    const place = (doc: string) => {
      const { state, pos } = at(doc);
      const p = cursorPlace(state, pos)!;
      return [p.mode, p.pointer, state.doc.sliceString(p.from, p.to)];
    };
    expect(place('{ "a": 1, | }')).toEqual(['key', '', '']);
    expect(place('{ "a": 1, "ty| }')).toEqual(['key', '', '"ty']);
    expect(place('{ "a": 1, ty| }')).toEqual(['key', '', 'ty']);
    expect(place('{ "a": | }')).toEqual(['value', '/a', '']);
    expect(place('{ "a": "x|" }')).toEqual(['value', '/a', '"x"']);
    expect(place('{ "a": tr| }')).toEqual(['value', '/a', 'tr']);
    expect(place('{ "a": [1, |] }')).toEqual(['value', '/a/1', '']);
    expect(place('{ "a": [{ "b": 1 }, { "|" }] }')).toEqual(['key', '/a/1', '""']);
    expect(place('{ "a": { "b": | ')).toEqual(['value', '/a/b', '']);
    expect(place('{ "ty|pe": "table" }')).toEqual(['key', '', '"type"']);
  });
});

describe('completion from the meta-schema', () => {
  it('offers the properties an object may still take, the required first', () => {
    const found = labels('{ "type": "table", | }');
    expect(found).toEqual(expect.arrayContaining(['columns', 'entity', 'resource', 'title', 'toolbarActions']));
    expect(found).not.toContain('type');
    expect(found).not.toContain('$schema');
    const { state, pos } = at('{ "type": "table", | }');
    const columns = completionsAt(state, pos, table, t)!.options.find((o) => o.displayLabel === 'columns')!;
    expect(columns.detail).toBe('lista');
    expect(columns.boost).toBe(1);
  });

  it('follows $refs into the bundled common definitions and array items', () => {
    expect(labels('{ "columns": [ { "id": "rejestr", | } ] }')).toEqual(expect.arrayContaining(['width', 'hide', 'header', 'cell']));
  });

  it('offers a value’s allowed values', () => {
    expect(labels('{ "type": | }')).toEqual(['"table"']);
    expect(labels('{ "columns": [ { "id": "x", "hide": | } ] }')).toEqual(expect.arrayContaining(['true', 'false']));
  });

  it('chooses by the text typed so far where the schema says if/then or oneOf', () => {
    // meta/screen: the properties of a table once "type" says table, of a menu once it says menu
    expect(labels('{ "type": "table", | }', screen)).toContain('columns');
    expect(labels('{ "type": "menu", | }', screen)).toContain('groups');
    expect(labels('{ "type": "menu", | }', screen)).not.toContain('columns');
    // a cell's oneOf: the icon cell's own properties once its type says icon
    expect(labels('{ "columns": [ { "id": "x", "cell": { "type": "icon", | } } ] }')).toContain('icons');
  });

  it('inserts a property with a value to start from', () => {
    const { state, pos } = at('{ "type": "table", | }');
    const option = completionsAt(state, pos, table, t)!.options.find((o) => o.displayLabel === 'columns')!;
    expect(option.apply).toBeTypeOf('function'); // a snippet: "columns": [|]
    expect(schemasAt(table, '/columns/0', { columns: [{}] }).some((s) => s.required?.includes('id'))).toBe(true);
  });
});

describe('hover', () => {
  it('describes the property under the pointer, in Polish', () => {
    const { state, pos } = at('{ "type": "table", "ent|ity": "car" }');
    const hover = hoverAt(state, pos, table, t)!;
    expect(hover.text).toMatch(/Entity schema id/);
    expect(hover.details).toBe('Typ: tekst');
    const typeHover = hoverAt(at('{ "ty|pe": "table" }').state, at('{ "ty|pe": "table" }').pos, table, t)!;
    expect(typeHover.details).toContain('Dozwolone: "table"');
  });
});
