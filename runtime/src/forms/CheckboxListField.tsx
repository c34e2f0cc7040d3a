/**
 * A form field whose value is a list of chosen values (`widget: "checkboxList"`): one checkbox per
 * answer of its `source` (a GET of the whole list: the clients, the scopes an account may be
 * given), labelled as the answer says (`optionLabel`, or value — labelField). The choices are the
 * server's answer, so none is named in a screen file or here. A value the answer no longer offers
 * stays chosen and listed, so that saving does not drop it silently.
 */
import type { FieldProps } from '@rjsf/utils';
import { useEffect, useState } from 'react';
import { useTranslation } from '../config/texts';
import { api } from '../api/client';
import { toOptions, type AutocompleteOption, type AutocompleteSource } from './autocomplete';

export function CheckboxListField({ formData, onChange, fieldPathId, uiSchema, disabled, readonly }: FieldProps<string[]>) {
  const { t } = useTranslation();
  const source = uiSchema?.['ui:options']?.source as AutocompleteSource | undefined;
  const [options, setOptions] = useState<AutocompleteOption[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!source) return;
    const controller = new AbortController();
    api.get(source.endpoint, { signal: controller.signal, quiet: true })
      .then((answer) => setOptions(toOptions(answer, source)))
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [source?.endpoint]); // eslint-disable-line react-hooks/exhaustive-deps
  const chosen = Array.isArray(formData) ? formData.map(String) : [];
  const offered = options ?? [];
  const listed = [...offered, ...chosen.filter((v) => !offered.some((o) => o.value === v)).map((value) => ({ value, label: value }))];
  const id = fieldPathId.$id;
  const toggle = (value: string, on: boolean) => {
    const next = on ? [...chosen, value] : chosen.filter((v) => v !== value);
    // the offered order, whatever order the clicks came in
    onChange(listed.map((o) => o.value).filter((v) => next.includes(v)), fieldPathId.path);
  };
  return (
    <fieldset className="mb-3 checkbox-list" id={id} data-field={fieldPathId.path.join('.')}>
      <legend className="form-label fs-6 fw-semibold">{String(uiSchema?.['ui:title'] ?? '')}</legend>
      {options === null && !failed && <p className="text-body-secondary small mb-0">{t('app:loading')}</p>}
      {failed && <p className="text-danger small mb-0" role="alert">{t('app:noConnection')}</p>}
      <div className="checkbox-list-items">
        {listed.map((o) => (
          <div className="form-check" key={o.value}>
            <input
              className="form-check-input"
              type="checkbox"
              id={`${id}-${o.value}`}
              checked={chosen.includes(o.value)}
              disabled={disabled || readonly}
              onChange={(e) => toggle(o.value, e.target.checked)}
            />
            <label className="form-check-label" htmlFor={`${id}-${o.value}`}>{o.label}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
