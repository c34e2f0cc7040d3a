import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../core/conditions';
import conditionsJson from '../../../screens/conditions.json';
import loginJson from '../../../screens/login.json';
import type { LoginScreenDecl } from '../config/bundle';
import { buildUiSchema, CHECKBOX_MAP_FIELD, NOTHING_FIELD, hiddenFieldIds, itemLabelKey, UPPER_CASE_WIDGET, withoutHidden } from './ui-schema';

const ev = new ConditionEvaluator(conditionsJson);
const login = loginJson as unknown as LoginScreenDecl;
const t = (key: string) => `[${key}]`;
const hiddenFor = (role: string) => [...hiddenFieldIds(login.fields, ev, { role: null }, { role })].sort();

describe('login form uiSchema', () => {
  it('draws nothing of a schema property the screen does not declare (kept and sent as loaded)', () => {
    const ui = buildUiSchema([{ id: 'password' }] as never, { t, namespace: 'password', hidden: new Set(), undeclared: ['firstLogin'] });
    expect(ui.firstLogin).toEqual({ 'ui:field': NOTHING_FIELD, 'ui:widget': 'hidden' });
    expect(ui.password?.['ui:field']).toBeUndefined();
  });

  it('shows the plate for USER and ADVISOR and the VIN for ADVISOR only', () => {
    expect(hiddenFor('MANAGER')).toEqual(['rejestr', 'vin']);
    expect(hiddenFor('USER')).toEqual(['vin']);
    expect(hiddenFor('ADVISOR')).toEqual([]);
  });

  it('orders, labels and picks widgets from the screen file', () => {
    const ui = buildUiSchema(login.fields, { t, namespace: 'login', hidden: new Set(['vin']) });
    expect(ui['ui:order']).toEqual(['role', 'username', 'password', 'rejestr', 'vin', '*']);
    expect(ui.username['ui:title']).toBe('[login:fields.username]');
    expect(ui.username['ui:autocomplete']).toBe('username');
    expect(ui.password['ui:widget']).toBe('password');
    expect(ui.role['ui:widget']).toBe('radio');
    // the login's choices are the roles' one set of names (app:roles), the top bar's too
    expect(ui.role['ui:enumNames']).toEqual({ USER: '[app:roles.USER]', MANAGER: '[app:roles.MANAGER]', ADVISOR: '[app:roles.ADVISOR]' });
    expect(ui.rejestr['ui:widget']).toBe(UPPER_CASE_WIDGET);
    expect(ui.vin['ui:widget']).toBe('hidden');
  });

  it('does not send hidden fields', () => {
    expect(withoutHidden({ username: 'a', vin: '123456' }, new Set(['vin']))).toEqual({ username: 'a' });
  });
});

describe('form schema texts', () => {
  it('drops English titles and descriptions but keeps properties named like them', async () => {
    const { withoutSchemaTexts } = await import('./ui-schema');
    const schema = {
      title: 'Login request',
      description: 'x',
      properties: { title: { type: 'string', title: 'T' }, a: { type: 'string', description: 'd', maxLength: 3 } },
      allOf: [{ if: { title: 'i' }, then: { properties: { b: { description: 'e' } } } }],
    };
    expect(withoutSchemaTexts(schema)).toEqual({
      properties: { title: { type: 'string' }, a: { type: 'string', maxLength: 3 } },
      allOf: [{ if: {}, then: { properties: { b: {} } } }],
    });
  });
});

describe('uiSchema of a form with a checkbox per key and an hour list', async () => {
  const settings = (await import('../../../screens/notification-settings.json')).default as unknown as { fields: import('../config/bundle').FormFieldDecl[] };
  const tv = (key: string, vars?: Record<string, unknown>) => (vars && 'value' in vars ? `[${key}:${String(vars.value)}]` : `[${key}]`);

  it('draws an object of flags with the checkbox-map field, labelled by its template; no event is named', () => {
    const ui = buildUiSchema(settings.fields, { t: tv, namespace: 'notifications', hidden: new Set() });
    expect(ui.events['ui:field']).toBe(CHECKBOX_MAP_FIELD);
    expect(ui.events['ui:options']).toEqual({ itemLabel: 'notifications:events.{key}.label' });
    expect(itemLabelKey('notifications:events.{key}.label', 'damageReported')).toBe('notifications:events.damageReported.label');
  });

  it('an option\'s label shows its value (the hour 7 as "7:00")', () => {
    const ui = buildUiSchema(settings.fields, { t: tv, namespace: 'notifications', hidden: new Set() });
    expect(ui.digestHour['ui:widget']).toBe('select');
    expect(ui.digestHour['ui:enumNames']['7']).toBe('[notifications:settings.hour:7]');
    expect(Object.keys(ui.digestHour['ui:enumNames'])).toHaveLength(24);
  });
});
