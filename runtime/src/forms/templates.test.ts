import { describe, expect, it } from 'vitest';
import { distinctMessages, maxLengthOf } from './field-messages';
import type { ErrorSchema } from '@rjsf/utils';
import { withoutChangedFields } from './useFieldErrors';

describe('form templates', () => {
  it('gives an input the maxlength of its schema property', () => {
    expect(maxLengthOf({ maxLength: 50 })).toBe(50);
    expect(maxLengthOf({})).toBeUndefined();
    expect(maxLengthOf({ maxLength: 0 })).toBeUndefined();
  });

  it('shows a message said twice (browser and server) once', () => {
    expect(distinctMessages(['Pole nie może być puste', 'Pole nie może być puste'])).toEqual(['Pole nie może być puste']);
    expect(distinctMessages(undefined)).toEqual([]);
  });
});

describe('server messages after a change', () => {
  const errors = { smtpHost: { __errors: ['Pole nie może być puste'] }, smtpUser: { __errors: ['Pole nie może być puste'] } } as unknown as ErrorSchema;
  it('drops the message of a field whose value changed and keeps the others', () => {
    expect(withoutChangedFields(errors, { smtpHost: '', smtpUser: '' }, { smtpHost: 'smtp.example.pl', smtpUser: '' })).toEqual({ smtpUser: (errors as Record<string, unknown>).smtpUser });
  });
  it('has nothing left once every field changed', () => {
    expect(withoutChangedFields(errors, {}, { smtpHost: 'a', smtpUser: 'b' })).toBeUndefined();
  });
});
