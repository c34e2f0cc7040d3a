/**
 * The context object that conditions look at (DESIGN.md §2): { role, variant, config, session,
 * record, mode }. Built in one place so that every screen evaluates rules against the same facts.
 */
import type { ConditionContext } from '../../core/conditions';
import type { Bundle, Session } from './bundle';

export function conditionContext(
  bundle: Pick<Bundle, 'variant' | 'config'>,
  session: Session | null,
  record: Record<string, unknown> | null = null,
): ConditionContext {
  return {
    role: session?.user.rola ?? null,
    variant: bundle.variant,
    // the login response's logicConfig is the server's per-user view of the same flags
    config: { ...bundle.config, ...(session?.postConfig?.logicConfig ?? {}) },
    session: session ? { ...session.user } : null,
    record,
  };
}
