/**
 * Custom widgets, registered by name and referred to by name from uiSchemas (DESIGN.md §2).
 */
import { getTemplate, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';
import { INPUT_FORMATS, type InputFormat } from './input-formats';
import { AutocompleteWidget } from './AutocompleteWidget';
import { FileWidget } from './FileWidget';
import { NewPasswordWidget } from './NewPasswordWidget';
import { useFormattedInput } from './useFormattedInput';
import { AUTOCOMPLETE_WIDGET, FILE_WIDGET, NEW_PASSWORD_WIDGET, UPPER_CASE_WIDGET } from './ui-schema';

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

/** A text input that shows and reads its value through an input format (money, phone, date …). */
function FormattedInput({ format, props }: { format: InputFormat; props: WidgetProps }) {
  const { id, disabled, readonly, required, autofocus, rawErrors, onBlur, onFocus } = props;
  const input = useFormattedInput(format, props.value, (value) => props.onChange(value));
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <input
      {...input}
      id={id}
      name={id}
      type="text"
      className={`form-control${invalid ? ' is-invalid' : ''}`}
      disabled={disabled || readonly}
      // a field only shown (a preview) has no mask to fill: an empty one is blank, not "___ ___ ___"
      placeholder={disabled || readonly ? undefined : input.placeholder}
      required={required}
      autoFocus={autofocus}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? `${id}__error` : undefined}
      onBlur={() => {
        input.onBlur();
        onBlur(id, format.parse(input.value));
      }}
      onFocus={() => onFocus(id, props.value)}
    />
  );
}

/** One widget per input format, registered under the format's name (the screen file's `widget`). */
const formattedWidgets: RegistryWidgetsType = Object.fromEntries(
  Object.entries(INPUT_FORMATS).map(([name, format]) => [name, (props: WidgetProps) => <FormattedInput format={format} props={props} />]),
);

export const formWidgets: RegistryWidgetsType = {
  ...formattedWidgets,
  [UPPER_CASE_WIDGET]: UpperCaseTextWidget,
  [NEW_PASSWORD_WIDGET]: NewPasswordWidget,
  [AUTOCOMPLETE_WIDGET]: AutocompleteWidget,
  [FILE_WIDGET]: FileWidget,
};
