/**
 * The @rjsf uiSchema of a form screen, computed from the screen file's `fields` (DESIGN.md §2:
 * data schema and UI schema kept apart). Pure, so it is tested without a DOM.
 */
import type { UiSchema } from '@rjsf/utils';
import { fieldLabelKey } from '../../core/labels';
import type { FormFieldDecl } from '../config/bundle';
import type { Translate } from '../format';
import { isInputFormatName } from './input-format-names';

export { hiddenFieldIds, namespaceOf, withoutHidden, withoutSchemaTexts } from './field-rules';

/** Widgets of the screen files that map to rjsf's built-in widget names. */
const BUILT_IN_WIDGETS: Partial<Record<NonNullable<FormFieldDecl['widget']>, string>> = {
  password: 'password',
  radio: 'radio',
  select: 'select',
  checkbox: 'checkbox',
  textarea: 'textarea',
  text: 'text',
};

/** Name under which forms/widgets.tsx registers the upper-casing text input. */
export const UPPER_CASE_WIDGET = 'upperCaseText';
/** Name under which forms/widgets.tsx registers the password input with the strength meter. */
export const NEW_PASSWORD_WIDGET = 'newPassword';
/** Name under which forms/widgets.tsx registers the autocomplete input (its `source` in ui:options). */
export const AUTOCOMPLETE_WIDGET = 'autocomplete';
/** Name under which forms/widgets.tsx registers the file input (its `fileLimits` and field id in ui:options). */
export const FILE_WIDGET = 'file';
/** Name under which forms/CheckboxMapField.tsx is registered: one checkbox per key of an object of flags. */
export const CHECKBOX_MAP_FIELD = 'checkboxMap';
/** Name under which forms/CheckboxListField.tsx is registered: one checkbox per answer of its `source`, the value a list. */
export const CHECKBOX_LIST_FIELD = 'checkboxList';

/** Name under which forms/ConfiguredForm.tsx registers the field that draws nothing (a field declared `hidden`). */
export const NOTHING_FIELD = 'nothing';

/** The label key of one key of a checkboxMap field: its `itemLabel` with {key} filled in. */
export const itemLabelKey = (template: string, key: string) => template.replaceAll('{key}', key);

export interface UiSchemaOptions {
  t: Translate;
  /** Namespace of the default labels `<ns>:fields.<id>`. */
  namespace: string;
  hidden: ReadonlySet<string>;
  disabled?: ReadonlySet<string>;
  submitLabel?: string;
  submitDisabled?: boolean;
  /** The form draws its own buttons (e.g. submit beside sign-out). */
  hideSubmit?: boolean;
  /**
   * Properties of the form's schema the screen does not declare: drawn as nothing, their values
   * kept and sent as loaded (a form would otherwise draw them after its fields by their code names).
   */
  undeclared?: readonly string[];
}

export function buildUiSchema(fields: FormFieldDecl[], options: UiSchemaOptions): UiSchema {
  const { t, namespace, hidden } = options;
  const ui: UiSchema = {
    'ui:order': [...fields.map((f) => f.id), '*'],
    'ui:submitButtonOptions': {
      submitText: options.submitLabel,
      norender: options.hideSubmit,
      props: { disabled: options.submitDisabled, className: 'w-100' },
    },
  };
  for (const id of options.undeclared ?? []) ui[id] = { 'ui:field': NOTHING_FIELD, 'ui:widget': 'hidden' };
  for (const field of fields) {
    // declared hidden: what the loaded record carries for the form itself (the languages offered),
    // drawn as nothing whatever its type (rjsf draws an array without items as "Unsupported field
    // schema"), its value kept and sent back as loaded
    if (field.hidden) {
      ui[field.id] = { 'ui:field': NOTHING_FIELD, 'ui:widget': 'hidden' };
      continue;
    }
    const entry: UiSchema = { 'ui:title': t(field.label ?? fieldLabelKey(namespace, field.id)) };
    if (hidden.has(field.id)) entry['ui:widget'] = 'hidden';
    else if (field.upperCase) entry['ui:widget'] = UPPER_CASE_WIDGET;
    else if (field.widget === 'newPassword') entry['ui:widget'] = NEW_PASSWORD_WIDGET;
    else if (field.widget === 'autocomplete') {
      entry['ui:widget'] = AUTOCOMPLETE_WIDGET;
      entry['ui:options'] = { source: field.source };
    }
    else if (field.widget === 'file') {
      entry['ui:widget'] = FILE_WIDGET;
      entry['ui:options'] = { fileLimits: field.fileLimits, fieldId: field.id };
    }
    // an object of flags by key (the events a user is notified of): a field of its own, not a widget
    else if (field.widget === 'checkboxMap') {
      entry['ui:field'] = CHECKBOX_MAP_FIELD;
      entry['ui:options'] = { itemLabel: field.itemLabel };
    }
    // a list of values chosen among the answers of a GET (the clients, the scopes): a field of its own
    else if (field.widget === 'checkboxList') {
      entry['ui:field'] = CHECKBOX_LIST_FIELD;
      entry['ui:options'] = { source: field.source };
    }
    else if (field.widget && BUILT_IN_WIDGETS[field.widget]) entry['ui:widget'] = BUILT_IN_WIDGETS[field.widget];
    // money, mileage, phone, postcode, date, dateTime: forms/widgets.tsx registers each by that name
    else if (isInputFormatName(field.widget)) entry['ui:widget'] = field.widget;
    // an option's label may show its value ("{{value}}:00" for the hours of a day)
    if (field.options) entry['ui:enumNames'] = Object.fromEntries(field.options.map((o) => [String(o.value), t(o.label, { value: o.value })]));
    // the screen file's value is an HTML autocomplete token (validated by its meta-schema)
    if (field.autocomplete) entry['ui:autocomplete'] = field.autocomplete as UiSchema['ui:autocomplete'];
    if (field.help) entry['ui:help'] = t(field.help);
    if (options.disabled?.has(field.id)) entry['ui:disabled'] = true;
    ui[field.id] = entry;
  }
  return ui;
}
