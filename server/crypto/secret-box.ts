/**
 * Secrets the server must use again, kept encrypted (AES-256-GCM) rather than hashed: a webhook's
 * signing secret (issue 35), a user's TOTP secret (issue 36). Each use has its own key, derived
 * (HKDF-SHA-256) from the operator's key for that use (WEBHOOK_SECRET_KEY, TOTP_SECRET_KEY) with an
 * `info` of its own, so one key's loss or rotation touches one kind of secret. Without an operator
 * key a fixed development key is used and the start-up log says so. GCM: a stored value changed by
 * anyone without the key fails to open rather than yielding something else.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export interface SecretBoxUse {
  /** The development key used when the operator gave none (it names the variable to set). */
  developmentKey: string;
  /** HKDF salt and info: what the derived key is for. */
  salt: string;
  info: string;
}

export class SecretBox {
  readonly #key: Buffer;
  /** True when no operator secret was given (the development key is in use). */
  readonly development: boolean;

  constructor(operatorSecret: string | undefined, use: SecretBoxUse) {
    this.development = !operatorSecret;
    this.#key = Buffer.from(hkdfSync('sha256', operatorSecret || use.developmentKey, use.salt, use.info, 32));
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  open(sealed: string): string {
    const [version, data] = sealed.split(':');
    if (version !== VERSION || !data) throw new Error('unknown sealed secret format');
    const raw = Buffer.from(data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
