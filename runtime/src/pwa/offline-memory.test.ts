import { describe, expect, it } from 'vitest';
import { jsonText } from './offline-memory';

/** Moments of a given length: how many the writing asked for is counted. */
function moments(ms: number) {
  let count = 0;
  const moment = async () => {
    count += 1;
    const end = performance.now() + ms;
    return () => end - performance.now();
  };
  return { moment, count: () => count };
}

describe('jsonText: an answer written as JSON in pieces while the page is idle', () => {
  const answer = {
    version: '1.0',
    screens: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`screen-${i}`, { type: 'table', columns: [{ field: 'a', label: `x"${i}\\` }], when: null, nested: { deep: { deeper: [1, 2, { z: 'ą' }] } } }])),
    list: [1, 'two', null, true, { three: [3] }],
    empty: {},
    none: [],
    text: 'zażółć "gęślą" jaźń\n',
  };

  it('joins to the text JSON.stringify writes', async () => {
    expect(await jsonText(answer, moments(50).moment)).toBe(JSON.stringify(answer));
  });

  it('writes plain values and arrays as JSON does', async () => {
    for (const value of [null, 0, 'text', true, [], [[1], [2, [3, [4]]]], { a: { b: { c: { d: 1 } } } }]) {
      expect(await jsonText(value, moments(50).moment)).toBe(JSON.stringify(value));
    }
  });

  it('waits for another idle moment when the one it had is used up', async () => {
    const { moment, count } = moments(0);
    expect(await jsonText(answer, moment)).toBe(JSON.stringify(answer));
    expect(count()).toBeGreaterThan(50);
  });
});
