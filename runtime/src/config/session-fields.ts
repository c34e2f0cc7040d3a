/**
 * The signed-in user's facts the runtime needs, read by the names the configuration gives
 * (screens/app.json sessionFields, issue 45): the runtime names no field of a resource, so the
 * user details' role is wherever the configuration says it is (the password's expiry:
 * forms/password-expiry.ts).
 */
import type { Bundle, RoleName, UserDetails } from './bundle';

type Fields = Pick<Bundle, 'app'>;

/** The user's role: the field sessionFields.role names (undefined when it holds no text). */
export function userRole(bundle: Fields, user: UserDetails | null | undefined): RoleName | undefined {
  const value = user?.[bundle.app.sessionFields.role];
  return typeof value === 'string' ? (value as RoleName) : undefined;
}
