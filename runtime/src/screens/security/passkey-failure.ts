/**
 * Why adding a passkey failed, as the person can act on it (issue 49): the browser's WebAuthn
 * errors (and @simplewebauthn/browser's codes for them) sorted into the few reasons that differ in
 * what to do next — the browser stopped it (cancelled, timed out, or no permission: try again),
 * this authenticator is already on the account (nothing to do), or no support here (another
 * device or browser). Anything else keeps the general "not added".
 */
import type { TextKey } from '../../../core/screen-texts/security';

interface Failure { name?: unknown; code?: unknown; cause?: unknown }

const named = (error: unknown): Failure => (error && typeof error === 'object' ? (error as Failure) : {});

export function passkeyFailureKey(error: unknown): TextKey {
  const e = named(error);
  const cause = named(e.cause);
  const names = [e.name, e.code, cause.name].filter((x): x is string => typeof x === 'string');
  const has = (...candidates: string[]) => names.some((n) => candidates.includes(n));
  if (has('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED')) return 'passkeys.alreadyAdded';
  if (has('NotSupportedError', 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEY_ALG', 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT',
    'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT', 'ERROR_INVALID_DOMAIN', 'ERROR_INVALID_RP_ID', 'SecurityError')) return 'passkeys.notSupported';
  if (has('NotAllowedError', 'AbortError', 'ERROR_CEREMONY_ABORTED', 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY')) return 'passkeys.browserStopped';
  return 'passkeys.cancelled';
}
