import { describe, expect, it } from 'vitest';
import type { Bundle, UserDetails } from './bundle';
import { conditionContext } from './context';
import { userRole } from './session-fields';
import { passwordExpiresWithin } from '../forms/password-expiry';

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
    const preview = conditionContext({ ...bundle({ role: 'kind' }), variant: 'default', config: {} } as unknown as Bundle, { token: 't', user: user({ kind: 'ADMIN', login: 'a' }) } as never, null, 'USER');
    expect(preview.role).toBe('USER');
    expect(preview.session).toEqual({ kind: 'USER', login: 'a' });
  });

  it('reads the password expiry from the field named; none named, no warning', () => {
    const now = new Date('2026-11-20T12:00:00');
    const details = user({ pwdDo: '2026-11-30', validTo: '2027-06-30' });
    expect(passwordExpiresWithin(details, 'pwdDo', 14, now)).toBe(true);
    expect(passwordExpiresWithin(details, 'validTo', 14, now)).toBe(false);
    expect(passwordExpiresWithin(details, undefined, 14, now)).toBe(false);
  });
});
