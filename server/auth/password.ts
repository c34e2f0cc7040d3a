/**
 * Password hashing with scrypt from node:crypto (no native add-on, no extra package).
 *
 * Stored format: `scrypt$N$r$p$<salt base64>$<hash base64>`. The parameters travel with the
 * hash so that they can be raised later without invalidating existing passwords: verifyPassword
 * uses the stored parameters, and needsRehash() tells the login code when to re-hash.
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 16384;
const R = 8;
const P = 1;
const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Upper bound for a stored N: a tampered row must not make a login allocate gigabytes. */
const MAX_N = 1 << 20;

function scrypt(plain: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCb(plain.normalize('NFC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is too small for large N. */
function maxmem(n: number, r: number, p: number): number {
  return 128 * n * r * p + 16 * 1024 * 1024;
}

export async function hashPassword(plain: string): Promise<string> {
  if (typeof plain !== 'string' || plain.length === 0) throw new Error('hashPassword: empty password');
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(plain, salt, KEY_BYTES, { N, r: R, p: P, maxmem: maxmem(N, R, P) });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

interface Parsed { n: number; r: number; p: number; salt: Buffer; key: Buffer }

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  // N must be a power of two > 1; r and p small positive integers.
  if (!(n > 1 && n <= MAX_N && (n & (n - 1)) === 0 && r >= 1 && r <= 32 && p >= 1 && p <= 16)) return null;
  const salt = Buffer.from(parts[4], 'base64');
  const key = Buffer.from(parts[5], 'base64');
  if (salt.length < 8 || key.length < 16) return null;
  return { n, r, p, salt, key };
}

/**
 * True when `plain` matches `stored`. A null, empty or malformed stored value is simply a
 * mismatch (never an exception), so callers can treat "no password set" like a wrong one.
 */
export async function verifyPassword(plain: string, stored: string | null | undefined): Promise<boolean> {
  if (typeof plain !== 'string' || !stored) return false;
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await scrypt(plain, parsed.salt, parsed.key.length, {
    N: parsed.n, r: parsed.r, p: parsed.p, maxmem: maxmem(parsed.n, parsed.r, parsed.p),
  });
  // Lengths are equal by construction (keylen = stored key length); compare in constant time.
  return timingSafeEqual(key, parsed.key);
}

/** True when a stored hash uses other parameters than the current ones (re-hash after login). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n !== N || parsed.r !== R || parsed.p !== P || parsed.key.length !== KEY_BYTES;
}
