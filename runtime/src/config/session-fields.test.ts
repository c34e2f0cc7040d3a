import { describe, expect, it } from 'vitest';
import type { Bundle, UserDetails } from './bundle';
import { passwordValidUntil, userRole, withRole } from './session-fields';
import { expiresWithin } from '../forms/password-expiry';

const bundle = (sessionFields: Record<string, string>) => ({ app: { sessionFields } }) as unknown as Pick<Bundle, 'app'>;
const user = (values: Record<string, unknown>) => values as unknown as UserDetails;

describe('the signed-in user read by the names screens/app.json sessionFields gives (issue 45)', () => {
  it('reads the role from the field named, and nothing when it holds no text', () => {
    expect(userRole(bundle({ role: 'rola' }), user({ rola: 'MANAGER' }))).toBe('MANAGER');
    expect(userRole(bundle({ role: 'kind' }), user({ kind: 'USER', rola: 'ADMIN' }))).toBe('USER');
    expect(userRole(bundle({ role: 'rola' }), user({ role: 'ADMIN' }))).toBeUndefined();
    expect(userRole(bundle({ role: 'rola' }), null)).toBeUndefined();
  });

  it('replaces the role in the same field (a studio preview)', () => {
    expect(withRole(bundle({ role: 'kind' }), user({ kind: 'ADMIN', login: 'a' }), 'USER')).toEqual({ kind: 'USER', login: 'a' });
  });

  it('reads the password expiry from the field named; none named, no warning', () => {
    const now = new Date('2026-11-20T12:00:00');
    const details = user({ pwdDo: '2026-11-30', validTo: '2027-06-30' });
    expect(passwordValidUntil(bundle({ role: 'rola', passwordValidUntil: 'pwdDo' }), details)).toBe('2026-11-30');
    expect(expiresWithin(passwordValidUntil(bundle({ role: 'rola', passwordValidUntil: 'pwdDo' }), details), 14, now)).toBe(true);
    expect(expiresWithin(passwordValidUntil(bundle({ role: 'rola', passwordValidUntil: 'validTo' }), details), 14, now)).toBe(false);
    expect(expiresWithin(passwordValidUntil(bundle({ role: 'rola' }), details), 14, now)).toBe(false);
  });
});
