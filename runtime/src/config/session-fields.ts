/**
 * The signed-in user's facts the runtime needs, read by the names the configuration gives
 * (screens/app.json sessionFields, issue 45): the runtime names no field of a resource, so the
 * user details' role and password expiry are wherever the configuration says they are.
 */
import type { Bundle, RoleName, UserDetails } from './bundle';

type Fields = Pick<Bundle, 'app'>;

/** The user's role: the field sessionFields.role names (undefined when it holds no text). */
export function userRole(bundle: Fields, user: UserDetails | null | undefined): RoleName | undefined {
  const value = user?.[bundle.app.sessionFields.role];
  return typeof value === 'string' ? (value as RoleName) : undefined;
}

/** The user's details with the role replaced (a studio preview shows the portal as another role). */
export function withRole(bundle: Fields, user: UserDetails, role: RoleName | undefined): UserDetails {
  return { ...user, [bundle.app.sessionFields.role]: role };
}

/** The day the user's password is valid until: the field sessionFields.passwordValidUntil names (undefined when none is named). */
export function passwordValidUntil(bundle: Fields, user: UserDetails): unknown {
  const field = bundle.app.sessionFields.passwordValidUntil;
  return field === undefined ? undefined : user[field];
}
