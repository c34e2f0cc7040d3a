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

/**
 * Written as loops over strings rather than map/filter/join: an import makes a million entries, and
 * this was the largest part of their making (imports bench, CPU profile, 4 December 2026). The
 * output is the one the chain has always hashed (chain.test.ts compares it with the
 * first form on generated values): keys sorted, undefined members left out, other values as
 * JSON.stringify writes them.
 */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value !== 'object') return String(JSON.stringify(value));
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + canonical(value[i]);
    return `${out}]`;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  let out = '{';
  let first = true;
  for (const key of keys) {
    const member = obj[key];
    if (member === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${canonical(member)}`;
    first = false;
  }
  return `${out}}`;
}

/** The chained fields' names in canonical (sorted) order. */
const ENTRY_KEYS = (['seq', 'at', 'actorKind', 'userId', 'role', 'keyId', 'accountId', 'job', 'actorLabel', 'address', 'session',
  'resource', 'recordKey', 'action', 'changes', 'prevHash'] satisfies (keyof ChainedFields)[]).sort();

/**
 * An entry's canonical form, `canonical(fields)`, with its changes' canonical form given when the
 * caller has it already (the bulk writer stores that same text as the entry's jsonb): the changes,
 * the bulk of an entry, are then walked once, not twice.
 */
export function entryCanonical(fields: ChainedFields, changes: string = canonical(fields.changes)): string {
  let out = '{';
  for (const key of ENTRY_KEYS) {
    const value = fields[key];
    if (value === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${key === 'changes' ? changes : canonical(value)}`;
  }
  return `${out}}`;
}

export function entryHash(fields: ChainedFields, changes?: string): string {
  return hashOf(entryCanonical(fields, changes));
}

/** The SHA-256 of an entry's canonical form, as the chain stores it (hex). */
export function hashOf(canonicalText: string): string {
  return createHash('sha256').update(canonicalText).digest('hex');
}

/** The members that differ from one entry of a bulk write to the next (an import's records: the same author, resource and action). */
export type VaryingMember = 'seq' | 'at' | 'recordKey' | 'changes' | 'prevHash';
const VARYING: ReadonlySet<string> = new Set<VaryingMember>(['seq', 'at', 'recordKey', 'changes', 'prevHash']);

/**
 * `entryCanonical` for entries that share every member but the varying ones: the shared members'
 * text is made once, and each entry's is the shared text with its own five members put in (with
 * trail-entries.ts `recordChanges`, an import's entry is made in 8 µs rather than 15: docs/decisions.md
 * "An import's trail entries made without the members they share").
 */
export function entryCanonicalOf(shared: Omit<ChainedFields, VaryingMember>): (varying: Pick<ChainedFields, Exclude<VaryingMember, 'changes'>>, changes: string) => string {
  const texts: string[] = [];
  const slots: VaryingMember[] = [];
  let text = '{';
  let first = true;
  for (const key of ENTRY_KEYS) {
    const varying = VARYING.has(key);
    const value = varying ? null : shared[key as Exclude<keyof ChainedFields, VaryingMember>];
    if (value === undefined) continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    if (!varying) {
      text += canonical(value);
      continue;
    }
    texts.push(text);
    slots.push(key as VaryingMember);
    text = '';
  }
  const last = `${text}}`;
  return (varying, changes) => {
    let out = '';
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i];
      out += texts[i] + (slot === 'changes' ? changes : canonical(varying[slot]));
    }
    return out + last;
  };
}
