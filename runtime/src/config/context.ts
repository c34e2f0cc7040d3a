/**
 * The context object that conditions look at (DESIGN.md §2): { role, variant, config, session,
 * record, mode }. Built in one place so that every screen evaluates rules against the same facts.
 */
import type { ConditionContext } from '../../core/conditions';
import type { Bundle, RoleName, Session } from './bundle';

/** `asRole`: the role a studio preview shows the portal as (config/preview.tsx), instead of the user's. */
export function conditionContext(
  bundle: Pick<Bundle, 'variant' | 'config' | 'app'>,
  session: Session | null,
  record: Record<string, unknown> | null = null,
  asRole?: RoleName,
): ConditionContext {
  // the field screens/app.json sessionFields.role names (read in place, as session-fields.ts's userRole
  // reads it: the login page loads this module, and its budget has no room for another function)
  const field = bundle.app.sessionFields.role;
  const role = asRole ?? (session?.user[field] as RoleName | undefined);
  return {
    role: role ?? null,
    variant: bundle.variant,
    // the login response's logicConfig is the server's per-user view of the same flags
    config: { ...bundle.config, ...(session?.postConfig?.logicConfig ?? {}) },
    session: session ? { ...session.user, [field]: role } : null,
    record,
  };
}
