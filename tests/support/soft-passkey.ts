/**
 * A software passkey for API tests (issue 36): an ES256 key pair that answers the server's WebAuthn
 * options as an authenticator would (attestation "none"), for the origin it is told. The CBOR is
 * SimpleWebAuthn's own encoder; the browser journeys use Chromium's virtual authenticator instead.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash('sha256').update(data).digest());
const b64 = (data: Uint8Array) => isoBase64URL.fromBuffer(data as Uint8Array<ArrayBuffer>);
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));
const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return new Uint8Array(b); };

export function softPasskey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const credentialId = new Uint8Array(randomBytes(16));
  let counter = 0;
  /** The user handle the server gave at registration (options.user.id): a discoverable credential keeps it and answers it. */
  let userHandle: string | undefined;
  const cose = isoCBOR.encode(new Map<number, number | Uint8Array>([
    [1, 2], [3, -7], [-1, 1], [-2, isoBase64URL.toBuffer(jwk.x!)], [-3, isoBase64URL.toBuffer(jwk.y!)],
  ]));
  const clientData = (type: string, challenge: string, origin: string) => new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    id: b64(credentialId),
    /** The answer to registration options (PublicKeyCredentialCreationOptionsJSON). */
    register(options: { challenge: string; rp: { id?: string }; user?: { id: string } }, origin: string) {
      userHandle = options.user?.id;
      const authData = concat(sha256(options.rp.id!), new Uint8Array([0x45]), u32(counter), new Uint8Array(16), new Uint8Array([0, credentialId.length]), credentialId, cose);
      const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as any);
      return {
        id: b64(credentialId), rawId: b64(credentialId), type: 'public-key', clientExtensionResults: {},
        response: { clientDataJSON: b64(clientData('webauthn.create', options.challenge, origin)), attestationObject: b64(attestationObject), transports: ['internal'] },
      };
    },
    /**
     * The answer to authentication options, signed for `origin` (another origin: a phishing page), with the stored user
     * handle (or `as.userHandle`: an authenticator lying about whose credential it is); `as.userVerified: false` answers
     * without user verification (no PIN or biometric).
     */
    authenticate(options: { challenge: string; rpId?: string }, origin: string, as: { userHandle?: string; userVerified?: boolean } = {}) {
      counter += 1;
      // flags: user present (0x01), user verified (0x04) unless told otherwise
      const authData = concat(sha256(options.rpId!), new Uint8Array([as.userVerified === false ? 0x01 : 0x05]), u32(counter));
      const data = clientData('webauthn.get', options.challenge, origin);
      const signature = new Uint8Array(sign('sha256', concat(authData, sha256(data)), privateKey));
      return {
        id: b64(credentialId), rawId: b64(credentialId), type: 'public-key', clientExtensionResults: {},
        response: { clientDataJSON: b64(data), authenticatorData: b64(authData), signature: b64(signature), userHandle: as.userHandle ?? userHandle },
      };
    },
  };
}
