/**
 * A form's fields as the screen file's rules make them (pure, tested without a DOM): which are
 * hidden for the data as it stands, the data without them, the namespace of the screen's texts,
 * the request schema without its developer texts. A module apart from the @rjsf uiSchema builder
 * (ui-schema.ts, which re-exports these): the login page needs these alone (issue 48's budget), and
 * the server draws the login page's first paint with them (server/init/first-paint.ts).
 */
import type { ConditionContext, ConditionEvaluator } from '../../core/conditions';
import type { FormFieldDecl } from '../config/bundle';

/** Ids of the fields whose visibleWhen/hiddenWhen fail for the current form data (context.record). */
export function hiddenFieldIds(
  fields: FormFieldDecl[],
  ev: ConditionEvaluator,
  ctx: ConditionContext,
  formData: Record<string, unknown>,
): Set<string> {
  const withRecord = { ...ctx, record: formData };
  return new Set(fields.filter((f) => !ev.isVisible(f, withRecord)).map((f) => f.id));
}

/** The form data without the fields that are hidden (their values are not sent). */
export function withoutHidden(formData: Record<string, unknown>, hidden: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(formData).filter(([key]) => !hidden.has(key)));
}

/** The namespace of a screen's own texts: that of its title key (`login:title` → `login`). */
export function namespaceOf(key: string | undefined, fallback: string): string {
  const i = key?.indexOf(':') ?? -1;
  return i > 0 ? key!.slice(0, i) : fallback;
}

const SUBSCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SUBSCHEMA_SINGLES = ['items', 'if', 'then', 'else', 'not', 'additionalProperties', 'contains'];
const SUBSCHEMA_MAPS = ['properties', '$defs', 'patternProperties'];

/**
 * The schema as a form shows it: `title` and `description` are developer documentation in English,
 * so they are removed (every visible text comes from the locales through the uiSchema).
 */
export function withoutSchemaTexts<T>(schema: T): T {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const { title: _title, description: _description, ...rest } = schema as Record<string, unknown>;
  for (const key of SUBSCHEMA_LISTS) if (Array.isArray(rest[key])) rest[key] = (rest[key] as unknown[]).map(withoutSchemaTexts);
  for (const key of SUBSCHEMA_SINGLES) if (rest[key] !== undefined) rest[key] = withoutSchemaTexts(rest[key]);
  for (const key of SUBSCHEMA_MAPS) {
    const map = rest[key];
    if (map && typeof map === 'object') rest[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, withoutSchemaTexts(v)]));
  }
  return rest as T;
}
