/**
 * What a `form` screen shows and sends, as pure functions: the form's schema (the request schema
 * without the values sent from elsewhere, plus form-only fields such as the repeated password)
 * and the request body (the data without form-only fields, plus the declared values).
 */
import type { RJSFSchema } from '@rjsf/utils';
import type { FormScreenDecl, FormValueDecl, Session } from '../config/bundle';
import { withoutSchemaTexts } from './ui-schema';

type Data = Record<string, unknown>;

/** The form's schema: the request schema without the values sent from elsewhere, plus form-only fields. */
export function formSchema(requestSchema: Record<string, any>, screen: Pick<FormScreenDecl, 'fields' | 'values'>): RJSFSchema {
  const schema = withoutSchemaTexts(requestSchema);
  const fixed = new Set(Object.keys(screen.values ?? {}));
  const properties: Record<string, any> = Object.fromEntries(Object.entries(schema.properties ?? {}).filter(([k]) => !fixed.has(k)));
  const required: string[] = (schema.required ?? []).filter((k: string) => !fixed.has(k));
  for (const field of screen.fields) {
    // declared options are the values of a field the schema leaves open (an hour 0–23 offered as a list)
    const property = properties[field.id];
    if (field.options && property && !property.enum && !property.oneOf && !property.anyOf) properties[field.id] = { ...property, enum: field.options.map((o) => o.value) };
  }
  for (const field of screen.fields.filter((f) => f.formOnly)) {
    // a repetition takes the rules of the field it repeats
    properties[field.id] = field.sameAs ? { ...(properties[field.sameAs] as object) } : { type: 'string' };
    if (field.sameAs && required.includes(field.sameAs)) required.push(field.id);
  }
  return { ...schema, properties, required };
}

/**
 * The fields with the options their `optionsFrom` names in the loaded record (the languages
 * offered, issue 48): each item's value and its text as written. A field whose list is not (yet)
 * there keeps what it declares.
 */
export function withLoadedOptions<F extends Pick<FormScreenDecl['fields'][number], 'optionsFrom' | 'options'>>(fields: F[], record: Data): F[] {
  return fields.map((field) => {
    const from = field.optionsFrom;
    const list = from ? pathValue(record, from.path) : undefined;
    if (!from || !Array.isArray(list) || !list.length) return field;
    // a label that is no text key is shown as written (t answers a missing key with the key itself)
    return { ...field, options: list.map((item: Data) => ({ value: item[from.valueField] as string, label: String(item[from.labelField]) })) };
  });
}

export const pathValue = (source: unknown, path: string) => path.split('.').reduce<unknown>((v, k) => (v as Data | undefined)?.[k], source);

/** The body sent: the form's data without form-only fields, with the declared values (constants, the session's, the dialog's params). */
export function requestBody(data: Data, screen: Pick<FormScreenDecl, 'fields' | 'values'>, session: Session | null, params: Data = {}): Data {
  const formOnly = new Set(screen.fields.filter((f) => f.formOnly).map((f) => f.id));
  const body: Data = Object.fromEntries(Object.entries(data).filter(([k]) => !formOnly.has(k)));
  for (const [name, value] of Object.entries(screen.values ?? {}) as [string, FormValueDecl][]) {
    // a param is what the dialog was opened with (the id of the selected row)
    body[name] = 'const' in value ? value.const : 'param' in value ? params[value.param] : pathValue(session?.user, value.session);
  }
  return body;
}
