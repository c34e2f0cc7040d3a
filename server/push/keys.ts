/**
 * The portal's VAPID key pair (RFC 8292): the browsers subscribe with its public key (P-256, the
 * `applicationServerKey`), and every message carries a JWT signed (ES256) with its private key, by
 * which the push service knows the sender. One pair for the whole installation, the same in every
 * process:
 *
 * - from the environment, when the operator gives VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (base64url,
 *   as `npx web-push generate-vapid-keys` prints them); the pair is checked at start;
 * - else made on the first start and kept in app_setting `push.vapid`, the private key sealed
 *   (AES-256-GCM, server/crypto/secret-box.ts) under a key derived from WEBHOOK_SECRET_KEY with
 *   its own HKDF info, like the other secrets the server must use again. Two processes starting
 *   at once keep one pair (insert … on conflict do nothing, then read what is there).
 *
 * The private key is never logged nor answered; only the public key leaves the server.
 * A stored pair that no longer opens (WEBHOOK_SECRET_KEY changed) is replaced by a new one, and
 * every subscription, made for the old public key, is dropped: the browsers must subscribe again.
 */
import { createPublicKey, createPrivateKey } from 'node:crypto';
import type { Kysely } from 'kysely';
import webpush from 'web-push';
import { SecretBox } from '../crypto/secret-box.ts';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';

export const VAPID_SETTING = 'push.vapid';

export interface VapidKeys {
  publicKey: string;
  /** base64url of the 32-byte private scalar; never logged. */
  privateKey: string;
  subject: string;
  /** Where the pair came from (the start-up log says so). */
  source: 'environment' | 'stored' | 'generated';
}

/** The box the generated private key is sealed in: WEBHOOK_SECRET_KEY's derivation with an info of its own. */
export function vapidBox(operatorSecret: string | undefined): SecretBox {
  return new SecretBox(operatorSecret, {
    developmentKey: 'fleet-portal development webhook key: set WEBHOOK_SECRET_KEY in production',
    salt: 'fleet-portal web push',
    info: 'vapid-private-key-encryption',
  });
}

const b64url = (buffer: Buffer) => buffer.toString('base64url');

/** Whether a base64url public key (uncompressed P-256 point) and private key (32 bytes) are one pair. */
export function isKeyPair(publicKey: string, privateKey: string): boolean {
  try {
    const pub = Buffer.from(publicKey, 'base64url');
    const priv = Buffer.from(privateKey, 'base64url');
    if (pub.length !== 65 || pub[0] !== 4 || priv.length !== 32) return false;
    const key = createPrivateKey({ key: { kty: 'EC', crv: 'P-256', d: b64url(priv), x: b64url(pub.subarray(1, 33)), y: b64url(pub.subarray(33)) }, format: 'jwk' });
    const jwk = createPublicKey(key).export({ format: 'jwk' }) as { x: string; y: string };
    return jwk.x === b64url(pub.subarray(1, 33)) && jwk.y === b64url(pub.subarray(33));
  } catch {
    return false;
  }
}

/**
 * The subject the push services may reach the operator at: VAPID_SUBJECT (`mailto:` or `https:`),
 * else the portal's public address when it is https, else a mailto of no one (Apple's service
 * refuses it: set VAPID_SUBJECT in production).
 */
export function vapidSubject(subject: string | undefined, publicUrl: string): string {
  if (subject) {
    const url = new URL(subject);
    if (url.protocol !== 'mailto:' && url.protocol !== 'https:') throw new Error(`VAPID_SUBJECT must be a mailto: or https: address, not "${subject}"`);
    return subject;
  }
  return publicUrl.startsWith('https://') ? publicUrl : 'mailto:webpush@fleet-portal.invalid';
}

export interface KeyOptions {
  publicKey?: string;
  privateKey?: string;
  subject?: string;
  /** WEBHOOK_SECRET_KEY (unset: the development key). */
  secretKey?: string;
  publicUrl: string;
}

/** The pair in force: the environment's, the stored one, or a new one stored now. */
export async function loadVapidKeys(db: Kysely<DB>, options: KeyOptions): Promise<VapidKeys> {
  const subject = vapidSubject(options.subject, options.publicUrl);
  if (options.publicKey || options.privateKey) {
    if (!options.publicKey || !options.privateKey || !isKeyPair(options.publicKey, options.privateKey)) {
      throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be given together and be one P-256 key pair (base64url, as `npx web-push generate-vapid-keys` prints them)');
    }
    return { publicKey: options.publicKey, privateKey: options.privateKey, subject, source: 'environment' };
  }
  const box = vapidBox(options.secretKey);
  const read = async () => (await db.selectFrom('app_setting').select('value').where('key', '=', VAPID_SETTING).executeTakeFirst())?.value as { publicKey?: string; sealedPrivateKey?: string } | undefined;
  const store = async (replace: boolean) => {
    const made = webpush.generateVAPIDKeys();
    const value = jsonb({ publicKey: made.publicKey, sealedPrivateKey: box.seal(made.privateKey) });
    const insert = db.insertInto('app_setting').values({ key: VAPID_SETTING, value });
    await (replace ? insert.onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: new Date() })) : insert.onConflict((oc) => oc.column('key').doNothing())).execute();
  };
  let stored = await read();
  let source: VapidKeys['source'] = 'stored';
  if (!stored) {
    await store(false);
    stored = await read();
    source = 'generated';
  }
  try {
    const privateKey = box.open(String(stored?.sealedPrivateKey));
    if (stored?.publicKey && isKeyPair(stored.publicKey, privateKey)) return { publicKey: stored.publicKey, privateKey, subject, source };
  } catch {
    // sealed under another key: replaced below
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('push_subscription').execute();
  });
  await store(true);
  stored = await read();
  return { publicKey: stored!.publicKey!, privateKey: box.open(stored!.sealedPrivateKey!), subject, source: 'generated' };
}
