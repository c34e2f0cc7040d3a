import { describe, expect, it } from 'vitest';
import { workerCount, WorkersSettingError } from './cluster.ts';

describe('WORKERS', () => {
  it('is one process without a primary when unset or empty', () => {
    expect(workerCount(undefined, 8)).toBeUndefined();
    expect(workerCount('', 8)).toBeUndefined();
  });

  it('is a count of worker processes, or one per core for auto', () => {
    expect(workerCount('1', 8)).toBe(1);
    expect(workerCount('3', 8)).toBe(3);
    expect(workerCount('auto', 8)).toBe(8);
    expect(workerCount(' AUTO ', 2)).toBe(2);
  });

  it('refuses what is not a whole count from 1 to 256', () => {
    for (const raw of ['0', '-1', '1.5', 'two', '257', '2x']) expect(() => workerCount(raw, 8), raw).toThrow(WorkersSettingError);
  });
});
