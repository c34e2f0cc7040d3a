/**
 * The portal's @rjsf form, one home for what every form host shares: the portal's validator,
 * widgets and templates, messages on the fields (no error list at the top) and no browser
 * validation bubbles. The hosts (form dialog, form page, wizard step, wizard list row) add their
 * schema, data, callbacks and ref.
 */
import type { FormProps } from '@rjsf/core';
import Form from '@rjsf/react-bootstrap';
import type { RJSFSchema } from '@rjsf/utils';
import { CheckboxListField } from './CheckboxListField';
import { CheckboxMapField } from './CheckboxMapField';
import { formTemplates } from './templates';
import { CHECKBOX_LIST_FIELD, CHECKBOX_MAP_FIELD, NOTHING_FIELD } from './ui-schema';
import { formValidator } from './validator';
import { formWidgets } from './widgets';

export type ConfiguredFormProps = Omit<FormProps<any, RJSFSchema, any>, 'validator' | 'widgets' | 'fields' | 'templates' | 'showErrorList' | 'noHtml5Validate'>;

/** Fields of the portal's own, by the names uiSchemas give them (`ui:field`). */
const formFields = { [CHECKBOX_MAP_FIELD]: CheckboxMapField, [CHECKBOX_LIST_FIELD]: CheckboxListField, [NOTHING_FIELD]: () => null };

/**
 * Without an onError of its host, @rjsf writes "Form validation failed" to the console each time a
 * user's data fails a check (a wizard step validated before going on): the messages are on the
 * fields, where the user reads them, so there is nothing to tell the console.
 */
const onFieldsShowTheirErrors = () => {};

export function ConfiguredForm(props: ConfiguredFormProps) {
  return <Form validator={formValidator} widgets={formWidgets} fields={formFields} templates={formTemplates} showErrorList={false} noHtml5Validate onError={onFieldsShowTheirErrors} {...props} />;
}
