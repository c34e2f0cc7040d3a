/**
 * An order's status and intervention type are codes with texts in every language (order:statuses,
 * order-wizard:interventions); the database's dictionaries (order_status, intervention_type) hold
 * their Polish names only. The screens show the codes by their texts, so a Ukrainian or English
 * reader does not read "Oczekuje na akceptację Fleet Managera" in his orders table (issue 48).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/test-app.ts';

const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
const order = json('schemas/entities/order.schema.json');
const CODED = [
  { field: 'status', named: 'statusZnaczenie', labels: 'order:statuses', table: 'order_status' },
  { field: 'zgloInterw', named: 'zgloInterwNazwa', labels: 'order-wizard:interventions', table: 'intervention_type' },
];

const textOf = (language: string, key: string): unknown => {
  const [ns, path] = key.split(':');
  return path.split('.').reduce<any>((v, part) => v?.[part], json(`locales/${language}/${ns}.json`));
};

/** Every object of a screen file that shows a field (a column, a details field, a fact): its field. */
function shownFields(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => shownFields(v, out));
  else if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (typeof o.id === 'string' && ('label' in o || 'width' in o || 'valueLabels' in o || Object.keys(o).length === 1)) out.push(typeof o.field === 'string' ? o.field : o.id);
    Object.values(o).forEach((v) => shownFields(v, out));
  }
  return out;
}

/** The Polish names migration 001 puts into a dictionary table: code → name. */
function dictionary(table: string): Record<string, string> {
  const source = readFileSync(join(ROOT, 'server/migrations/001_data_model.ts'), 'utf8');
  const insert = new RegExp(`insert into ${table} \\([^)]*\\) values([\\s\\S]*?)\`,`).exec(source)![1];
  return Object.fromEntries([...insert.matchAll(/\((\d+|'[A-Z]+'), '([^']+)'/g)].map((m) => [m[1].replace(/'/g, ''), m[2]]));
}

describe('an order\'s status and intervention type in the reader\'s language (issue 48)', () => {
  it.each(CODED)('every $field has its text in pl, en and uk', ({ field, labels }) => {
    const codes = (order.properties[field].enum as unknown[]).filter((c) => c !== null);
    expect(codes.length).toBeGreaterThan(4);
    for (const language of ['pl', 'en', 'uk']) {
      expect(codes.filter((c) => typeof textOf(language, `${labels}.${c}`) !== 'string'), language).toEqual([]);
    }
  });

  it.each(CODED)('the Polish text of every $field is the dictionary\'s name, so the Polish office reads what it read', ({ labels, table }) => {
    const names = dictionary(table);
    expect(Object.keys(names).length).toBeGreaterThan(4);
    for (const [code, name] of Object.entries(names)) expect(textOf('pl', `${labels}.${code}`), code).toBe(name);
  });

  it('no screen shows the dictionaries\' Polish names: the orders table, an order\'s details and the Pulpit show the codes by their texts', () => {
    const files = readdirSync(join(ROOT, 'screens')).filter((f) => f.endsWith('.json')).map((f) => `screens/${f}`);
    const showing = files.filter((f) => shownFields(json(f)).some((id) => CODED.some((c) => c.named === id)));
    expect(showing).toEqual([]);
    // the columns keep their ids (a user's kept layout names them) and headers, and show the codes by their texts
    const columns = json('screens/orders-table.json').columns as { id: string }[];
    expect(columns.find((c) => c.id === 'statusZnaczenie')).toMatchObject({ field: 'status', header: 'order:fields.statusZnaczenie', valueLabels: 'order:statuses' });
    expect(columns.find((c) => c.id === 'zgloInterwNazwa')).toMatchObject({ field: 'zgloInterw', header: 'order:fields.zgloInterwNazwa', valueLabels: 'order-wizard:interventions' });
  });
});
