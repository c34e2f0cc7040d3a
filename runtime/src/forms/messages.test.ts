import { describe, expect, it } from 'vitest';
import login from '../../../locales/pl/login.json';
import validation from '../../../locales/pl/validation.json';
import authRequest from '../../../schemas/api/auth-request.schema.json';
import { serverErrorSchema, translateErrors } from './messages';
import { formValidator } from './validator';

const locales: Record<string, any> = { validation, login };
const t = (key: string, vars: Record<string, unknown> = {}) => {
  const [ns, path] = key.split(':');
  const text = path.split('.').reduce((n: any, p) => n?.[p], locales[ns]);
  if (typeof text !== 'string') throw new Error(`missing text ${key}`);
  return text.replace(/\{\{(\w+)\}\}/g, (_, v) => String(vars[v]));
};

/** Validates like an rjsf form does and returns field → message. */
function messages(formData: Record<string, unknown>, hidden: string[] = []) {
  const { errors } = formValidator.validateFormData(formData, authRequest as any, undefined, (errs) =>
    translateErrors(errs, t, authRequest, { hiddenFields: new Set(hidden) }),
  );
  return Object.fromEntries(errors.map((e) => [e.property!.replace(/^\./, ''), e.message]));
}

describe('form validation messages', () => {
  it('says "Pole nie może być puste" for a missing login and password', () => {
    expect(messages({ role: 'MANAGER' })).toEqual({ username: 'Pole nie może być puste', password: 'Pole nie może być puste' });
  });

  it('requires the plate for a vehicle user, with the required message', () => {
    expect(messages({ role: 'USER', username: 'a', password: 'x' })).toEqual({ rejestr: 'Pole nie może być puste' });
  });

  it('uses the field’s own key from x-messages (VIN length)', () => {
    expect(messages({ role: 'ADVISOR', username: 'a', password: 'x', rejestr: 'WZ1', vin: '123' })).toEqual({
      vin: 'Podaj dokładnie 6 ostatnich znaków numeru VIN',
    });
  });

  it('puts the limit into the maximum-length message', () => {
    expect(messages({ role: 'MANAGER', username: 'a'.repeat(51), password: 'x' })).toEqual({
      username: 'Pole może mieć najwyżej 50 znaków',
    });
  });

  it('drops errors of fields that are hidden', () => {
    expect(messages({ role: 'MANAGER', username: 'a', password: 'x', vin: '12' }, ['vin', 'rejestr'])).toEqual({});
  });

  it('shows one message per field', () => {
    const { errors } = formValidator.validateFormData({ role: 'ADVISOR', username: 'a', password: 'x' }, authRequest as any, undefined, (errs) =>
      translateErrors(errs, t, authRequest),
    );
    const fields = errors.map((e) => e.property);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it('turns a 400 body’s field errors into errors on those fields', () => {
    expect(serverErrorSchema([{ field: 'vin', message: 'Zły VIN' }, { field: 'a.b', message: 'X' }])).toEqual({
      vin: { __errors: ['Zły VIN'] },
      a: { b: { __errors: ['X'] } },
    });
  });
});
