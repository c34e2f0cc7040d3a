import { describe, expect, it } from 'vitest';
import { productionRefusals } from './production.ts';

describe('a production process', () => {
  const keys = { NODE_ENV: 'production', WEBHOOK_SECRET_KEY: 'a long random operator key', TOTP_SECRET_KEY: 'another long random key' };

  it('starts with both operator keys set', () => {
    expect(productionRefusals(keys)).toEqual([]);
  });

  it('refuses to start without the webhook key or the TOTP key, naming each', () => {
    expect(productionRefusals({ NODE_ENV: 'production' })).toEqual(['webhookSecretKeyMissing', 'totpSecretKeyMissing']);
    expect(productionRefusals({ ...keys, TOTP_SECRET_KEY: '' })).toEqual(['totpSecretKeyMissing']);
  });

  it('refuses the demo switch that lifts the required second factor', () => {
    expect(productionRefusals({ ...keys, SECOND_FACTOR_OPTIONAL: '1' })).toEqual(['secondFactorOptionalInProduction']);
  });

  it('outside production, development keys and the demo switch are allowed', () => {
    expect(productionRefusals({ SECOND_FACTOR_OPTIONAL: '1' })).toEqual([]);
  });
});
