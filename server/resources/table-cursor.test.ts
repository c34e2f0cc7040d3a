import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, queryFingerprint } from './table-cursor.ts';
import { TableQueryError } from '../db/table-query.ts';

const key = randomBytes(32);
const payload = { q: 'abc', p: 60, n: 1234, s: '2024-05-24 10:00:00.123456+02', k: '42' };

function refusal(fn: () => unknown) {
  try {
    fn();
  } catch (e) {
    if (e instanceof TableQueryError) return { code: e.code, field: e.field };
    throw e;
  }
  throw new Error('expected a refusal, the cursor was accepted');
}

describe('table cursors', () => {
  it('come back as they were issued', () => {
    expect(decodeCursor(key, encodeCursor(key, payload))).toEqual(payload);
    expect(decodeCursor(key, encodeCursor(key, { q: 'x', p: 30, s: null, k: '7' }))).toEqual({ q: 'x', p: 30, s: null, k: '7' });
  });

  it('are refused (400 naming the cursor) when changed, signed with another key, or not a cursor at all', () => {
    const cursor = encodeCursor(key, payload);
    const [body, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...payload, p: 0 })).toString('base64url');
    for (const bad of [`${forged}.${signature}`, encodeCursor(randomBytes(32), payload), `${body}.`, body, 'not a cursor', `${cursor}.x`, 'x'.repeat(3000)]) {
      expect(refusal(() => decodeCursor(key, bad))).toEqual({ code: 'badCursor', field: 'cursor' });
    }
  });

  it('fit a query by fingerprint: the same query in another key order fits, another filter or caller does not', () => {
    const a = queryFingerprint({ resource: 'order', filter: { status: { filterType: 'set', values: [1] }, rejestr: null }, caller: ['MANAGER', 2] });
    const b = queryFingerprint({ caller: ['MANAGER', 2], filter: { rejestr: null, status: { values: [1], filterType: 'set' } }, resource: 'order' });
    expect(a).toBe(b);
    expect(queryFingerprint({ resource: 'order', filter: { status: { filterType: 'set', values: [2] } }, caller: ['MANAGER', 2] })).not.toBe(a);
    expect(queryFingerprint({ resource: 'order', filter: { status: { filterType: 'set', values: [1] }, rejestr: null }, caller: ['MANAGER', 3] })).not.toBe(a);
  });
});
