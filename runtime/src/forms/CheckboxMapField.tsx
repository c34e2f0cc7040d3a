/**
 * A form field whose value is an object of yes/no flags by key (`widget: "checkboxMap"`; the events
 * a user is notified of): one checkbox per key the data holds, in the data's order, each labelled
 * by the field's `itemLabel` with {key} filled in. The keys are the server's answer (the events
 * the caller's role may receive), so no key is named in a screen file or here.
 */
import type { FieldProps } from '@rjsf/utils';
import { useTranslation } from '../config/texts';
import { itemLabelKey } from './ui-schema';

export function CheckboxMapField({ formData, onChange, fieldPathId, uiSchema, disabled, readonly }: FieldProps<Record<string, boolean>>) {
  const { t } = useTranslation();
  const flags = formData ?? {};
  const keys = Object.keys(flags);
  const template = String(uiSchema?.['ui:options']?.itemLabel ?? '{key}');
  const id = fieldPathId.$id;
  return (
    <fieldset className="mb-3 checkbox-map" id={id} data-field={fieldPathId.path.join('.')}>
      <legend className="form-label fs-6 fw-semibold">{String(uiSchema?.['ui:title'] ?? '')}</legend>
      {keys.map((key) => (
        <div className="form-check" key={key}>
          <input
            className="form-check-input"
            type="checkbox"
            id={`${id}-${key}`}
            checked={flags[key] === true}
            disabled={disabled || readonly}
            onChange={(e) => onChange({ ...flags, [key]: e.target.checked }, fieldPathId.path)}
          />
          <label className="form-check-label" htmlFor={`${id}-${key}`}>
            {t(itemLabelKey(template, key), { defaultValue: key })}
          </label>
        </div>
      ))}
    </fieldset>
  );
}
