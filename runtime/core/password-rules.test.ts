import { describe, expect, it } from 'vitest';
import { policyViolations, strengthLabelKey, type PasswordPolicy } from './password-rules';
import { passwordScore } from './password-strength';

const policy: PasswordPolicy = {
  passwordMinLenght: 8, passwordMinDigits: 2, passwordMinSpecialCharacter: 1, passwordMinUpperCaseLetter: 1, passwordMinLowerCaseLetter: 1,
};

describe('password policy', () => {
  it('names every broken rule with its minimum, in the order of the spec', () => {
    expect(policyViolations('abc', policy)).toEqual([
      { key: 'password:rules.minLength', n: 8 },
      { key: 'password:rules.minUpper', n: 1 },
      { key: 'password:rules.minSpecial', n: 1 },
      { key: 'password:rules.minDigits', n: 2 },
    ]);
    expect(policyViolations('Zielony#Rower72', policy)).toEqual([]);
  });

  it('counts only !@#$%^&* as special characters and Polish capitals as upper case', () => {
    expect(policyViolations('Zielony-Rower72', policy)).toEqual([{ key: 'password:rules.minSpecial', n: 1 }]);
    expect(policyViolations('łódź#ŻABA72', policy)).toEqual([]);
  });

  it('ignores a rule whose minimum is 0 and refuses more than 30 characters', () => {
    expect(policyViolations('abcdefgh', { ...policy, passwordMinDigits: 0, passwordMinSpecialCharacter: 0, passwordMinUpperCaseLetter: 0 })).toEqual([]);
    expect(policyViolations('Aa1!'.repeat(8), policy)).toEqual([{ key: 'password:rules.maxLength', n: 30 }]);
  });

  it('says "too short" below the minimum length, otherwise one word per score', () => {
    expect(strengthLabelKey('Ab1!', 4, policy)).toBe('password:strength.tooShort');
    expect(strengthLabelKey('Zielony#Rower72', 3, policy)).toBe('password:strength.3');
    expect(strengthLabelKey('Zielony#Rower72', 9, policy)).toBe('password:strength.4');
  });
});

describe('password strength (zxcvbn-ts with Polish dictionaries)', () => {
  it('scores common and Polish words low and a random phrase high', () => {
    expect(passwordScore('Password1!')).toBeLessThan(3);
    expect(passwordScore('Warszawa')).toBeLessThan(3);
    expect(passwordScore('Zielony#Rower72')).toBeGreaterThanOrEqual(3);
  });

  it('counts the user\'s own name as guessable, with or without Polish letters', () => {
    expect(passwordScore('Wisniewski7!', [])).toBeGreaterThanOrEqual(3);
    expect(passwordScore('Wisniewski7!', ['Wiśniewski'])).toBeLessThan(3);
  });
});
