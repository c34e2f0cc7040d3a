/**
 * The portal's @rjsf form, one home for what every form host shares: the portal's validator,
 * widgets and templates, messages on the fields (no error list at the top) and no browser
 * validation bubbles. The hosts (form dialog, form page, wizard step, wizard list row) add their
 * schema, data, callbacks and ref.
 */
import type { FormProps } from '@rjsf/core';
import Form from '@rjsf/react-bootstrap';
import type { RJSFSchema } from '@rjsf/utils';
import { formTemplates } from './templates';
import { formValidator } from './validator';
import { formWidgets } from './widgets';

export type ConfiguredFormProps = Omit<FormProps<any, RJSFSchema, any>, 'validator' | 'widgets' | 'templates' | 'showErrorList' | 'noHtml5Validate'>;

export function ConfiguredForm(props: ConfiguredFormProps) {
  return <Form validator={formValidator} widgets={formWidgets} templates={formTemplates} showErrorList={false} noHtml5Validate {...props} />;
}
