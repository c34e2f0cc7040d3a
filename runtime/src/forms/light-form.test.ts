import { describe, expect, it } from 'vitest';
import { choicesOf, formMessages, initialData, requiredFields, withValue } from './light-form';

const t = (key: string, vars?: Record<string, unknown>) => (vars?.limit !== undefined ? `${key}(${vars.limit})` : key);

// the shape of schemas/api/auth-request: a choice, a login rule, fields required for some choices
const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'login-like',
  type: 'object',
  required: ['username', 'password', 'role'],
  properties: {
    username: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[a-z.]*$', 'x-messages': { pattern: 'validation:login' } },
    password: { type: 'string', pattern: '^[^\\u0000]*$', minLength: 1 },
    role: { type: 'string', enum: ['USER', 'MANAGER'], default: 'USER' },
    rejestr: { type: ['string', 'null'], maxLength: 10 },
  },
  allOf: [{ if: { properties: { role: { const: 'USER' } } }, then: { required: ['rejestr'] } }],
};

describe('the light form (login page)', () => {
  it('starts from the schema defaults', () => {
    expect(initialData(schema)).toEqual({ role: 'USER' });
  });

  it('gives one Polish message per field, the property’s own key first', () => {
    const messages = formMessages(schema, { role: 'USER', username: 'zły login!', password: 'a\u0000' }, new Set(), t);
    expect(messages).toEqual({ username: 'validation:login', password: 'validation:noNul', rejestr: 'validation:required' });
  });

  it('neither checks nor sends a hidden field', () => {
    const hidden = new Set(['rejestr']);
    expect(formMessages(schema, { role: 'USER', username: 'jan', password: 'x', rejestr: '12345678901' }, hidden, t)).toEqual({});
    expect(formMessages(schema, { role: 'MANAGER', username: 'jan', password: 'x', rejestr: '12345678901' }, hidden, t)).toEqual({});
    expect(formMessages(schema, { role: 'MANAGER', username: 'jan', password: 'x', rejestr: '12345678901' }, new Set(), t)).toEqual({ rejestr: 'validation:maxLength(10)' });
  });

  it('treats an emptied input as missing', () => {
    const data = withValue({ role: 'USER', username: 'jan' }, 'username', '');
    expect(data).toEqual({ role: 'USER' });
    expect(formMessages(schema, data, new Set(['rejestr']), t).username).toBe('validation:required');
  });

  it('takes the choices from the screen, else from the enum', () => {
    expect(choicesOf({ options: [{ value: 'USER', label: 'app:roles.USER' }] }, schema.properties.role, t)).toEqual([{ value: 'USER', label: 'app:roles.USER' }]);
    expect(choicesOf({}, schema.properties.role, t).map((c) => c.value)).toEqual(['USER', 'MANAGER']);
  });

  it('marks as required what the schema requires for the data as it stands', () => {
    const ids = ['username', 'password', 'role', 'rejestr'];
    expect([...requiredFields(schema, { role: 'USER' }, ids)].sort()).toEqual(['password', 'rejestr', 'role', 'username']);
    expect([...requiredFields(schema, { role: 'MANAGER', rejestr: 'WZ1' }, ids)].sort()).toEqual(['password', 'role', 'username']);
  });
});
