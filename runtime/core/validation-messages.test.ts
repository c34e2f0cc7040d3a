import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import pl from '../../locales/pl/validation.json';
import login from '../../locales/pl/login.json';
import authRequest from '../../schemas/api/auth-request.schema.json';
import { fieldMessages } from './validation-messages';

const locales: Record<string, any> = { validation: pl, login };
const t = (key: string, vars: Record<string, unknown> = {}) => {
  const [ns, path] = key.split(':');
  const text = path.split('.').reduce((n: any, p) => n?.[p], locales[ns]) as string;
  return text.replace(/\{\{(\w+)\}\}/g, (_, v) => String(vars[v]));
};

describe('validation messages', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(authRequest);

  it('says "Pole nie może być puste" for a missing or empty login', () => {
    validate({ password: 'x', role: 'MANAGER', username: '' });
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'username', message: 'Pole nie może być puste' });
    validate({ password: 'x', role: 'MANAGER' });
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'username', message: 'Pole nie może być puste' });
  });

  it('uses a field’s own message key from x-messages', () => {
    validate({ username: 'a', password: 'x', role: 'ADVISOR', rejestr: 'WZ1', vin: '123' });
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'vin', message: 'Podaj dokładnie 6 ostatnich znaków numeru VIN' });
  });

  it('keeps the limit in the maximum-length message', () => {
    validate({ username: 'a'.repeat(51), password: 'x', role: 'MANAGER' });
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'username', message: 'Pole może mieć najwyżej 50 znaków' });
  });

  it('refuses a NUL character in the same schema the browser uses, with its own message', () => {
    // the browser's login form and the server validate one schema: the rule holds in both
    expect(validate({ username: 'a', password: 'a\u0000b', role: 'MANAGER' })).toBe(false);
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'password', message: 'Pole zawiera niedozwolony znak (NUL)' });
    // the login has the stricter rule of spec §5 (letters, digits, dot, underscore, hyphen), NUL included
    expect(validate({ username: 'a\u0000b', password: 'x', role: 'MANAGER' })).toBe(false);
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'username', message: 'Wprowadzony login zawiera niedozwolone znaki' });
    expect(validate({ username: 'Zażółć', password: 'x', role: 'MANAGER' })).toBe(true);
  });

  it('requires the plate for a vehicle user', () => {
    validate({ username: 'a', password: 'x', role: 'USER' });
    expect(fieldMessages(validate.errors!, t, authRequest)).toContainEqual({ field: 'rejestr', message: 'Pole nie może być puste' });
  });
});
