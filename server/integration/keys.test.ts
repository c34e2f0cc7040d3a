import { describe, expect, it } from 'vitest';
import { checksumHolds, checksumOf, displayPrefixOf, generateKey, hashKey, KEY_PREFIX, looksLikeKey } from './keys.ts';

describe('integration key text', () => {
  it('is flp_ + 36 base62 characters whose last 6 are the checksum of the 30 before, and is stored only as its SHA-256', () => {
    const { key, hash, displayPrefix } = generateKey();
    expect(key).toMatch(/^flp_[0-9A-Za-z]{36}$/);
    expect(checksumHolds(key)).toBe(true);
    expect(key.slice(-6)).toBe(checksumOf(key.slice(4, 34)));
    expect(hash).toBe(hashKey(key));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(key.slice(4, 20));
    expect(displayPrefix).toBe(key.slice(0, 12));
    expect(displayPrefixOf(key)).toBe(displayPrefix);
  });

  it('gives a new key every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey().key));
    expect(keys.size).toBe(200);
  });

  it('refuses a key with one character changed, without a lookup', () => {
    const { key } = generateKey();
    for (const at of [4, 20, 33, 34, 39]) {
      const other = key[at] === 'a' ? 'b' : 'a';
      const changed = key.slice(0, at) + other + key.slice(at + 1);
      expect(checksumHolds(changed), `position ${at}`).toBe(false);
    }
  });

  it('never takes a session token (43 characters of base64url) for a key', () => {
    const session = 'flp_' + 'A'.repeat(39);
    expect(looksLikeKey(session)).toBe(false);
    expect(looksLikeKey(`${KEY_PREFIX}${'a'.repeat(35)}`)).toBe(false);
    expect(looksLikeKey(`xyz_${'a'.repeat(36)}`)).toBe(false);
    expect(checksumHolds('flp_' + '-'.repeat(36))).toBe(false);
  });

  it('writes the checksum zero-padded to 6 characters', () => {
    for (const random of ['', 'a', '0'.repeat(30)]) expect(checksumOf(random)).toMatch(/^[0-9A-Za-z]{6}$/);
    expect(checksumOf('')).toBe('000000'); // crc32 of nothing is 0
  });
});
