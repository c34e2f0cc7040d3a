import { describe, expect, it } from 'vitest';
import type { FormScreenDecl, Session } from '../config/bundle';
import { formSchema, requestBody } from './form-data';

const request = {
  $id: 'users-change-password-request',
  title: 'documentation',
  type: 'object',
  required: ['userId', 'password'],
  properties: { userId: { type: 'integer' }, password: { type: 'string', minLength: 1, maxLength: 30 }, firstLogin: { type: 'boolean' } },
};
const screen: Pick<FormScreenDecl, 'fields' | 'values'> = {
  fields: [{ id: 'password', widget: 'newPassword' }, { id: 'repeatPassword', formOnly: true, sameAs: 'password' }],
  values: { userId: { session: 'id' }, firstLogin: { const: true } },
};

describe('form data of a form screen', () => {
  it('shows the request schema without the values sent from elsewhere, with the repeated field taking the rules it repeats', () => {
    const schema = formSchema(request, screen);
    expect(Object.keys(schema.properties!)).toEqual(['password', 'repeatPassword']);
    expect(schema.required).toEqual(['password', 'repeatPassword']);
    expect(schema.properties!.repeatPassword).toEqual({ type: 'string', minLength: 1, maxLength: 30 });
    expect(schema.title).toBeUndefined();
  });

  it('sends the data without form-only fields, with constants and values from the session', () => {
    const session = { token: 't', user: { id: 42, login: 'nowy', rola: 'USER', firstLogin: true } } as Session;
    expect(requestBody({ password: 'x', repeatPassword: 'x' }, screen, session)).toEqual({ password: 'x', userId: 42, firstLogin: true });
  });

  it('sends a value the dialog was opened with (the selected row\'s id)', () => {
    const byAdmin = { fields: [{ id: 'password' }], values: { userId: { param: 'id' } } } as Parameters<typeof requestBody>[1];
    expect(requestBody({ password: 'x' }, byAdmin, null, { id: 7 })).toEqual({ password: 'x', userId: 7 });
  });
});

describe('a form whose fields come partly from the server (Ustawienia → Powiadomienia)', async () => {
  const settingsScreen = (await import('../../../screens/notification-settings.json')).default as unknown as FormScreenDecl;
  const settingsSchema = (await import('../../../schemas/api/notification-settings.schema.json')).default;

  it('offers the declared hours as the values of an hour the schema leaves open (0–23)', () => {
    const schema = formSchema(settingsSchema, settingsScreen);
    expect((schema.properties!.digestHour as { enum: number[] }).enum).toEqual(Array.from({ length: 24 }, (_, h) => h));
  });

  it('leaves a schema\'s own values alone', () => {
    const schema = formSchema({ type: 'object', properties: { ssl: { enum: ['OFF', 'SSL'] } } }, { fields: [{ id: 'ssl', widget: 'select', options: [{ value: 'OFF', label: 'x:off' }] }] });
    expect(schema.properties!.ssl).toEqual({ enum: ['OFF', 'SSL'] });
  });

  it('sends the flags of every event the server offered, as it offered them', () => {
    const loaded = { events: { orderAwaitingAcceptance: true, damageReported: false }, digest: true, digestHour: 7 };
    expect(requestBody(loaded, settingsScreen, null)).toEqual(loaded);
  });
});
