/**
 * A push service on 127.0.0.1 for tests (issue 47): takes each message as a browser's push service
 * would, checks its VAPID JWT (RFC 8292: ES256 by the key in `k`, `aud` this receiver's origin, not
 * expired) and decrypts its body (RFC 8291, aes128gcm) with the private key of the subscription it
 * made, written here with node:crypto alone (ECDH and HKDF), not with the library that encrypted it.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Browser {
  /** The subscription as a browser's toJSON() gives it. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  privateKey: Buffer;
  publicKey: Buffer;
  auth: Buffer;
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The decrypted message, parsed. */
  payload: any;
  /** The VAPID JWT's claims and the public key it was signed with (base64url). */
  jwt: { aud: string; exp: number; sub: string };
  vapidKey: string;
}

/** RFC 8291 §3.4 and RFC 8188: one aes128gcm record, decrypted by the user agent's keys. */
export function decrypt(body: Buffer, browser: Pick<Browser, 'privateKey' | 'publicKey' | 'auth'>): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderKey = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error('more than one record');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(browser.privateKey);
  const shared = ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browser.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // the last record ends with the delimiter 0x02, then zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

/** RFC 8292 §2–3: `vapid t=<JWT>, k=<public key>`; the JWT's ES256 signature checked with k. Throws when it does not hold. */
export function verifyVapid(authorization: string | undefined, origin: string): { claims: Received['jwt']; key: string } {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match) throw new Error(`not a VAPID authorization: ${authorization}`);
  const [, token, k] = match;
  const [head, body, signature] = token.split('.');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString('utf8'));
  if (header.alg !== 'ES256') throw new Error(`alg ${header.alg}`);
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${head}.${body}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) throw new Error('bad VAPID signature');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(claims.exp > now && claims.exp <= now + 24 * 3600 + 60)) throw new Error(`exp ${claims.exp}`);
  return { claims, key: k };
}

export interface PushReceiver {
  origin: string;
  received: Received[];
  /** Problems with a message (a bad signature, undecryptable): each answered 400. */
  problems: string[];
  /** What a path answers (default 201). */
  answer: Map<string, number>;
  /** A browser subscribed at a path of this receiver. */
  browser(path: string): Browser;
  close(): Promise<void>;
}

export async function startPushReceiver(): Promise<PushReceiver> {
  const browsers = new Map<string, Browser>();
  const received: Received[] = [];
  const problems: string[] = [];
  const answer = new Map<string, number>();
  let origin = '';
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const path = request.url ?? '';
      const status = answer.get(path) ?? 201;
      if (status !== 201) {
        response.writeHead(status).end();
        return;
      }
      try {
        const browser = browsers.get(path);
        if (!browser) throw new Error(`no subscription at ${path}`);
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${request.headers['content-encoding']}`);
        const { claims, key } = verifyVapid(request.headers.authorization, origin);
        const body = Buffer.concat(chunks);
        const payload = JSON.parse(decrypt(body, browser).toString('utf8'));
        received.push({ path, headers: request.headers, body, payload, jwt: claims, vapidKey: key });
        response.writeHead(201).end();
      } catch (error) {
        problems.push(String(error));
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin, received, problems, answer,
    browser(path) {
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const browser: Browser = {
        subscription: { endpoint: `${origin}${path}`, expirationTime: null, keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') } },
        privateKey: ecdh.getPrivateKey(), publicKey, auth,
      };
      browsers.set(path, browser);
      return browser;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
