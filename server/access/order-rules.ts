/**
 * The rules of schemas/resources/order.json (`rules`) applied to one caller and one order: which
 * fields they may set, what the server leaves out of its answers, whether the estimate is
 * locked, whether a new order is authorised at once, and which status moves they may make.
 *
 * Pure: no database, no Fastify. The roles, variants and statuses live in the configuration;
 * this module only knows the shape of the rules (server/config/bundle.ts ResourceRules) and asks
 * runtime/core's condition evaluator, the same one the browser uses for the same conditions.
 */
import { asCondition, type ConditionContext, type ConditionEvaluator, type Role } from '../../runtime/core/conditions.ts';
import type { Session } from '../auth/session.ts';
import type { ResourceRules, TransitionDecl } from '../config/bundle.ts';

export interface RuleCaller {
  role: Role;
  variant: string;
  config: Record<string, unknown>;
  session: Record<string, unknown>;
}

export type RuleMode = 'create' | 'edit' | 'view';

/**
 * The caller the rules see for a session under the bundle in use: its role, the variant, the
 * flags and the session's values (the order calls and the cockpit build it the same way).
 */
export function ruleCallerOf(bundle: { variant: string; config: Record<string, unknown> }, session: Pick<Session, 'login' | 'role' | 'klientSymbol' | 'stacjaSerw' | 'pojazdId'>): RuleCaller {
  return {
    role: session.role,
    variant: bundle.variant,
    config: bundle.config,
    session: { login: session.login, role: session.role, klientSymbol: session.klientSymbol, stacjaSerw: session.stacjaSerw, pojazdId: session.pojazdId },
  };
}

const NAMED = 'conditions#/$defs/';
/** Keywords under which a schema looks at properties it does not name one by one. */
const UNNAMED_PROPERTIES = ['patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'minProperties',
  'maxProperties', 'dependentRequired', 'dependentSchemas', 'dependencies', 'enum', 'const'];
const MANY = ['allOf', 'anyOf', 'oneOf'] as const;
const ONE = ['not', 'if', 'then', 'else'] as const;
type SchemaObject = Record<string, unknown>;

/**
 * The fields of `record` a condition looks at (through named conditions too), or null when it
 * cannot be told (the condition reads the record as a whole: patternProperties, enum …). Two
 * records that agree on these fields get the same answer from the condition for the same caller,
 * so an aggregate over many records needs the condition evaluated once per combination of them
 * (the cockpit's costs evaluate the hidden-prices rule per vehicle and value, not per order).
 */
export function recordFieldsRead(condition: unknown, conditions: { $defs?: Record<string, unknown> }): string[] | null {
  const fields = new Set<string>();
  let unknown = false;
  const seen = new Set<unknown>();
  const named = (o: SchemaObject): unknown => {
    const ref = o.$ref;
    if (ref === undefined) return undefined;
    const target = typeof ref === 'string' && ref.startsWith(NAMED) ? conditions.$defs?.[ref.slice(NAMED.length)] : undefined;
    if (target === undefined) unknown = true;
    return target;
  };
  const each = (o: SchemaObject, visit: (s: unknown) => void) => {
    for (const k of MANY) if (Array.isArray(o[k])) (o[k] as unknown[]).forEach(visit);
    for (const k of ONE) if (o[k] !== undefined) visit(o[k]);
  };
  // a schema of the whole context: the record is what its `properties.record` says
  const context = (s: unknown): void => {
    if (!s || typeof s !== 'object' || seen.has(s)) return;
    seen.add(s);
    const o = s as SchemaObject;
    const target = named(o);
    if (target !== undefined) context(target);
    const properties = o.properties as SchemaObject | undefined;
    if (properties?.record !== undefined) record(properties.record);
    if (['patternProperties', 'additionalProperties', 'unevaluatedProperties', 'dependentSchemas'].some((k) => o[k] !== undefined && o[k] !== false)) unknown = true;
    each(o, context);
  };
  // a schema of the record: the names of its properties and required fields
  const record = (s: unknown): void => {
    if (typeof s === 'boolean' || !s || typeof s !== 'object') return;
    const o = s as SchemaObject;
    if (o.$ref !== undefined) unknown = true;
    for (const name of Object.keys((o.properties as SchemaObject | undefined) ?? {})) fields.add(name);
    for (const name of (o.required as string[] | undefined) ?? []) fields.add(name);
    if (UNNAMED_PROPERTIES.some((k) => o[k] !== undefined)) unknown = true;
    each(o, record);
  };
  context(condition);
  return unknown ? null : [...fields].sort();
}

export class OrderRules {
  constructor(
    private readonly rules: ResourceRules,
    private readonly conditions: ConditionEvaluator,
  ) {}

  private context(caller: RuleCaller, record: Record<string, unknown>, mode: RuleMode): ConditionContext {
    return { role: caller.role, variant: caller.variant, config: caller.config, session: caller.session, record, mode };
  }

  /** The fields of `fields` the caller may not set on this record (empty: all allowed). */
  forbiddenFields(caller: RuleCaller, record: Record<string, unknown>, fields: readonly string[], mode: 'create' | 'edit'): string[] {
    const editable = this.rules.editableWhen ?? {};
    return fields.filter((f) => f in editable && !this.conditions.matches(asCondition(editable[f]), this.context(caller, record, mode)));
  }

  /** Whether the caller may set each field named in editableWhen on this record (for the details screen). */
  editableMap(caller: RuleCaller, record: Record<string, unknown>): Record<string, boolean> {
    const editable = this.rules.editableWhen ?? {};
    return Object.fromEntries(Object.keys(editable).map((f) => [f, this.conditions.matches(asCondition(editable[f]), this.context(caller, record, 'edit'))]));
  }

  /** The fields of the record on which hiding `part` depends (recordFieldsRead), or null when it cannot be told. */
  hiddenDependsOn(part: string, conditions: { $defs?: Record<string, unknown> }): string[] | null {
    const condition = this.rules.hiddenWhen?.[part];
    return condition === undefined ? [] : recordFieldsRead(condition, conditions);
  }

  /** Whether the server leaves `part` ("positions.cena", "totals") out of its answer about this record. */
  isHidden(caller: RuleCaller, record: Record<string, unknown>, part: string): boolean {
    const condition = this.rules.hiddenWhen?.[part];
    return condition !== undefined && this.conditions.matches(asCondition(condition), this.context(caller, record, 'view'));
  }

  /** The fields of a child row (`prefix`.field) hidden from the caller for this record. */
  hiddenChildFields(caller: RuleCaller, record: Record<string, unknown>, prefix: string): string[] {
    return Object.keys(this.rules.hiddenWhen ?? {})
      .filter((key) => key.startsWith(`${prefix}.`) && this.isHidden(caller, record, key))
      .map((key) => key.slice(prefix.length + 1));
  }

  /** Whether a rule without a record of its own (ownVehicleWhen, ownStationWhen, confirmPricingWhen) applies to the caller. */
  applies(key: 'ownVehicleWhen' | 'ownStationWhen' | 'confirmPricingWhen', caller: RuleCaller, record: Record<string, unknown> = {}): boolean {
    const condition = this.rules[key];
    return condition !== undefined && this.conditions.matches(asCondition(condition), this.context(caller, record, 'create'));
  }

  /** A new record is authorised at once (it gets its authorisation number with the save). */
  authorisedOnCreate(caller: RuleCaller, record: Record<string, unknown>): boolean {
    const condition = this.rules.authoriseOnCreateWhen;
    return condition !== undefined && this.conditions.matches(asCondition(condition), this.context(caller, record, 'create'));
  }

  /** The positions of this record may not be added, edited or deleted by the caller. */
  positionsLocked(caller: RuleCaller, record: Record<string, unknown>): boolean {
    const condition = this.rules.positionsLockedWhen;
    return condition !== undefined && this.conditions.matches(asCondition(condition), this.context(caller, record, 'edit'));
  }

  /** The moves the caller may make from the record's current status, in declaration order. */
  availableTransitions(caller: RuleCaller, record: Record<string, unknown> & { status: number }): TransitionDecl[] {
    return (this.rules.transitions ?? []).filter((t) => this.allows(t, caller, record));
  }

  /** The declared move to `to` the caller may make now, or undefined (unknown, wrong role, wrong status or condition). */
  transitionTo(caller: RuleCaller, record: Record<string, unknown> & { status: number }, to: number): TransitionDecl | undefined {
    return this.availableTransitions(caller, record).find((t) => t.to === to);
  }

  private allows(t: TransitionDecl, caller: RuleCaller, record: Record<string, unknown> & { status: number }): boolean {
    if (!t.from.includes(record.status)) return false;
    if (!(t.roles as string[]).includes(caller.role)) return false;
    return t.when === undefined || this.conditions.matches(asCondition(t.when), this.context(caller, record, 'edit'));
  }
}
