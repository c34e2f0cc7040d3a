/**
 * The studio's layer checked against the files (issue 26): an entry the files changed under is
 * broken (the id or key it changes is gone) and left out of serving while the rest is served; a
 * layer's problem names its layer path and pointer; the merge order base files → base layer →
 * variant files → variant layer.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../config/load-bundle.ts';
import { overlayBetween, touchesOf } from '../../runtime/core/layer.ts';
import type { Json } from '../../runtime/core/merge.ts';
import { brokenEntries, checkLayer, servableLayer, wordedFor } from './check.ts';
import { filesDocument, type Layer } from './documents.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let root: string;
const read = (path: string) => JSON.parse(readFileSync(join(root, path), 'utf8'));
const entry = (scope: string, path: string, edit: (doc: any) => void, layer: Layer = {}): Layer => {
  const files = filesDocument(root, scope, path, Object.fromEntries(Object.entries(layer).map(([p, e]) => [p, e.overlay])));
  const edited = structuredClone(files) as any;
  edit(edited);
  const overlay = overlayBetween(files, edited)!;
  return { ...layer, [scope === 'base' ? path : `client-variants/${scope}/${path}`]: { overlay, touches: touchesOf(files, overlay) } };
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'studio-check-'));
  for (const dir of ['screens', 'schemas', 'locales', 'client-variants', 'assets']) {
    if (existsSync(join(ROOT, dir))) cpSync(join(ROOT, dir), join(root, dir), { recursive: true });
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the layer over the files', () => {
  it('merges base files, base layer, variant files, variant layer in this order', () => {
    // variant t's files give t its own login title; the base layer changes the base one, t's layer t's
    let layer = entry('base', 'screens/app.json', (app) => { app.loginAppName = 'Baza (studio)'; app.name = 'baza-studio'; });
    expect(loadBundle({ root, variant: 't', layer: { 'screens/app.json': layer['screens/app.json'].overlay } }).app).toMatchObject({
      loginAppName: 'Partner CFM – klient T', // the variant's file wins over the base layer
      name: 'portal-t',
    });
    expect(loadBundle({ root, variant: 'default', layer: { 'screens/app.json': layer['screens/app.json'].overlay } }).app.loginAppName).toBe('Baza (studio)');
    layer = entry('t', 'screens/app.json', (app) => { app.loginAppName = 'T (studio)'; }, layer);
    const overlays = Object.fromEntries(Object.entries(layer).map(([p, e]) => [p, e.overlay])) as Record<string, Json>;
    expect(loadBundle({ root, variant: 't', layer: overlays }).app.loginAppName).toBe('T (studio)'); // the variant's layer comes last
    expect(loadBundle({ root, variant: 'p', layer: overlays }).app.loginAppName).not.toBe('T (studio)');
  });

  it('names a problem of the layer by its layer path and pointer', async () => {
    const layer = entry('t', 'screens/vehicles-table.json', (table) => { table.columns[0].width = 'szeroka'; });
    const problems = await checkLayer(root, layer);
    expect(problems).toEqual([expect.objectContaining({
      field: 'client-variants/t/screens/vehicles-table.json#/columns/0/width', layerPath: 'client-variants/t/screens/vehicles-table.json', scope: 't', where: 'columns › rejestr › width',
    })]);
    // a text a screen still uses, taken away: the screen's problem is the layer's
    const removed = entry('base', 'locales/pl/car.json', (car) => { delete car.fields.marka; });
    expect((await checkLayer(root, removed, ['default'])).map((p) => p.layerPath)).toContain('locales/pl/car.json');
  });

  it('reports an entry whose id the files no longer have as broken and serves the rest without it', async () => {
    let layer = entry('base', 'screens/vehicles-table.json', (table) => { table.columns.find((c: any) => c.id === 'marka').hide = true; });
    layer = entry('base', 'locales/pl/car.json', (car) => { car.fields.rejestr = 'Rejestracja'; }, layer);
    expect(brokenEntries(root, layer)).toEqual([]);
    // the developers remove the column from the file
    const file = join(root, 'screens/vehicles-table.json');
    const before = readFileSync(file, 'utf8');
    try {
      const table = read('screens/vehicles-table.json');
      table.columns = table.columns.filter((c: any) => c.id !== 'marka');
      writeFileSync(file, JSON.stringify(table, null, 2));
      expect(brokenEntries(root, layer)).toEqual([expect.objectContaining({ layerPath: 'screens/vehicles-table.json', where: 'columns › marka', broken: true })]);
      // its reason is a text of the studio, worded in the caller's language (issue 48), again when a reader of another is given it
      const texts: Record<string, Record<string, string>> = {
        pl: read('locales/pl/studio.json').broken, en: read('locales/en/studio.json').broken, uk: read('locales/uk/studio.json').broken,
      };
      const wordIn = (language: string) => (key: string) => texts[language][key.replace('studio:broken.', '')];
      const [polish] = brokenEntries(root, layer, wordIn('pl'));
      expect(polish.message).toBe('columns › marka: nie ma już tego w plikach konfiguracji (zmiana nie ma do czego się odnieść)');
      expect(wordedFor(polish, wordIn('en')).message).toBe('columns › marka: this is no longer in the configuration files (the change has nothing left to apply to)');
      expect(brokenEntries(root, layer, wordIn('uk'))[0].message).toBe('columns › marka: цього вже немає у файлах конфігурації (зміні нема до чого застосуватися)');
      const servable = await servableLayer(root, layer);
      expect(Object.keys(servable.overlays)).toEqual(['locales/pl/car.json']);
      expect(loadBundle({ root, layer: servable.overlays }).locales.pl.car).toMatchObject({ fields: { rejestr: 'Rejestracja' } });
    } finally {
      writeFileSync(file, before);
    }
  });

  it('refuses a $remove of an id that does not exist, naming it', async () => {
    const layer: Layer = { 'screens/menu.json': { overlay: { groups: [{ id: 'records', items: [{ id: 'nie-ma', $remove: true }] }] }, touches: [] } };
    const problems = await checkLayer(root, layer, ['default']);
    expect(problems).toEqual([expect.objectContaining({ layerPath: 'screens/menu.json', message: expect.stringContaining('"$remove" of id "nie-ma"') })]);
  });
});
