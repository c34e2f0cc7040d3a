import { describe, expect, it } from 'vitest';
import { parseUrlFilter, urlWithFilter } from './filter-param';

const awaiting = { status: { filterType: 'set', values: [1] } };

describe('a filter in a table\'s address', () => {
  it('is written URL-encoded and read back as URLSearchParams decodes it', () => {
    const url = urlWithFilter('/app/order', awaiting);
    expect(url).toBe(`/app/order?filter=${encodeURIComponent(JSON.stringify(awaiting))}`);
    expect(parseUrlFilter(new URL(url, 'http://x').searchParams.get('filter'))).toEqual(awaiting);
  });

  it('is ignored when it is not JSON, not an object, or empty', () => {
    for (const bad of [null, undefined, '', '{', 'not json', '%7B', '[1,2]', '"text"', '42', 'null', '{}']) expect(parseUrlFilter(bad)).toBeNull();
  });

  it('keeps only entries with a filter type on fields that are names', () => {
    const etap = { filterType: 'text', type: 'notEqual', filter: 'Zamknięta' };
    const value = JSON.stringify({ ...awaiting, bad: { values: [1] }, worse: 3, list: [1], 'a b': { filterType: 'text' }, etapZnacz: etap });
    expect(parseUrlFilter(value)).toEqual({ ...awaiting, etapZnacz: etap });
    expect(parseUrlFilter(JSON.stringify({ bad: { filterType: '' } }))).toBeNull();
  });

  it('leaves the address alone without a filter, and joins a query already there', () => {
    expect(urlWithFilter('/app/order', null)).toBe('/app/order');
    expect(urlWithFilter('/app/order', {})).toBe('/app/order');
    expect(urlWithFilter('/app/order?x=1', awaiting)).toMatch(/^\/app\/order\?x=1&filter=/);
  });
});
