import { describe, expect, it } from 'vitest';
import { PoolQueueFullError } from './connect.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('errors that mean "the database is away" (answered 503)', () => {
  it('covers a restart, a lost connection, a refused or timed-out connection and a full pool', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '08P01', '53300', '57014', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new PoolQueueFullError(200))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')]))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: withCode('57P01') }))).toBe(true);
  });

  it('leaves real faults alone: constraint violations, syntax errors and plain bugs stay what they are', () => {
    for (const code of ['23505', '23503', '42601', '42P01', '22P02']) expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('undefined is not a function'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
