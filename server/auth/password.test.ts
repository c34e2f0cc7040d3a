import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, verifyPassword } from './password.ts';

describe('password hashing', () => {
  it('stores scrypt parameters, a 16-byte salt and verifies the right password only', async () => {
    const stored = await hashPassword('Admin123!');
    const [alg, n, r, p, salt, hash] = stored.split('$');
    expect([alg, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt, 'base64')).toHaveLength(16);
    expect(Buffer.from(hash, 'base64').length).toBeGreaterThanOrEqual(32);
    expect(await verifyPassword('Admin123!', stored)).toBe(true);
    expect(await verifyPassword('admin123!', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('salts every hash, so equal passwords give different strings', async () => {
    const [a, b] = await Promise.all([hashPassword('Zażółć123!'), hashPassword('Zażółć123!')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('Zażółć123!', b)).toBe(true);
  });

  it('treats missing, malformed or tampered hashes as a mismatch, not an error', async () => {
    const stored = await hashPassword('Kierowca123!');
    const parts = stored.split('$');
    const flipped = Buffer.from(parts[5], 'base64');
    flipped[0] ^= 1;
    const tampered = [...parts.slice(0, 5), flipped.toString('base64')].join('$');
    expect(await verifyPassword('Kierowca123!', tampered)).toBe(false);
    expect(await verifyPassword('Kierowca123!', null)).toBe(false);
    expect(await verifyPassword('Kierowca123!', 'plain-text')).toBe(false);
    // A huge N from a tampered row is refused instead of allocating memory.
    expect(await verifyPassword('x', `scrypt$${2 ** 30}$8$1$${parts[4]}$${parts[5]}`)).toBe(false);
    expect(needsRehash('scrypt$1024$8$1$' + parts[4] + '$' + parts[5])).toBe(true);
  });
});
