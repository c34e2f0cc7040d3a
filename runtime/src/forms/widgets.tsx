/**
 * Custom widgets, registered by name and referred to by name from uiSchemas (DESIGN.md §2).
 */
import { getTemplate, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';
import { NewPasswordWidget } from './NewPasswordWidget';
import { NEW_PASSWORD_WIDGET, UPPER_CASE_WIDGET } from './ui-schema';

/** A text input that upper-cases what is typed (plates, VINs) and keeps the caret where it was. */
function UpperCaseTextWidget(props: WidgetProps) {
  const BaseInputTemplate = getTemplate('BaseInputTemplate', props.registry, props.options);
  const onChange = (value: unknown) => {
    const input = document.activeElement instanceof HTMLInputElement ? document.activeElement : null;
    const [start, end] = [input?.selectionStart ?? null, input?.selectionEnd ?? null];
    props.onChange(typeof value === 'string' ? value.toUpperCase() : value);
    // React moves the caret to the end when it rewrites the value; put it back
    if (input && start !== null) requestAnimationFrame(() => input.setSelectionRange(start, end));
  };
  return <BaseInputTemplate {...props} onChange={onChange} />;
}

export const formWidgets: RegistryWidgetsType = {
  [UPPER_CASE_WIDGET]: UpperCaseTextWidget,
  [NEW_PASSWORD_WIDGET]: NewPasswordWidget,
};
