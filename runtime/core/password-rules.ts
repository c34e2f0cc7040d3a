/**
 * The password rules of spec §5, run the same way in the browser (as the user types) and on the
 * server (before a hash is written): the policy from the pre-configuration (minimum length,
 * digits, special characters from !@#$%^&*, upper and lower case letters) and the strength score
 * of a well-kept estimator (zxcvbn-ts with the common and Polish dictionaries; see
 * password-strength.ts). Each broken rule is a message key with its {{n}}.
 */

export interface PasswordPolicy {
  passwordMinLenght: number;
  passwordMinDigits: number;
  passwordMinSpecialCharacter: number;
  passwordMinUpperCaseLetter: number;
  passwordMinLowerCaseLetter: number;
}

/** Spec §5: "Special characters are from the set !@#$%^&*". */
export const SPECIAL_CHARACTERS = '!@#$%^&*';
/** Spec §5/§9: the password input takes at most 30 characters. */
export const PASSWORD_MAX_LENGTH = 30;
/** Spec §5: the strength meter accepts from score 3. */
export const MIN_ACCEPTED_SCORE = 3;

export interface RuleViolation {
  /** A key of the `password` namespace, e.g. `password:rules.minDigits`. */
  key: string;
  n: number;
}

const count = (value: string, test: (ch: string) => boolean) => [...value].filter(test).length;
// Unicode-aware, so Polish capitals (Ł, Ż) count as upper case letters
const isUpper = (ch: string) => ch !== ch.toLowerCase() && ch === ch.toUpperCase();
const isLower = (ch: string) => ch !== ch.toUpperCase() && ch === ch.toLowerCase();
const isDigit = (ch: string) => ch >= '0' && ch <= '9';
const isSpecial = (ch: string) => SPECIAL_CHARACTERS.includes(ch);

/** Every policy rule the password breaks, in the order the spec lists the messages. */
export function policyViolations(password: string, policy: PasswordPolicy): RuleViolation[] {
  const out: RuleViolation[] = [];
  const rules: [number, number, string][] = [
    [policy.passwordMinLenght, [...password].length, 'password:rules.minLength'],
    [policy.passwordMinUpperCaseLetter, count(password, isUpper), 'password:rules.minUpper'],
    [policy.passwordMinLowerCaseLetter, count(password, isLower), 'password:rules.minLower'],
    [policy.passwordMinSpecialCharacter, count(password, isSpecial), 'password:rules.minSpecial'],
    [policy.passwordMinDigits, count(password, isDigit), 'password:rules.minDigits'],
  ];
  for (const [min, actual, key] of rules) if (min > 0 && actual < min) out.push({ key, n: min });
  if ([...password].length > PASSWORD_MAX_LENGTH) out.push({ key: 'password:rules.maxLength', n: PASSWORD_MAX_LENGTH });
  return out;
}

/**
 * The word of the strength meter (spec §5): 'Za krótkie' below the minimum length, otherwise one
 * word per zxcvbn score 0–4.
 */
export function strengthLabelKey(password: string, score: number, policy: PasswordPolicy): string {
  if ([...password].length < policy.passwordMinLenght) return 'password:strength.tooShort';
  return `password:strength.${Math.max(0, Math.min(4, score))}`;
}
