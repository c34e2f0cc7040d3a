import { describe, expect, it } from 'vitest';
import { formModel, isRequired, newMessageKey, requiredMessageKey, setMaxLength, setRequired, setRequiredMessageKey, setText, textIn } from './form-model';

const wizard = {
  type: 'wizard', title: 'order-wizard:title', labels: 'order', schema: 'order-add-request', record: 'order',
  steps: [
    { id: 'details', label: 'order-wizard:steps.details', kind: 'fields', fields: [{ id: 'rejestr' }, { id: 'zgloZakres', label: 'order-wizard:fields.zgloZakres' }] },
    { id: 'scope', label: 'order-wizard:steps.scope', kind: 'list', list: { path: 'rangePositions', labels: 'order-position', fields: [{ id: 'tresc' }] } },
    { id: 'notes', label: 'order-wizard:steps.notes', kind: 'list', list: { path: 'notes', itemSchema: 'note-create-request', fields: [{ id: 'tresc' }] } },
    { id: 'summary', label: 'order-wizard:steps.summary', kind: 'summary' },
  ],
};
const schema = {
  $id: 'order-add-request',
  properties: {
    order: { required: ['rejestr'], properties: { rejestr: { type: 'string', maxLength: 10 }, zgloZakres: { type: ['string', 'null'], maxLength: 2000 } } },
    rangePositions: { type: 'array', items: { required: ['tresc'], properties: { tresc: { type: 'string' } } } },
  },
};

describe('a form as the forms tab sees it', () => {
  it('maps a wizard’s fields to the record’s properties and a list’s fields to its items', () => {
    const model = formModel(wizard, schema);
    expect(model.isWizard).toBe(true);
    const [details, scope, notes] = model.steps;
    expect(details.fields[0]).toEqual({ id: 'rejestr', labelKey: 'order:fields.rejestr', screenPointer: '/steps/0/fields/0', parentPointer: '/properties/order', propertyPointer: '/properties/order/properties/rejestr' });
    expect(details.fields[1].labelKey).toBe('order-wizard:fields.zgloZakres');
    expect(scope.fields[0]).toMatchObject({ labelKey: 'order-position:fields.tresc', screenPointer: '/steps/1/list/fields/0', propertyPointer: '/properties/rangePositions/items/properties/tresc' });
    // a list checked by a schema of its own: its fields are not edited here
    expect(notes.fields[0].propertyPointer).toBeNull();
  });

  it('maps a form’s fields to the request’s own properties, and leaves out fields that are not sent', () => {
    const form = { type: 'form', title: 'email:title', schema: 'email-config', fields: [{ id: 'smtpHost' }, { id: 'repeat', formOnly: true }] };
    const model = formModel(form, { properties: { smtpHost: { type: 'string' }, repeat: { type: 'string' } } });
    expect(model.steps[0].fields.map((f) => f.propertyPointer)).toEqual(['/properties/smtpHost', null]);
    expect(model.steps[0].fields[0].labelKey).toBe('email:fields.smtpHost');
    const host = model.steps[0].fields[0];
    const schema = { required: ['smtpHost'], properties: { smtpHost: { type: 'string' } } };
    expect(isRequired(schema, host)).toBe(true);
    setRequired(schema, host, false);
    expect(schema).toEqual({ properties: { smtpHost: { type: 'string' } } });
  });

  it('makes a field required or not, changes its maximum length and its required-field message', () => {
    const copy = JSON.parse(JSON.stringify(schema));
    const zakres = formModel(wizard, copy).steps[0].fields[1];
    expect(isRequired(copy, zakres)).toBe(false);
    setRequired(copy, zakres, true);
    expect(copy.properties.order.required).toEqual(['rejestr', 'zgloZakres']);
    setMaxLength(copy, zakres, 500);
    setRequiredMessageKey(copy, zakres, newMessageKey('custom', 'order-wizard', 'zgloZakres'));
    expect(copy.properties.order.properties.zgloZakres).toEqual({ type: ['string', 'null'], maxLength: 500, 'x-messages': { required: 'custom:messages.order-wizard.zgloZakres' } });
    expect(requiredMessageKey(copy, zakres)).toBe('custom:messages.order-wizard.zgloZakres');
    setRequiredMessageKey(copy, zakres, null);
    setRequired(copy, zakres, false);
    setMaxLength(copy, zakres, null);
    expect(copy.properties.order).toEqual({ required: ['rejestr'], properties: { rejestr: { type: 'string', maxLength: 10 }, zgloZakres: { type: ['string', 'null'] } } });
  });

  it('gives the new message to every keyword that means empty, and the default back', () => {
    const copy = { properties: { order: { properties: { rejestr: { type: 'string', minLength: 1, pattern: '\\S', 'x-messages': { pattern: 'validation:required' } } } } } };
    const rejestr = formModel(wizard, copy).steps[0].fields[0];
    setRequiredMessageKey(copy, rejestr, 'custom:messages.order-wizard.rejestr');
    expect(copy.properties.order.properties.rejestr['x-messages']).toEqual({ required: 'custom:messages.order-wizard.rejestr', minLength: 'custom:messages.order-wizard.rejestr', pattern: 'custom:messages.order-wizard.rejestr' });
    setRequiredMessageKey(copy, rejestr, null);
    expect(copy.properties.order.properties.rejestr['x-messages']).toEqual({ pattern: 'validation:required' });
  });

  it('writes and reads texts of a locale document by key', () => {
    const custom: Record<string, any> = {};
    setText(custom, 'custom:messages.order-wizard.zgloZakres', 'Opisz zakres');
    setText(custom, 'custom:menu.help', 'Pomoc');
    expect(custom).toEqual({ messages: { 'order-wizard': { zgloZakres: 'Opisz zakres' } }, menu: { help: 'Pomoc' } });
    expect(textIn(custom, 'custom:menu.help')).toBe('Pomoc');
    expect(textIn(custom, 'custom:menu.none')).toBeUndefined();
  });
});
