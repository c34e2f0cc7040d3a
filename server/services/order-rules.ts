/**
 * The rules of schemas/resources/order.json (`rules`) applied to one caller and one order: which
 * fields they may set, what the server leaves out of its answers, whether the estimate is
 * locked, whether a new order is authorised at once, and which status moves they may make.
 *
 * Pure: no database, no Fastify. The roles, variants and statuses live in the configuration;
 * this module only knows the shape of the rules (server/config/bundle.ts ResourceRules) and asks
 * runtime/core's condition evaluator, the same one the browser uses for the same conditions.
 */
import type { ConditionContext, ConditionEvaluator, Role } from '../../runtime/core/conditions.ts';
import type { ResourceRules, TransitionDecl } from '../config/bundle.ts';

export interface RuleCaller {
  role: Role;
  variant: string;
  config: Record<string, unknown>;
  session: Record<string, unknown>;
}

export type RuleMode = 'create' | 'edit' | 'view';

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
    return fields.filter((f) => f in editable && !this.conditions.matches(editable[f] as any, this.context(caller, record, mode)));
  }

  /** Whether the caller may set each field named in editableWhen on this record (for the details screen). */
  editableMap(caller: RuleCaller, record: Record<string, unknown>): Record<string, boolean> {
    const editable = this.rules.editableWhen ?? {};
    return Object.fromEntries(Object.keys(editable).map((f) => [f, this.conditions.matches(editable[f] as any, this.context(caller, record, 'edit'))]));
  }

  /** Whether the server leaves `part` ("positions.cena", "totals") out of its answer about this record. */
  isHidden(caller: RuleCaller, record: Record<string, unknown>, part: string): boolean {
    const condition = this.rules.hiddenWhen?.[part];
    return condition !== undefined && this.conditions.matches(condition as any, this.context(caller, record, 'view'));
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
    return condition !== undefined && this.conditions.matches(condition as any, this.context(caller, record, 'create'));
  }

  /** A new record is authorised at once (it gets its authorisation number with the save). */
  authorisedOnCreate(caller: RuleCaller, record: Record<string, unknown>): boolean {
    const condition = this.rules.authoriseOnCreateWhen;
    return condition !== undefined && this.conditions.matches(condition as any, this.context(caller, record, 'create'));
  }

  /** The positions of this record may not be added, edited or deleted by the caller. */
  positionsLocked(caller: RuleCaller, record: Record<string, unknown>): boolean {
    const condition = this.rules.positionsLockedWhen;
    return condition !== undefined && this.conditions.matches(condition as any, this.context(caller, record, 'edit'));
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
    return t.when === undefined || this.conditions.matches(t.when as any, this.context(caller, record, 'edit'));
  }
}
