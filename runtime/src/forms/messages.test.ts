import { describe, expect, it } from 'vitest';
import login from '../../../locales/pl/login.json';
import validation from '../../../locales/pl/validation.json';
import app from '../../../locales/pl/app.json';
import enApp from '../../../locales/en/app.json';
import enValidation from '../../../locales/en/validation.json';
import { configureFormats } from '../format-settings';
import authRequest from '../../../schemas/api/auth-request.schema.json';
import { serverErrorSchema, translateErrors } from './messages';
import { formValidator } from './validator';

let locales: Record<string, any> = { validation, login, app };
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

  it("says which date it expected, in the reader's pattern and letters: DD.MM.RRRR in Polish, DD/MM/YYYY in English", () => {
    const dated = { type: 'object', properties: { day: { type: 'string', format: 'date' } } };
    const dateMessage = () => formValidator.validateFormData({ day: '31.12.2026' }, dated as any, undefined, (errs) => translateErrors(errs, t, dated)).errors[0]?.message;
    expect(dateMessage()).toBe('Niepoprawna data (oczekiwany format DD.MM.RRRR)');
    const polish = locales;
    try {
      locales = { validation: enValidation, app: enApp };
      configureFormats({ locale: 'en-GB', datePattern: 'DD/MM/YYYY' });
      expect(dateMessage()).toBe('Invalid date (expected format DD/MM/YYYY)');
    } finally {
      locales = polish;
      configureFormats({});
    }
  });

  it('turns a 400 body’s field errors into errors on those fields', () => {
    expect(serverErrorSchema([{ field: 'vin', message: 'Zły VIN' }, { field: 'a.b', message: 'X' }])).toEqual({
      vin: { __errors: ['Zły VIN'] },
      a: { b: { __errors: ['X'] } },
    });
  });
});
