/**
 * A small form drawn from a screen's `fields` and its request schema, without the form library:
 * the login page's form (issue 11). Text, password, upper-cased, radio, select, textarea and
 * checkbox fields; the same markup classes, ids (`<prefix>_<field>`), maxlength, Polish messages
 * and "validate while typing after a refused attempt" behaviour as the @rjsf forms
 * (forms/templates.tsx, forms/useFieldErrors.ts), one message per field.
 */
import { lazy, Suspense, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { fieldLabelKey } from '../../core/labels';
import type { FormFieldDecl } from '../config/bundle';
import type { Translate } from '../format';
import { distinctMessages, maxLengthOf } from './field-messages';
import { choicesOf, formMessages, requiredFields, withValue, type ObjectSchema } from './light-form';
import { isInputFormatName } from './input-format-names';

// the typed inputs (money, dates, phone…: forms/input-formats.ts) come with their code, loaded when
// a form has one; the login form has none (issue 33: its page's JavaScript)
const FormattedField = lazy(() => import('./LightFormattedField'));

type Data = Record<string, unknown>;
type ServerErrors = Record<string, { __errors?: unknown[] } | undefined> | undefined;

export interface LightFormProps {
  idPrefix: string;
  schema: ObjectSchema;
  fields: FormFieldDecl[];
  /** Namespace of the default labels `<ns>:fields.<id>`. */
  namespace: string;
  t: Translate;
  formData: Data;
  hidden: ReadonlySet<string>;
  /** Messages of the server's 400, by field (forms/useFieldErrors.ts). */
  extraErrors?: ServerErrors;
  /** After a refused attempt the form checks as the user types. */
  liveValidate: boolean;
  submitLabel: string;
  submitDisabled?: boolean;
  onChange: (next: Data) => void;
  /** The form's own checks refused the data (their messages are on the fields). */
  onError: () => void;
  onSubmit: (data: Data) => void;
}

export function LightForm(props: LightFormProps) {
  const { idPrefix, schema, fields, t, formData, hidden } = props;
  const formRef = useRef<HTMLFormElement>(null);
  // messages of the form's own checks show once an attempt was made (then they follow the typing)
  const [checked, setChecked] = useState(false);
  const own = checked || props.liveValidate ? formMessages(schema, formData, hidden, t) : {};
  const required = requiredFields(schema, formData, fields.filter((f) => !hidden.has(f.id)).map((f) => f.id));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    const messages = formMessages(schema, formData, hidden, t);
    const first = fields.find((f) => !hidden.has(f.id) && messages[f.id]);
    if (first) {
      props.onError();
      // the first field to fix gets the focus (a radio group: its checked or first choice)
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${idPrefix}_${first.id}"]:checked, [name="${idPrefix}_${first.id}"]`)?.focus());
      return;
    }
    props.onSubmit(formData);
  };

  return (
    <form ref={formRef} className="light-form" noValidate onSubmit={submit}>
      {fields
        .filter((field) => !hidden.has(field.id))
        .map((field) => {
          const id = `${idPrefix}_${field.id}`;
          const message = own[field.id] ?? distinctMessages(props.extraErrors?.[field.id]?.__errors)[0];
          return (
            <div key={field.id} className="mb-3 light-form-field" data-field={field.id}>
              <FieldInput
                id={id}
                field={field}
                property={schema.properties?.[field.id]}
                label={t(field.label ?? fieldLabelKey(props.namespace, field.id))}
                required={required.has(field.id)}
                value={formData[field.id]}
                invalid={message !== undefined}
                describedBy={[message !== undefined && `${id}__error`, field.help && `${id}__help`].filter(Boolean).join(' ') || undefined}
                t={t}
                onChange={(value) => props.onChange(withValue(formData, field.id, value))}
              />
              {field.help && (
                <div id={`${id}__help`} className="form-text">
                  {t(field.help)}
                </div>
              )}
              {message !== undefined && (
                <div id={`${id}__error`} className="invalid-feedback d-block field-error">
                  {message}
                </div>
              )}
            </div>
          );
        })}
      <button type="submit" className="btn btn-primary w-100" disabled={props.submitDisabled}>
        {props.submitLabel}
      </button>
    </form>
  );
}

interface FieldInputProps {
  id: string;
  field: FormFieldDecl;
  property: Record<string, unknown> | undefined;
  label: string;
  required: boolean;
  value: unknown;
  invalid: boolean;
  describedBy?: string;
  t: Translate;
  onChange: (value: unknown) => void;
}

function Label({ htmlFor, text, required, invalid }: { htmlFor: string; text: string; required: boolean; invalid: boolean }) {
  return (
    <label className={`form-label${invalid ? ' text-danger' : ''}`} htmlFor={htmlFor}>
      {text}
      {required && <span aria-hidden="true">*</span>}
    </label>
  );
}

function FieldInput({ id, field, property, label, required, value, invalid, describedBy, t, onChange }: FieldInputProps) {
  const common = { 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy, 'aria-required': required || undefined };
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';

  if (field.widget === 'radio') {
    const choices = choicesOf(field, property, t);
    return (
      <fieldset>
        <legend className={`form-label fs-6${invalid ? ' text-danger' : ''}`}>
          {label}
          {required && <span aria-hidden="true">*</span>}
        </legend>
        {choices.map((choice, i) => (
          <div className="form-check" key={String(choice.value)}>
            <input
              {...common}
              id={`${id}-${i}`}
              className="form-check-input"
              type="radio"
              name={id}
              checked={Object.is(value, choice.value)}
              onChange={() => onChange(choice.value)}
            />
            <label className="form-check-label" htmlFor={`${id}-${i}`}>
              {choice.label}
            </label>
          </div>
        ))}
      </fieldset>
    );
  }

  if (field.widget === 'checkbox') {
    return (
      <div className="form-check">
        <input {...common} id={id} name={id} className={`form-check-input${invalid ? ' is-invalid' : ''}`} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} />
        <label className="form-check-label" htmlFor={id}>
          {label}
        </label>
      </div>
    );
  }

  let input: ReactNode;
  const className = `form-control${invalid ? ' is-invalid' : ''}`;
  if (field.widget === 'select') {
    const choices = choicesOf(field, property, t);
    const index = choices.findIndex((c) => Object.is(c.value, value));
    input = (
      <select {...common} id={id} name={id} className={`form-select${invalid ? ' is-invalid' : ''}`} value={index < 0 ? '' : String(index)} onChange={(e) => onChange(e.target.value === '' ? undefined : choices[Number(e.target.value)].value)}>
        <option value="" />
        {choices.map((choice, i) => (
          <option key={String(choice.value)} value={String(i)}>
            {choice.label}
          </option>
        ))}
      </select>
    );
  } else if (isInputFormatName(field.widget)) {
    input = (
      <Suspense fallback={<input {...common} id={id} name={id} className={className} type="text" disabled />}>
        <FormattedField {...common} id={id} className={className} format={field.widget} value={value} autoComplete={field.autocomplete} onChange={onChange} />
      </Suspense>
    );
  } else if (field.widget === 'textarea') {
    input = <textarea {...common} id={id} name={id} className={className} maxLength={maxLengthOf(property as { maxLength?: unknown })} value={text} onChange={(e) => onChange(e.target.value)} />;
  } else {
    input = (
      <input
        {...common}
        id={id}
        name={id}
        className={className}
        type={field.widget === 'password' || field.widget === 'newPassword' ? 'password' : 'text'}
        maxLength={maxLengthOf(property as { maxLength?: unknown })}
        autoComplete={field.autocomplete}
        value={text}
        onChange={(e) => {
          if (!field.upperCase) return onChange(e.target.value);
          // plates and VINs are upper-cased as typed; React would move the caret to the end, so put it back
          const input = e.target;
          const [start, end] = [input.selectionStart, input.selectionEnd];
          onChange(input.value.toUpperCase());
          if (start !== null) requestAnimationFrame(() => input.setSelectionRange(start, end));
        }}
      />
    );
  }
  return (
    <>
      <Label htmlFor={id} text={label} required={required} invalid={invalid} />
      {input}
    </>
  );
}
