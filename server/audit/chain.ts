/**
 * The chain's arithmetic: an entry's canonical form and its SHA-256. The canonical form is JSON
 * with object keys sorted at every depth, so jsonb's own key order (and any column order) never
 * changes a hash; timestamps are ISO strings with milliseconds, as JavaScript writes them.
 */
import { createHash } from 'node:crypto';

/** The first entry's previous hash. */
export const GENESIS_HASH = '0'.repeat(64);

/** Every column of audit_entry the hash covers (all but id and hash itself). */
export interface ChainedFields {
  seq: number;
  at: string;
  actorKind: 'user' | 'integration' | 'system';
  userId: number | null;
  role: string | null;
  keyId: number | null;
  accountId: number | null;
  job: string | null;
  actorLabel: string | null;
  address: string | null;
  session: string | null;
  resource: string;
  recordKey: string | null;
  action: string;
  changes: Record<string, unknown>;
  prevHash: string;
}

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj).filter((k) => obj[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function entryHash(fields: ChainedFields): string {
  return createHash('sha256').update(canonical(fields)).digest('hex');
}
