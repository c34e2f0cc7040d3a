/**
 * An import's trail entries made in one pass (trail-entries.ts `makeTrailChunk`, audit/record.ts
 * `chainSharing`) are the entries the general writer makes of the same records: the same COPY text,
 * values, hashes and head, so a chain verifies whichever made it.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Actor, Changes } from '../audit/index.ts';
import { chainEntries } from '../audit/record.ts';
import { makeTrailChunk, recordChanges, type RecordAction, type ReturnedRow } from './trail-entries.ts';

/** The records' entries as they were first made: a changes object per record, diffed as below, chained by the general writer. */
function firstEntries(author: Actor, resource: string, action: RecordAction, rows: ReturnedRow[]) {
  const parse = (v: ReturnedRow['_trailAfter']) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
  return rows.flatMap((row) => {
    const before = parse(row._trailBefore);
    const after = parse(row._trailAfter);
    const changes: Changes = {};
    for (const field in after) {
      const value = after[field] ?? null;
      const old = before[field] ?? null;
      if (action === 'create' && value === null) continue;
      if (JSON.stringify(old) !== JSON.stringify(value)) changes[field] = [old, value];
    }
    return Object.keys(changes).length ? [{ actor: author, resource, recordKey: String(row._trailKey), action, changes }] : [];
  });
}

const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ unit: 'grapheme' }), fc.constantFrom('a\tb', 'ą\nę', 'c:\\x', '2026-12-07T10:00:00.000Z'));
const json = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('b', 'a', 'ż'), scalar, { maxKeys: 3 }));
/** Column names: ordinary, Polish, quoted, and ones the trail masks (audit/secrets.ts). */
const column = fc.constantFrom('licznik', 'data', 'nrRej', 'uwagi', 'żółw', 'a"b', 'password', 'token', 'Z', 'a');
const author = fc.constantFrom<Actor>(
  { kind: 'system', job: 'import-7', label: 'Anna Nowak · transakcje.csv', session: 'import-7' },
  { kind: 'user', userId: 4, role: 'ADMIN', label: 'Jan\tKowalski', address: '10.0.0.1', session: 's-1' },
  { kind: 'integration', keyId: 2, accountId: 3 },
);

/** Rows of one write: the same columns in each (as one RETURNING makes them), now and then a row of others. */
const rows = fc.tuple(fc.uniqueArray(column, { minLength: 1, maxLength: 6 }), fc.uniqueArray(column, { minLength: 1, maxLength: 6 })).chain(([columns, others]) => {
  const row = fc.tuple(fc.nat(99), fc.boolean(), fc.boolean(), fc.array(json, { minLength: 6, maxLength: 6 }), fc.array(json, { minLength: 6, maxLength: 6 }), fc.boolean())
    .map(([key, asText, fresh, before, after, odd]): ReturnedRow => {
      const names = odd ? others : columns;
      const object = (values: unknown[]) => Object.fromEntries(names.map((n, i) => [n, values[i]]));
      // a changed row keeps some values as they were
      const beforeObject = fresh ? {} : object(before.map((v, i) => (i % 2 ? after[i] : v)));
      return asText
        ? { _trailKey: String(key), _trailBefore: JSON.stringify(beforeObject), _trailAfter: JSON.stringify(object(after)) }
        : { _trailKey: String(key), _trailBefore: beforeObject, _trailAfter: object(after) };
    });
  return fc.array(row, { maxLength: 12 });
});

describe('an import\'s trail entries made in one pass', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-07T01:02:03.456Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('are the general writer\'s entries of the same records: COPY text, values, hashes and head', () => {
    fc.assert(fc.property(author, fc.constantFrom<RecordAction>('create', 'update', 'withdraw'), rows, fc.boolean(), (who, action, returned, copy) => {
      const head = { seq: '41', hash: 'a'.repeat(64) };
      const made = makeTrailChunk({ head, author: who, resource: 'fuel-transactions', action, copy, rows: returned });
      const expected = chainEntries(head, firstEntries(who, 'fuel-transactions', action, returned), copy);
      expect(made).toEqual(expected);
    }), { numRuns: 400 });
  });

  it('keeps the fields that differ, a new record\'s given fields, masks secrets, and skips a row that changed nothing', () => {
    const changes = (action: RecordAction, returned: ReturnedRow[]) => recordChanges(action, returned).map((r) => [r.recordKey, JSON.parse(r.changes)]);
    expect(changes('update', [
      { _trailKey: '1', _trailBefore: { licznik: 1000, data: '2025-01-01' }, _trailAfter: { licznik: 1200, data: '2025-01-01' } },
      { _trailKey: '2', _trailBefore: { licznik: 5 }, _trailAfter: { licznik: 5 } },
      { _trailKey: '3', _trailBefore: '{"token": "abc", "uwagi": "x"}', _trailAfter: '{"token": "def", "uwagi": "x"}' },
    ])).toEqual([['1', { licznik: [1000, 1200] }], ['3', { token: ['zmieniono', 'zmieniono'] }]]);
    expect(changes('create', [{ _trailKey: '3', _trailBefore: '{}', _trailAfter: '{"licznik": 7, "uwagi": null}' }])).toEqual([['3', { licznik: [null, 7] }]]);
  });
});
