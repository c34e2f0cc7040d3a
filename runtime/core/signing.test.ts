import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignature, makeNonce, nonceTime, signBody, signaturesEqual } from './signing';

describe('request signing', () => {
  it('produces the HMAC-SHA256 of the body keyed by name + nonce, base64', () => {
    const nonce = '1763790000000.abcd';
    const expected = createHmac('sha256', 'portal' + nonce).update('{"a":1}').digest('base64');
    expect(signBody('portal', nonce, '{"a":1}')).toBe(expected);
  });

  it('signs Polish text as UTF-8', () => {
    const nonce = '1763790000000';
    const expected = createHmac('sha256', 'p' + nonce).update('Zażółć gęślą jaźń', 'utf8').digest('base64');
    expect(signBody('p', nonce, 'Zażółć gęślą jaźń')).toBe(expected);
  });

  it('makes distinct nonces that carry the time', () => {
    const a = makeNonce(1763790000000);
    const b = makeNonce(1763790000000);
    expect(a).not.toBe(b);
    expect(nonceTime(a)).toBe(1763790000000);
    expect(nonceTime('12345')).toBeNull();
    expect(nonceTime('1763790000000.xyz')).toBeNull();
  });

  it('accepts a correct signature and refuses missing, stale and wrong ones', () => {
    const now = 1763790000000;
    const nonce = makeNonce(now);
    const body = '{"x":"y"}';
    const signature = signBody('portal', nonce, body);
    expect(checkSignature({ preConfigName: 'portal', nonce, signature, body, now })).toBeNull();
    expect(checkSignature({ preConfigName: 'portal', nonce, signature: undefined, body, now })).toBe('missing');
    expect(checkSignature({ preConfigName: 'portal', nonce, signature, body: '{"x":"z"}', now })).toBe('mismatch');
    expect(checkSignature({ preConfigName: 'other', nonce, signature, body, now })).toBe('mismatch');
    expect(checkSignature({ preConfigName: 'portal', nonce, signature, body, now: now + 5 * 60 * 1000 + 1 })).toBe('stale');
    expect(checkSignature({ preConfigName: 'portal', nonce: 'abc', signature, body, now })).toBe('malformedNonce');
  });

  it('compares signatures of different lengths without throwing', () => {
    expect(signaturesEqual('abc', 'abcd')).toBe(false);
    expect(signaturesEqual('abc', 'abc')).toBe(true);
  });
});
