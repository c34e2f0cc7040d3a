/**
 * Passkeys (WebAuthn) through @simplewebauthn/server (issue 36): the relying party is the portal
 * as the browser reached it. Its origin is the request's (scheme and host as Fastify sees them,
 * TRUST_PROXY's forwarded ones behind a proxy), its RP ID that host name, so every host a variant
 * claims (docs/variants.md) has passkeys of its own. The browser binds each credential to the RP
 * ID and signs the origin it was on: an assertion made for another origin fails verification here.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON, RegistrationResponseJSON, AuthenticatorTransport } from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { lazyModule } from '../lazy-module.ts';

/** Loaded on the first passkey ceremony, not at start-up (server/lazy-module.ts). */
const simpleWebAuthn = lazyModule(() => import('@simplewebauthn/server'));

export interface RelyingParty { origin: string; rpID: string }

export function relyingPartyOf(request: FastifyRequest): RelyingParty {
  return { origin: `${request.protocol}://${request.host}`, rpID: request.hostname };
}

interface StoredPasskey { credentialId: string; publicKey: string; counter: number | string; transports: string | null }

const transportsOf = (p: StoredPasskey) => (p.transports ? (p.transports.split(',') as AuthenticatorTransport[]) : undefined);

/**
 * The user handle a passkey of this account carries (WebAuthn `user.id`): stored by the
 * authenticator with a discoverable credential and sent back with every assertion of it.
 */
export const userHandleOf = (userId: number) => new TextEncoder().encode(`portal-user-${userId}`);

/** Whether an assertion's userHandle (base64url, as @simplewebauthn/browser sends it) names this account. */
export function userHandleMatches(userHandle: unknown, userId: number): boolean {
  if (typeof userHandle !== 'string' || userHandle.length > 100) return false;
  try {
    return isoBase64URL.toUTF8String(userHandle) === `portal-user-${userId}`;
  } catch {
    return false;
  }
}

/** The challenge an assertion answers (from its clientDataJSON), or null when it cannot be read; verification checks it again. */
export function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | null {
  const data = response.response?.clientDataJSON;
  if (typeof data !== 'string' || data.length > 4000) return null;
  try {
    const challenge = JSON.parse(isoBase64URL.toUTF8String(data))?.challenge;
    return typeof challenge === 'string' && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

/**
 * Registration asks for a discoverable credential (residentKey 'required'): only such a passkey
 * can sign in on the first screen, where no account is named yet (docs/decisions.md "Sign-in with
 * a passkey alone"). Every FIDO2 authenticator and platform passkey can make one.
 */
export async function registrationOptions(rp: RelyingParty, rpName: string, user: { id: number; login: string; name: string }, existing: StoredPasskey[]) {
  const { generateRegistrationOptions } = await simpleWebAuthn();
  return generateRegistrationOptions({
    rpName, rpID: rp.rpID, userName: user.login, userDisplayName: user.name,
    userID: userHandleOf(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
}

/** The new credential, or null when the answer does not verify (wrong challenge, origin, RP ID, malformed). */
export async function verifiedRegistration(rp: RelyingParty, challenge: string, response: RegistrationResponseJSON) {
  try {
    const { verifyRegistrationResponse } = await simpleWebAuthn();
    const result = await verifyRegistrationResponse({ response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID, requireUserVerification: false });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return { credentialId: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [] };
  } catch {
    return null;
  }
}

export async function authenticationOptions(rp: RelyingParty, passkeys: StoredPasskey[]) {
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  return generateAuthenticationOptions({
    rpID: rp.rpID, userVerification: 'preferred',
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p) })),
  });
}

/**
 * Options of a sign-in with a passkey alone: no account is named (allowCredentials empty), so the
 * browser offers the discoverable credentials it holds for this RP ID. User verification is
 * required: the passkey then stands for both factors (something held, and the PIN or biometric
 * that unlocked it).
 */
export async function discoverableAuthenticationOptions(rp: RelyingParty) {
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  return generateAuthenticationOptions({ rpID: rp.rpID, userVerification: 'required', allowCredentials: [] });
}

/**
 * The passkey's new signature counter, or null when the assertion does not verify (another
 * origin or RP ID, another challenge, a bad signature, a counter gone back, no user verification
 * where `requireUserVerification`).
 */
export async function verifiedAssertion(rp: RelyingParty, challenge: string, response: AuthenticationResponseJSON, passkey: StoredPasskey, requireUserVerification = false): Promise<number | null> {
  try {
    const { verifyAuthenticationResponse } = await simpleWebAuthn();
    const result = await verifyAuthenticationResponse({
      response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID, requireUserVerification,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: Number(passkey.counter), transports: transportsOf(passkey) },
    });
    return result.verified ? result.authenticationInfo.newCounter : null;
  } catch {
    return null;
  }
}
