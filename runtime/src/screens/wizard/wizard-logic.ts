/**
 * The `wizard` screen type's rules as pure functions (schemas/meta/wizard.schema.json), so they are
 * tested without a DOM: the wizard's data (one object addressed by dot paths), the values it starts
 * with, which steps a user sees, the schema of a step's form, a new item of a list with its
 * defaults, the body sent on save and the outcome of the answer.
 */
import type { RJSFSchema } from '@rjsf/utils';
import type { Condition, ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import { defaultTyreAction, orderTotals, positionNet, type PositionAmounts } from '../../../core/order-values';
import type { FormFieldDecl, WizardDecl, WizardStepDecl } from '../../config/bundle';
import { withoutSchemaTexts } from '../../forms/ui-schema';
import { formatSettings } from '../../format-settings';

export type Data = Record<string, unknown>;

/** Where the data keeps the text an autocomplete showed for the id it chose (`shownText.pracId`), for the summary; never sent. */
export const SHOWN_TEXT = 'shownText';
export type ValueSource = NonNullable<WizardDecl['prefill']>[number]['values'][string];
export type ListDecl = NonNullable<WizardStepDecl['list']>;

/** The value at a dot path (`order.rejestr`), or undefined. */
export function getPath(data: unknown, path: string): unknown {
  let node: unknown = data;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return undefined;
    node = (node as Data)[part];
  }
  return node;
}

/** A copy of the data with the value at a dot path set (undefined removes it). */
export function setPath(data: Data, path: string, value: unknown): Data {
  const [head, ...rest] = path.split('.');
  const copy = { ...data };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = copy[head];
  copy[head] = setPath(child && typeof child === 'object' && !Array.isArray(child) ? (child as Data) : {}, rest.join('.'), value);
  return copy;
}

export interface ValueScope {
  session?: Record<string, unknown> | null;
  answer?: unknown;
  item?: Data;
  /** Month 1–12 in the portal's time zone (the tyre season). */
  month?: number;
  /** The portal's time zone (the `now` values); default the configured one (format-settings.ts). */
  timeZone?: string;
  /** This moment (tests); default the clock. */
  at?: Date;
  /** The record the wizard was opened for (a reminder's item, the vehicle of a panel). */
  opened?: Data | null;
}

/** This moment in a time zone as the dateTime widget holds it (YYYY-MM-DDTHH:mm) or the date widget (YYYY-MM-DD). */
export function nowValue(kind: 'dateTime' | 'date', timeZone = formatSettings().timeZone, at: Date = new Date()): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(at).map((p) => [p.type, p.value]),
  );
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  return kind === 'date' ? day : `${day}T${parts.hour}:${parts.minute}`;
}

/** The value a declared source gives; undefined when it gives none (an empty session field). */
export function resolveValue(source: ValueSource, scope: ValueScope): unknown {
  if ('const' in source) return source.const;
  if ('session' in source) {
    const names = Array.isArray(source.session) ? source.session : [source.session];
    const parts = names.map((n) => scope.session?.[n]).filter((v) => v !== undefined && v !== null && v !== '');
    if (!parts.length) return undefined;
    return Array.isArray(source.session) ? parts.join(' ') : parts[0];
  }
  if ('answer' in source) return getPath(scope.answer, source.answer);
  if ('item' in source) return scope.item?.[source.item];
  if ('opened' in source) return scope.opened?.[source.opened] ?? undefined;
  if ('now' in source) return nowValue(source.now, scope.timeZone, scope.at);
  if ('tyreSeason' in source) return defaultTyreAction(scope.month ?? new Date().getMonth() + 1);
  return undefined;
}

/** The data a wizard starts with: the prefills whose condition holds, then the values it was opened with. */
export function initialWizardData(
  screen: Pick<WizardDecl, 'prefill'>,
  ev: ConditionEvaluator,
  ctx: ConditionContext,
  opened: Record<string, unknown> = {},
  openedFor?: Data | null,
): Data {
  let data: Data = {};
  for (const rule of screen.prefill ?? []) {
    if (rule.when !== undefined && !ev.matches(rule.when, ctx)) continue;
    for (const [path, source] of Object.entries(rule.values)) {
      const value = resolveValue(source, { session: ctx.session, timeZone: ctx.config?.timeZone as string | undefined, opened: openedFor });
      if (value !== undefined) data = setPath(data, path, value);
    }
  }
  for (const [path, value] of Object.entries(opened)) data = setPath(data, path, value);
  return data;
}

/** The condition context of a step: the user's, with the record being edited. */
export function stepContext(ctx: ConditionContext, screen: Pick<WizardDecl, 'record'>, data: Data): ConditionContext {
  return { ...ctx, record: (getPath(data, screen.record) as Data | undefined) ?? {} };
}

/** The steps this user sees, in the order of the file. */
export function visibleSteps<S extends Pick<WizardStepDecl, 'visibleWhen' | 'hiddenWhen'>>(steps: S[], ev: ConditionEvaluator, ctx: ConditionContext): S[] {
  return steps.filter((s) => ev.isVisible(s, ctx));
}

/** The schema of a property of an object schema (`order` of the request), without developer texts. */
export function propertySchema(schema: Data | undefined, property: string): Data {
  const props = (schema?.properties ?? {}) as Record<string, Data>;
  return withoutSchemaTexts(props[property] ?? {});
}

/** The schema of what the fields steps edit: the request's `record` property, or the request itself (recordIsRequest). */
export function recordSchemaOf(screen: Pick<WizardDecl, 'record' | 'recordIsRequest'>, requestSchema: Data | undefined): Data {
  return screen.recordIsRequest ? withoutSchemaTexts(requestSchema ?? {}) : propertySchema(requestSchema, screen.record);
}

interface OptionLimit {
  when?: Condition;
  refused: unknown[];
}

/**
 * The values a field's `optionLimits` refuses here: the configuration list it names holds
 * { when, refused } (e.g. damageRiskTypeLimits, which the server reads too); a limit applies where
 * its condition holds for the user's context.
 */
export function refusedOptions(field: Pick<FormFieldDecl, 'optionLimits'>, ev: ConditionEvaluator, ctx: ConditionContext): Set<unknown> {
  const limits = field.optionLimits ? ctx.config?.[field.optionLimits] : undefined;
  const refused = new Set<unknown>();
  for (const limit of Array.isArray(limits) ? (limits as OptionLimit[]) : []) {
    if (limit && Array.isArray(limit.refused) && ev.matches(limit.when ?? true, ctx)) for (const v of limit.refused) refused.add(v);
  }
  return refused;
}

/** The options of a field offered here: those whose conditions hold, less those its limits refuse. */
export function offeredOptions<O extends { value: unknown; visibleWhen?: unknown }>(field: Pick<FormFieldDecl, 'optionLimits'> & { options?: O[] }, ev: ConditionEvaluator, ctx: ConditionContext): O[] {
  const refused = refusedOptions(field, ev, ctx);
  return (field.options ?? []).filter((o) => ev.isVisible(o as never, ctx) && !refused.has(o.value));
}

/** The schema of a list item: `<schema>#<property>` names another request schema (whole, or one property's items). */
export function itemSchemaOf(list: ListDecl, requestSchema: Data | undefined, schemas: Record<string, Data>): Data {
  if (list.itemSchema) {
    const [id] = list.itemSchema.split('#');
    return withoutSchemaTexts(schemas[id] ?? {});
  }
  const property = propertySchema(requestSchema, list.path);
  return withoutSchemaTexts((property.items ?? {}) as Data);
}

/**
 * The form of a step: the record schema's properties of its fields (in the fields' order), required
 * where the record schema requires them or the field's `requiredWhen` holds, and the field is shown;
 * a field with options offers those whose conditions hold (tyre actions for a tyre order only).
 */
export function stepSchema(recordSchema: Data, fields: FormFieldDecl[], hidden: ReadonlySet<string>, ev?: ConditionEvaluator, ctx?: ConditionContext): RJSFSchema {
  const props = (recordSchema.properties ?? {}) as Record<string, Data>;
  const required = new Set((recordSchema.required ?? []) as string[]);
  const properties: Record<string, Data> = {};
  const requiredNow: string[] = [];
  for (const f of fields) {
    if (!props[f.id]) continue;
    let property = props[f.id];
    if (f.options) {
      const offered = (!ev || !ctx ? f.options : offeredOptions(f, ev, ctx)).map((o) => o.value);
      property = { ...property, enum: offered };
    }
    const conditional = f.requiredWhen !== undefined && ev && ctx && ev.matches(f.requiredWhen, ctx);
    if (conditional) {
      const key = f.requiredMessage ?? 'validation:required';
      property = { ...property, 'x-messages': { ...((property['x-messages'] as Data | undefined) ?? {}), required: key, minLength: key } };
    }
    properties[f.id] = property;
    if ((required.has(f.id) || conditional) && !hidden.has(f.id)) requiredNow.push(f.id);
  }
  return { type: 'object', properties, required: requiredNow } as RJSFSchema;
}

/** Ids of the fields whose conditions fail for this record. */
export function hiddenFields(fields: FormFieldDecl[], ev: ConditionEvaluator, ctx: ConditionContext): Set<string> {
  return new Set(fields.filter((f) => !ev.isVisible(f, ctx)).map((f) => f.id));
}

/**
 * Fields of the record that are not sent: those of hidden steps (a contractor for a user) and those
 * hidden by their own condition. A value no step shows (the type chosen in the service-order modal,
 * the vehicle's id) is sent.
 */
export function unsentFields(steps: WizardStepDecl[], ev: ConditionEvaluator, ctx: ConditionContext, alwaysSent: readonly string[] = []): Set<string> {
  const unsent = new Set<string>();
  for (const step of steps) {
    if (step.kind !== 'fields') continue;
    const shown = ev.isVisible(step, ctx);
    for (const f of step.fields ?? []) if (!shown || !ev.isVisible(f, ctx)) unsent.add(f.id);
  }
  // a field shown in another visible step is sent after all
  for (const step of steps) {
    if (step.kind !== 'fields' || !ev.isVisible(step, ctx)) continue;
    for (const f of step.fields ?? []) if (ev.isVisible(f, ctx)) unsent.delete(f.id);
  }
  // a value prefilled for a user who does not see its field (a driver's own participant) is sent
  for (const id of alwaysSent) unsent.delete(id);
  return unsent;
}

/** Lists whose steps are hidden are not sent either (the scope of a user is the service plan's). */
export function clean(value: Data, allowed: ReadonlySet<string> | null, unsent: ReadonlySet<string>): Data {
  return Object.fromEntries(Object.entries(value).filter(([k, v]) => v !== undefined && v !== null && v !== '' && !unsent.has(k) && (!allowed || allowed.has(k))));
}

/** The body of the save: each request property from its data path; the record without unsent fields; list items limited to the schema's properties. */
export function submitBody(screen: Pick<WizardDecl, 'record' | 'submit' | 'recordIsRequest'>, requestSchema: Data | undefined, data: Data, unsent: ReadonlySet<string>): Data {
  const body: Data = {};
  if (screen.recordIsRequest) {
    const record = getPath(data, screen.record);
    if (record && typeof record === 'object') Object.assign(body, clean(record as Data, new Set(Object.keys((requestSchema?.properties ?? {}) as Data)), unsent));
  }
  for (const [property, path] of Object.entries(screen.submit.body)) {
    const value = getPath(data, path);
    if (value === undefined) continue;
    const schema = propertySchema(requestSchema, property);
    if (property === screen.record && value && typeof value === 'object') {
      body[property] = clean(value as Data, new Set(Object.keys((schema.properties ?? {}) as Data)), unsent);
    } else if (Array.isArray(value)) {
      const itemProps = ((schema.items as Data | undefined)?.properties ?? null) as Data | null;
      body[property] = value.map((item) => clean(item as Data, itemProps ? new Set(Object.keys(itemProps)) : null, new Set()));
    } else body[property] = value;
  }
  return body;
}

/** The toast of a save's answer: the first outcome whose condition holds, with the warning it asks for. */
export function outcomeOf(outcomes: WizardDecl['submit']['outcomes'], ev: ConditionEvaluator, ctx: ConditionContext, answer: unknown): { toast: string; warning?: string } | null {
  const record = (answer && typeof answer === 'object' ? answer : {}) as Data;
  const hit = outcomes.find((o) => o.when === undefined || ev.matches(o.when, { ...ctx, record }));
  if (!hit) return null;
  const warning = hit.warningFrom ? getPath(record, hit.warningFrom) : undefined;
  return { toast: hit.toast, warning: typeof warning === 'string' && warning.trim() ? warning : undefined };
}

/** A new item of a list: its declared defaults whose condition holds (record = the wizard's record). */
export function newItem(list: Pick<ListDecl, 'defaults'>, ev: ConditionEvaluator, ctx: ConditionContext, month: number): Data {
  let item: Data = {};
  for (const rule of list.defaults ?? []) {
    if (rule.when !== undefined && !ev.matches(rule.when, ctx)) continue;
    for (const [field, source] of Object.entries(rule.values)) {
      const value = resolveValue(source, { session: ctx.session, month });
      if (value !== undefined) item = { ...item, [field]: value };
    }
  }
  return item;
}

/** The items of a lookup's answer as list items: mapped fields, the fill's values, then the list's defaults under them. */
export function filledItems(answer: unknown, fill: { map: Record<string, string>; values?: Record<string, ValueSource> }, defaults: Data): Data[] {
  if (!Array.isArray(answer)) return [];
  return answer.map((entry) => {
    const item: Data = { ...defaults };
    for (const [field, property] of Object.entries(fill.map)) {
      const value = (entry as Data)?.[property];
      if (value !== undefined && value !== null) item[field] = value;
    }
    for (const [field, source] of Object.entries(fill.values ?? {})) item[field] = resolveValue(source, { item: entry as Data });
    return item;
  });
}

/** The body of a lookup; null when a value it needs is empty (nothing can be found). */
export function lookupBody(body: Record<string, string>, data: Data): Data | null {
  const out: Data = {};
  for (const [property, path] of Object.entries(body)) {
    const value = getPath(data, path);
    if (value === undefined || value === null || value === '') return null;
    out[property] = value;
  }
  return out;
}

/** Net of a row and the totals of a list (the one shared function the server stores). */
export const rowNet = (row: Data) => positionNet(row as PositionAmounts);
export const listTotals = (rows: Data[]) => orderTotals(rows as PositionAmounts[]);
