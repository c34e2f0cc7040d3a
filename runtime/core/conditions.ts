/**
 * Conditions are JSON Schemas that a context object must satisfy (DESIGN.md §2), evaluated by the
 * same small evaluator (core/json-schema.ts: ajv's answers without ajv's compiler, which the login
 * page could not afford) on both the server and in the browser. Named conditions live in
 * `screens/conditions.json` under `$defs` and are referred to as `{ "$ref": "conditions#/$defs/NAME" }`.
 */
import { compileSchema, type SchemaValidator } from './json-schema';
import type { UserDetails } from './generated/api.ts';

/** A role, as the configuration declares them (the user details' `rola`, schemas/api). */
export type Role = UserDetails['rola'];

/** What a condition can look at. */
export interface ConditionContext {
  role?: Role | null;
  variant?: string;
  config?: Record<string, unknown>;
  session?: Record<string, unknown> | null;
  record?: Record<string, unknown> | null;
  mode?: string;
  /** The record of the screen that opened this one (the order of a position's form, of a list's row). */
  parent?: Record<string, unknown> | null;
}

export type Condition = boolean | Record<string, unknown>;

/**
 * A value read from configuration (typed `unknown`, or `{}` by the generated types) as a condition:
 * a JSON Schema is an object or true/false. Anything else is refused here, as compiling it would be.
 */
export function asCondition(value: unknown): Condition {
  if (typeof value === 'boolean' || (typeof value === 'object' && value !== null && !Array.isArray(value))) return value as Condition;
  throw new TypeError(`a condition is a JSON Schema (an object, true or false), not ${JSON.stringify(value)}`);
}

export class ConditionEvaluator {
  private readonly named: Record<string, Record<string, unknown>>;
  private readonly cache = new Map<string, SchemaValidator>();

  constructor(namedConditions?: Record<string, unknown>) {
    // only the $defs: the file's own $schema/type keys describe the file, not a condition
    this.named = { conditions: { $defs: (namedConditions as { $defs?: object } | undefined)?.$defs ?? {} } };
  }

  /**
   * Compile once (throws on a broken schema or a keyword the evaluator does not know, so config
   * checks can report it).
   */
  compile(condition: Condition): SchemaValidator {
    const key = JSON.stringify(condition);
    let fn = this.cache.get(key);
    if (!fn) {
      fn = compileSchema(condition, { schemas: this.named });
      this.cache.set(key, fn);
    }
    return fn;
  }

  /** True when the context satisfies the condition. */
  matches(condition: Condition | undefined, context: ConditionContext): boolean {
    if (condition === undefined) return true;
    return this.compile(condition)(normalise(context)) === true;
  }

  /** Visibility of an item that may carry `visibleWhen` and/or `hiddenWhen`. */
  isVisible(item: { visibleWhen?: Condition; hiddenWhen?: Condition }, context: ConditionContext): boolean {
    if (item.visibleWhen !== undefined && !this.matches(item.visibleWhen, context)) return false;
    if (item.hiddenWhen !== undefined && this.matches(item.hiddenWhen, context)) return false;
    return true;
  }

  /** Whether an item carrying `disabledWhen` is disabled. */
  isDisabled(item: { disabledWhen?: Condition }, context: ConditionContext): boolean {
    return item.disabledWhen !== undefined && this.matches(item.disabledWhen, context);
  }
}

/** Missing parts become {} (or null for scalars) so a rule with `required` fails instead of passing vacuously. */
function normalise(context: ConditionContext): Record<string, unknown> {
  return {
    role: context.role ?? null,
    variant: context.variant ?? 'default',
    config: context.config ?? {},
    session: context.session ?? {},
    record: context.record ?? {},
    mode: context.mode ?? null,
    parent: context.parent ?? {},
  };
}
