import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, entryCanonical, entryHash, type ChainedFields } from './chain.ts';
import { recordChangesVia, type AuditEntry } from './record.ts';

/** The canonical form as it was first written (issue 37): every chain on record was hashed over this text. */
function firstCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(firstCanonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).filter((k) => obj[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${firstCanonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** JSON values, with members left undefined and Polish, escaped and astral keys among them. */
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.constant(undefined), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.string({ unit: 'grapheme' }),
    fc.array(tie('any'), { maxLength: 4 }), fc.dictionary(fc.oneof(fc.string(), fc.constantFrom('ąę', 'a"b', 'z\\n', '😀', '__proto__x')), tie('any'), { maxKeys: 5 })),
})).any;

const fields = fc.record({
  seq: fc.nat(), at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), actorKind: fc.constantFrom('user' as const, 'integration' as const, 'system' as const),
  userId: fc.option(fc.nat()), role: fc.option(fc.string()), keyId: fc.option(fc.nat()), accountId: fc.option(fc.nat()), job: fc.option(fc.string()),
  actorLabel: fc.option(fc.string()), address: fc.option(fc.string()), session: fc.option(fc.string()), resource: fc.string(), recordKey: fc.option(fc.string()),
  action: fc.string(), changes: fc.dictionary(fc.string(), fc.tuple(value, value)), prevHash: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }),
}) as fc.Arbitrary<ChainedFields>;

describe('the chain\'s canonical form', () => {
  it('is the text the chain has always hashed, for any JSON value', () => {
    fc.assert(fc.property(value, (v) => canonical(v) === firstCanonical(v)), { numRuns: 2000 });
  });

  it('of a whole entry is the canonical form of its fields, with or without its changes\' text given', () => {
    fc.assert(fc.property(fields, (f) => {
      const expected = firstCanonical(f);
      return entryCanonical(f) === expected && entryCanonical(f, canonical(f.changes)) === expected;
    }), { numRuns: 500 });
  });

  it('hashes an entry written in bulk as its fields read back from the database hash', async () => {
    const rows: unknown[][] = [];
    const query = async (text: string, values?: unknown[]) => {
      if (text.startsWith('select')) return { rows: [{ seq: 41, hash: 'a'.repeat(64) }] };
      if (text.startsWith('insert')) for (let i = 0; i < values!.length; i += 17) rows.push(values!.slice(i, i + 17));
      return { rows: [] };
    };
    const when = new Date('2026-12-04T10:00:00.000Z');
    const entries: AuditEntry[] = [
      { actor: { kind: 'system', job: 'import-1', label: 'Anna Nowak · plik.csv' }, resource: 'car', recordKey: 7, action: 'update', changes: { przegladDo: [when, null], litry: [1.5, 2], nazwa: ['a\tb', 'ą\nę'] } },
      { actor: { kind: 'system', job: 'import-1' }, resource: 'car', recordKey: 8, action: 'create', changes: { password: ['x', 'y'], lista: [[1, { b: 2, a: 1 }], null] } },
    ];
    await recordChangesVia(query, entries);
    expect(rows).toHaveLength(2);
    let previous = 'a'.repeat(64);
    for (const row of rows) {
      const [seq, at, actorKind, userId, role, keyId, accountId, job, actorLabel, address, session, resource, recordKey, action, changes, prevHash, hash] = row as [number, string, ChainedFields['actorKind'], null, null, null, null, string, string | null, null, null, string, string, string, string, string, string];
      // as verify.ts reads an entry back: its changes parsed from the stored jsonb text
      const readBack: ChainedFields = { seq, at, actorKind, userId, role, keyId, accountId, job, actorLabel, address, session, resource, recordKey, action, changes: JSON.parse(changes), prevHash };
      expect(prevHash).toBe(previous);
      expect(hash).toBe(entryHash(readBack));
      previous = hash;
    }
    // the same entries through COPY: each line's fields, unescaped, are the inserted values
    let copyText = '';
    await recordChangesVia(query, entries, async (_table, _columns, text) => { copyText = text; });
    const unescape = (field: string) => (field === '\\N' ? null : field.replace(/\\(.)/g, (_, c: string) => ({ t: '\t', n: '\n', r: '\r' } as Record<string, string>)[c] ?? c));
    const copied = copyText.trimEnd().split('\n').map((line) => line.split('\t').map(unescape));
    expect(copied.map((row) => [row[8], row[12], row[14]])).toEqual(rows.map((row) => [row[8], String(row[12]), row[14]]));
    // a date is written as JSON writes it, a secret as "zmieniono"
    expect(JSON.parse(rows[0][14] as string).przegladDo).toEqual([when.toISOString(), null]);
    expect(JSON.parse(rows[1][14] as string).password).toEqual(['zmieniono', 'zmieniono']);
  });
});
