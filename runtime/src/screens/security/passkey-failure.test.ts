import { describe, expect, it } from 'vitest';
import { passkeyFailureKey } from './passkey-failure';

const domError = (name: string) => Object.assign(new Error('x'), { name });

describe('why adding a passkey failed', () => {
  it('says the browser stopped it when the person cancelled or the time ran out', () => {
    expect(passkeyFailureKey(domError('NotAllowedError'))).toBe('passkeys.browserStopped');
    expect(passkeyFailureKey({ name: 'AbortError', code: 'ERROR_CEREMONY_ABORTED' })).toBe('passkeys.browserStopped');
  });
  it('says the key is already added when the authenticator holds a credential of this account', () => {
    expect(passkeyFailureKey({ name: 'InvalidStateError', code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' })).toBe('passkeys.alreadyAdded');
    expect(passkeyFailureKey({ name: 'WebAuthnError', code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY', cause: domError('InvalidStateError') })).toBe('passkeys.alreadyAdded');
  });
  it('says there is no support when the device or the browser cannot make one', () => {
    expect(passkeyFailureKey(domError('NotSupportedError'))).toBe('passkeys.notSupported');
    expect(passkeyFailureKey({ name: 'WebAuthnError', code: 'ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEY_ALG' })).toBe('passkeys.notSupported');
  });
  it('keeps the general text for anything else', () => {
    expect(passkeyFailureKey(new TypeError('boom'))).toBe('passkeys.cancelled');
    expect(passkeyFailureKey(undefined)).toBe('passkeys.cancelled');
  });
});
