/**
 * The text of an integration key (issue 34): `flp_` + 30 random base62 characters + a 6-character
 * base62 CRC32 of those 30, 40 characters in all — the shape of GitHub's tokens, so that a key
 * pasted into a repository or a ticket is recognisable by a secret scanner (the prefix and a
 * checksum it can verify offline, no false positives from random text) and a mistyped key is
 * refused without a database lookup.
 *
 * 30 characters of base62 are 178 random bits: no one guesses one, and a plain SHA-256 of the key
 * is a safe thing to store (nothing to stretch, unlike a password). The first characters after the
 * prefix are kept in clear to tell keys apart in lists ("flp_Ab12Cd34…").
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'flp_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
/** Characters of the random part shown in lists, after the prefix. */
const SHOWN = 8;
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

/** `n` random base62 characters (rejection sampling: every character equally likely). */
function randomBase62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248 && out.length < n) out += BASE62[byte % 62]; // 248 = 4 × 62
    }
  }
  return out;
}

/** CRC32 of the random part as 6 base62 characters, zero-padded. */
export function checksumOf(random: string): string {
  let value = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface NewKey {
  /** The key itself: shown once, never stored. */
  key: string;
  /** What is stored. */
  hash: string;
  /** What lists show: the prefix and the first characters. */
  displayPrefix: string;
}

export function generateKey(): NewKey {
  const random = randomBase62(RANDOM_LENGTH);
  const key = KEY_PREFIX + random + checksumOf(random);
  return { key, hash: hashKey(key), displayPrefix: displayPrefixOf(key) };
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const displayPrefixOf = (key: string) => key.slice(0, KEY_PREFIX.length + SHOWN);

/**
 * Whether a bearer token is meant as a key: the prefix and the length of one. A session token
 * (43 characters of base64url) never has that shape, so the two never meet.
 */
export function looksLikeKey(token: string): boolean {
  return KEY_SHAPE.test(token);
}

/** Whether a key-shaped token's checksum holds: a typo or a made-up key fails here, offline. */
export function checksumHolds(token: string): boolean {
  if (!looksLikeKey(token)) return false;
  const random = token.slice(KEY_PREFIX.length, KEY_PREFIX.length + RANDOM_LENGTH);
  const given = Buffer.from(token.slice(KEY_PREFIX.length + RANDOM_LENGTH));
  return timingSafeEqual(given, Buffer.from(checksumOf(random)));
}
