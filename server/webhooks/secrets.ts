/**
 * Endpoint secrets (Standard Webhooks `whsec_<base64>`): made here, shown once, and kept encrypted,
 * because every delivery signs with them again (a hash would not do). The key is derived (HKDF-
 * SHA-256) from the operator's WEBHOOK_SECRET_KEY; without it a fixed development key is used and
 * the start-up log says so (docs/decisions.md "Webhooks (issue 35)"). The sealing itself is shared
 * (server/crypto/secret-box.ts; TOTP secrets use it under a key of their own).
 */
import { randomBytes } from 'node:crypto';
import { SecretBox as Box } from '../crypto/secret-box.ts';

export function newEndpointSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** The webhooks' box: the same derivation as before the move, so stored secrets still open. */
export class SecretBox extends Box {
  constructor(operatorSecret: string | undefined) {
    super(operatorSecret, {
      developmentKey: 'fleet-portal development webhook key: set WEBHOOK_SECRET_KEY in production',
      salt: 'fleet-portal webhooks',
      info: 'webhook-secret-encryption',
    });
  }
}
