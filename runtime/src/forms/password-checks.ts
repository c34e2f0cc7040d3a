/**
 * The checks a form runs on a new password and its repetition (spec §5 "Password"), as pure
 * functions: the policy of the pre-configuration, the strength score once the estimator has
 * loaded (the server checks it regardless), and the repeated password.
 */
import { MIN_ACCEPTED_SCORE, policyViolations, type PasswordPolicy } from '../../core/password-rules';
import type { Translate } from '../format';

export { expiresWithin } from './password-expiry';

export type ScoreFn = (password: string, userInputs?: string[]) => number;

/** The first message for a new password, or null when it is acceptable. */
export function newPasswordMessage(password: string, policy: PasswordPolicy, t: Translate, score: ScoreFn | null, userInputs: string[]): string | null {
  if (!password) return null; // the schema's required rule speaks for an empty field
  const broken = policyViolations(password, policy);
  if (broken.length) return t(broken[0].key, { n: broken[0].n });
  if (score && score(password, userInputs) < MIN_ACCEPTED_SCORE) return t('password:rules.tooWeak');
  return null;
}

export function repeatMessage(value: unknown, original: unknown, t: Translate): string | null {
  return value !== original && (value || original) ? t('password:rules.mismatch') : null;
}

/** The policy fields of the pre-configuration. */
export function policyOf(preConfig: Record<string, unknown>): PasswordPolicy {
  const n = (key: string) => (typeof preConfig[key] === 'number' ? (preConfig[key] as number) : 0);
  return {
    passwordMinLenght: n('passwordMinLenght'),
    passwordMinDigits: n('passwordMinDigits'),
    passwordMinSpecialCharacter: n('passwordMinSpecialCharacter'),
    passwordMinUpperCaseLetter: n('passwordMinUpperCaseLetter'),
    passwordMinLowerCaseLetter: n('passwordMinLowerCaseLetter'),
  };
}
