import { describe, expect, it } from 'vitest';
import { convertCell } from './convert.ts';

describe('a date cell', () => {
  it('of the right format but a day the calendar has not is said not to exist, not to be of a wrong format (issue 49)', () => {
    expect(convertCell('31.02.2025', 'date')).toEqual({ error: 'import:errors.noSuchDate' });
    expect(convertCell('29.02.2025 10:00', 'datetime')).toEqual({ error: 'import:errors.noSuchDate' });
  });
  it('of the right format but an hour the clock has not says so', () => {
    expect(convertCell('28.02.2025 24:10', 'datetime')).toEqual({ error: 'import:errors.noSuchTime' });
  });
  it('of another format names the format expected', () => {
    expect(convertCell('2025/02/28', 'date')).toEqual({ error: 'import:errors.date' });
    expect(convertCell('luty 2025', 'datetime')).toEqual({ error: 'import:errors.datetime' });
  });
  it('that exists is read as its day', () => {
    expect(convertCell('29.02.2024', 'date')).toEqual({ value: '2024-02-29' });
  });
});
