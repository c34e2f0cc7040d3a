import { describe, expect, it } from 'vitest';
import { expiresWithin, newPasswordMessage, policyOf, repeatMessage } from './password-checks';

const t = (key: string, vars?: Record<string, unknown>) => (vars?.n !== undefined ? `${key}(${vars.n})` : key);
const policy = policyOf({ passwordMinLenght: 8, passwordMinDigits: 1, passwordMinSpecialCharacter: 1, passwordMinUpperCaseLetter: 1, passwordMinLowerCaseLetter: 1, name: 'x' });

describe('new password checks in the browser', () => {
  it('reads the policy from the pre-configuration, missing rules as 0', () => {
    expect(policyOf({ passwordMinLenght: 10 })).toEqual({
      passwordMinLenght: 10, passwordMinDigits: 0, passwordMinSpecialCharacter: 0, passwordMinUpperCaseLetter: 0, passwordMinLowerCaseLetter: 0,
    });
  });

  it('shows the first broken policy rule, then the strength rule once the estimator is there', () => {
    expect(newPasswordMessage('abc', policy, t, null, [])).toBe('password:rules.minLength(8)');
    expect(newPasswordMessage('Password1!', policy, t, null, [])).toBeNull();
    expect(newPasswordMessage('Password1!', policy, t, () => 1, [])).toBe('password:rules.tooWeak');
    expect(newPasswordMessage('Password1!', policy, t, () => 3, [])).toBeNull();
    expect(newPasswordMessage('', policy, t, () => 0, [])).toBeNull();
  });

  it('asks for the same password twice', () => {
    expect(repeatMessage('a', 'b', t)).toBe('password:rules.mismatch');
    expect(repeatMessage('a', 'a', t)).toBeNull();
    expect(repeatMessage(undefined, undefined, t)).toBeNull();
  });

  it('warns of a password that expires within the configured days', () => {
    const now = new Date('2026-11-22T10:00:00');
    expect(expiresWithin('2026-11-30', 14, now)).toBe(true);
    expect(expiresWithin('2026-12-31', 14, now)).toBe(false);
    expect(expiresWithin('2099-12-31', 14, now)).toBe(false);
    expect(expiresWithin(null, 14, now)).toBe(false);
    expect(expiresWithin('2026-11-30', 0, now)).toBe(false);
  });
});
