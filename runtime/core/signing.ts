/**
 * Request signing of spec §7: every POST and PUT carries
 *   X-Nonce: ms since epoch, optionally followed by "." and random hex
 *   X-Signature: base64(HMAC-SHA256(key = pre-configuration name + nonce, raw body))
 * The same code signs in the browser and verifies on the server. @noble/hashes works without
 * WebCrypto, which browsers only offer on secure origins.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';

export const NONCE_HEADER = 'x-nonce';
export const SIGNATURE_HEADER = 'x-signature';
/** How far a nonce's time may be from the server clock. */
export const NONCE_WINDOW_MS = 5 * 60 * 1000;

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The signature of a body: text is signed as its UTF-8 bytes, bytes as they are. */
export function signBody(preConfigName: string, nonce: string, body: string | Uint8Array): string {
  return toBase64(hmac(sha256, encoder.encode(preConfigName + nonce), typeof body === 'string' ? encoder.encode(body) : body));
}

/** A fresh nonce: current time in ms, a dot, and 8 random bytes in hex (so two calls in one ms differ). */
export function makeNonce(now: number = Date.now()): string {
  const random = new Uint8Array(8);
  globalThis.crypto.getRandomValues(random);
  return `${now}.${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The time part of a nonce, or null when it is not of the form `<ms>[.<hex>]`. */
export function nonceTime(nonce: string): number | null {
  const m = /^(\d{10,16})(?:\.[0-9a-f]{1,64})?$/i.exec(nonce);
  return m ? Number(m[1]) : null;
}

/** Constant-time comparison of two base64 signatures. */
export function signaturesEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export type SignatureProblem = 'missing' | 'malformedNonce' | 'stale' | 'mismatch';

/** Checks header presence, nonce form and window, and the HMAC. Replay is checked by the caller's store. */
export function checkSignature(args: {
  preConfigName: string;
  nonce: string | undefined;
  signature: string | undefined;
  /** The raw body exactly as received (bytes), or '' when there is none. */
  body: string | Uint8Array;
  now?: number;
}): SignatureProblem | null {
  const { nonce, signature } = args;
  if (!nonce || !signature) return 'missing';
  const t = nonceTime(nonce);
  if (t === null) return 'malformedNonce';
  if (Math.abs((args.now ?? Date.now()) - t) > NONCE_WINDOW_MS) return 'stale';
  const expected = signBody(args.preConfigName, nonce, args.body);
  return signaturesEqual(expected, signature) ? null : 'mismatch';
}
