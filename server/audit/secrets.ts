/**
 * The fields whose values never enter the trail, whatever the resource: that they changed is
 * recorded, as "zmieniono", never what they were or became. One list, like the request log's
 * redaction list (server/plugins/request-log.ts), which it extends with the stored forms
 * (hashes, encrypted secrets) that a row read before and after a change carries.
 */

/** What a secret's before and after read as in the trail (the spec's Polish word for "changed"). */
export const CHANGED = 'zmieniono';

export const SECRET_FIELDS: ReadonlySet<string> = new Set([
  'password', 'newPassword', 'currentPassword', 'passwordHash', 'smtpPassword', 'pass',
  'token', 'tokenHash', 'apiKey', 'key', 'keyHash', 'secret', 'previousSecret', 'secretKey', 'clientSecret',
  'totpSecret', 'recoveryCodes', 'codeVerifier', 'nonce', 'resetCode',
]);

/** A secret's value as the trail keeps it: none, or that there was one. */
export const masked = (v: unknown): unknown => (v === null || v === undefined || v === '' ? null : CHANGED);

export function maskSecrets(changes: Record<string, [unknown, unknown]>): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  for (const [field, pair] of Object.entries(changes)) {
    out[field] = SECRET_FIELDS.has(field) ? [masked(pair[0]), masked(pair[1])] : pair;
  }
  return out;
}
