import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle, type Bundle } from '../config/load-bundle.ts';
import { textPlaces, type TextPlaces } from './places.ts';

const root = resolve(import.meta.dirname, '../..');

/** The bundle's Polish texts by key; a missing key gives its defaultValue, else the key. */
const translator = (bundle: Bundle) => (key: string, vars?: Record<string, unknown>) => {
  const i = key.indexOf(':');
  let node: unknown = bundle.locales.pl[key.slice(0, i)];
  for (const part of key.slice(i + 1).split('.')) node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : typeof vars?.defaultValue === 'string' ? vars.defaultValue : key;
};

describe('where a text is shown, in the words of the screens', () => {
  let bundle: Bundle;
  let places: TextPlaces;
  beforeAll(() => {
    bundle = loadBundle({ root, variant: 'default' });
    places = textPlaces(bundle, translator(bundle));
  });

  it('names a column by its table\'s menu entry, also when the header is the entity\'s field label by default', () => {
    // vehicles-table's column rejestr names no header: its label is car:fields.rejestr by default
    expect(places.placesOf('car:fields.rejestr')).toContain('Dane pojazdu → kolumna');
    expect(places.placesOf('order:fields.rejestr')).toContain('Zlecenia → kolumna');
  });

  it('names a dialog or a form by where it opens, with its own title, and puts the text\'s own screens first', () => {
    const wizard = places.placesOf('damage:wizard.odometerHelp');
    expect(wizard[0]).toMatch(/^Zlecenia → formularz „.+”$/);
    const order = places.placesOf('order:fields.zlecOpis', 5);
    expect(order[0]).toBe('Zlecenia → okno szczegółów');
  });

  it('names a menu entry\'s text by the menu and by the page it titles', () => {
    expect(places.placesOf('menu:items.orders')).toEqual(expect.arrayContaining(['Menu → pozycja', 'Zlecenia → tytuł strony']));
  });

  it('gives a text no screen names its group\'s name, never a key', () => {
    expect(places.placesOf('app:loading')).toEqual(['Cały portal']);
    for (const key of ['errors:internal', 'table:filters.contains', 'validation:required']) {
      for (const place of places.placesOf(key)) expect(place).not.toMatch(/^[a-z-]+:/);
    }
  });

  it('names each group of texts once, as the menu names its screens, none by its English id', () => {
    const names = places.namespaceNames;
    expect(names).toMatchObject({ car: 'Dane pojazdu', order: 'Zlecenia', 'acceptance-history': 'Historia akceptacji', 'config-studio': 'Konfiguracja portalu' });
    expect(new Set(Object.values(names)).size).toBe(Object.keys(names).length);
    for (const [ns, name] of Object.entries(names)) expect(name, ns).not.toBe(ns);
  });
});
