import { describe, expect, it } from 'vitest';
import { answerFrom, answerTo, itemProblem } from './ChecklistStep';

const NAMES = { item: 'pozycja', verdict: 'wynik', value: 'wartosc', notes: 'uwagi', photos: 'zdjecia' };
const item = { id: 'tread', label: 'Bieżnik', measure: { min: 0, max: 20, unit: 'mm', failBelow: 1.6 }, photoWhenFailed: true } as unknown as Parameters<typeof itemProblem>[0];

describe('a checklist answer under the names the step declares (issue 45)', () => {
  it('is read from and written back to the record\'s fields, leaving out what it does not say', () => {
    const raw = { pozycja: 'tread', wynik: 'fail', wartosc: 1.2, zdjecia: 0 };
    const answer = answerFrom(raw, NAMES);
    expect(answer).toEqual({ item: 'tread', verdict: 'fail', value: 1.2, notes: undefined, photos: 0 });
    expect(answerTo(answer, NAMES)).toEqual(raw);
    const other = { item: 'id', verdict: 'result', value: 'measured', notes: 'remarks', photos: 'photoCount' };
    expect(answerTo({ item: 'lights', verdict: 'pass', notes: null }, other)).toEqual({ id: 'lights', result: 'pass', remarks: null });
  });

  it('keeps the step\'s rules: a failed measure needs its photo, an unanswered item is a problem', () => {
    expect(itemProblem(item, undefined, 0)?.key).toBe('inspection:wizard.unansweredItem');
    expect(itemProblem(item, answerFrom({ pozycja: 'tread', wynik: 'fail', wartosc: 1.2 }, NAMES), 0)?.key).toBe('inspection:errors.photoRequired');
    expect(itemProblem(item, answerFrom({ pozycja: 'tread', wynik: 'fail', wartosc: 1.2 }, NAMES), 1)).toBeNull();
    expect(itemProblem(item, answerFrom({ pozycja: 'tread', wynik: 'pass', wartosc: 1.2 }, NAMES), 0)?.key).toBe('inspection:errors.belowMinimum');
  });
});
