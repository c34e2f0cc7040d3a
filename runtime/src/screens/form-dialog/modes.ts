/**
 * The modes of a `form-dialog` screen (schemas/meta/form-dialog.schema.json), as pure functions:
 * which mode a dialog is in (none = closed), the data it starts from (the row for edit, preview and
 * copy without the fields a copy clears; the declared values for create, e.g. an expiry a year
 * ahead), the schema it validates (only the options whose conditions hold), the checks the schema
 * cannot say (a field required under a condition) and the buttons shown.
 */
import type { RJSFSchema } from '@rjsf/utils';
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import type { FormDialogButtonDecl, FormDialogDecl, FormDialogModeDecl, FormFieldDecl } from '../../config/bundle';
import type { DialogOpener } from '../../actions/run-action';
import { withoutSchemaTexts } from '../../forms/ui-schema';

type Data = Record<string, unknown>;
export type ModeName = keyof FormDialogDecl['modes'];

/** The mode declared under that name, or null: the dialog is closed (mode none). */
export function modeOf(screen: Pick<FormDialogDecl, 'modes'>, name: string | undefined): { name: ModeName; mode: FormDialogModeDecl } | null {
  if (!name || !Object.hasOwn(screen.modes, name)) return null;
  const mode = screen.modes[name as ModeName];
  return mode ? { name: name as ModeName, mode } : null;
}

/** YYYY-MM-DD of today plus an offset, in the browser's calendar. */
export function dateAhead(today: Date, offset: { years?: number; months?: number; days?: number }): string {
  const d = new Date(today.getFullYear() + (offset.years ?? 0), today.getMonth() + (offset.months ?? 0), today.getDate() + (offset.days ?? 0));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The data a mode starts from: the record's fields the request schema knows (a table row carries
 * more, e.g. the client's name) without those the mode clears, then the mode's declared values
 * (a constant, a date ahead of today, a field of the signed-in user or of the record; an empty one
 * is left out).
 */
export function initialData(
  mode: FormDialogModeDecl,
  record: Data | undefined,
  requestSchema: { properties?: Record<string, unknown> },
  today: Date,
  sessionUser: Data | null = null,
  opener: DialogOpener = {},
): Data {
  const known = new Set(Object.keys(requestSchema.properties ?? {}));
  const cleared = new Set(mode.clear ?? []);
  const data: Data = {};
  if (mode.fromRecord && record) {
    for (const [key, value] of Object.entries(record)) {
      if (known.has(key) && !cleared.has(key) && value !== null && value !== undefined) data[key] = value;
    }
  }
  for (const [key, value] of Object.entries(mode.values ?? {})) {
    const v = value as Record<string, unknown>;
    const fromRecord = typeof v.record === 'string' ? record?.[v.record] : undefined;
    // the parent record of the table that opened the dialog (a new attachment's or note's)
    const fromOpener = typeof v.opener === 'string' ? opener[v.opener as keyof DialogOpener] : undefined;
    const given = 'const' in v ? v.const
      : 'date' in v ? dateAhead(today, (v.date ?? {}) as Parameters<typeof dateAhead>[1])
      : 'opener' in v ? fromOpener
      : fromRecord ?? (typeof v.session === 'string' ? sessionUser?.[v.session] : undefined);
    if (given !== null && given !== undefined) data[key] = given;
  }
  return data;
}

/**
 * The schema of the form: the request schema without developer texts, and for a field with
 * options an enum of the options offered, in their order (the advisor role only when the
 * configuration enables it) — unless the value already held is one of them (a record keeps its role).
 */
export function dialogSchema(requestSchema: Data, fields: FormFieldDecl[], ev: ConditionEvaluator, ctx: ConditionContext, held: Data = {}): RJSFSchema {
  const schema = withoutSchemaTexts(requestSchema) as Data & { properties?: Record<string, Data> };
  const properties = { ...(schema.properties ?? {}) };
  for (const field of fields) {
    const property = properties[field.id];
    if (!field.options || !property) continue;
    // in the order the screen lists them (Fleet Manager first), only those the request allows (all, when it lists none)
    const allowed = new Set(Array.isArray(property.enum) ? (property.enum as unknown[]) : field.options.map((o) => o.value));
    const offered = field.options.filter((o) => allowed.has(o.value) && (ev.isVisible(o, ctx) || Object.is(o.value, held[field.id]))).map((o) => o.value);
    properties[field.id] = { ...property, enum: offered };
  }
  return { ...schema, properties } as RJSFSchema;
}

/** Fields shown and required now by their `requiredWhen` (a client for a manager): field id → message key. */
export function conditionalRequired(fields: FormFieldDecl[], ev: ConditionEvaluator, ctx: ConditionContext, hidden: ReadonlySet<string>): Map<string, string> {
  const required = new Map<string, string>();
  for (const field of fields) {
    if (field.requiredWhen === undefined || hidden.has(field.id)) continue;
    if (ev.matches(field.requiredWhen, ctx)) required.set(field.id, field.requiredMessage ?? 'validation:required');
  }
  return required;
}

/** The schema with those fields required, each with its own message (x-messages, forms/messages.ts). */
export function withRequired(schema: RJSFSchema, required: ReadonlyMap<string, string>): RJSFSchema {
  if (!required.size) return schema;
  const properties = { ...(schema.properties ?? {}) } as Record<string, Data>;
  for (const [id, key] of required) {
    const messages = (properties[id]?.['x-messages'] ?? {}) as Data;
    properties[id] = { ...properties[id], 'x-messages': { ...messages, required: key, minLength: key } };
  }
  return { ...schema, properties, required: [...new Set([...(schema.required ?? []), ...required.keys()])] } as RJSFSchema;
}

/** The footer buttons shown in this mode and for this data. */
export function visibleButtons(buttons: FormDialogButtonDecl[] | undefined, ev: ConditionEvaluator, ctx: ConditionContext): FormDialogButtonDecl[] {
  return (buttons ?? []).filter((b) => ev.isVisible(b, ctx));
}

/** The body sent: the shown fields' values, without those left empty. */
export function sentData(data: Data, hidden: ReadonlySet<string>): Data {
  return Object.fromEntries(Object.entries(data).filter(([k, v]) => !hidden.has(k) && v !== undefined));
}

/** The hint's endpoint with the form's values, or null while one of them is empty (nothing to show yet). */
export function hintPath(endpoint: string, data: Data): string | null {
  let complete = true;
  const path = endpoint.replace(/\{(\w+)\}/g, (_, f: string) => {
    const value = data[f];
    if (value === undefined || value === null || value === '') complete = false;
    return encodeURIComponent(String(value ?? ''));
  });
  return complete ? path : null;
}
