/**
 * Failed key calls per client address (issue 34): a wrong, expired or revoked key counts like a
 * failed sign-in, under the sign-in's limit of screens/app.json (`security.rateLimit.signIn`, read
 * at every call); past it, key calls from that address get 429 until the window has passed, even
 * with a good key — a guesser learns nothing. Kept in this process's memory, like the sign-in's
 * per-address limit (server/rate-limit.ts, where the same trade-off is explained): the key's
 * 178 random bits, not this counter, are what make guessing hopeless; it only keeps a noisy
 * client from hammering the database with lookups.
 */
export interface Limit { max: number; windowMinutes: number }

const MAX_ADDRESSES = 10_000;

export class FailedKeys {
  private readonly byAddress = new Map<string, { count: number; since: number }>();

  /** Minutes until the address may try again, or 0 when it may now. */
  blockedFor(address: string, limit: Limit, now = Date.now()): number {
    const entry = this.byAddress.get(address);
    if (!entry) return 0;
    const windowMs = limit.windowMinutes * 60_000;
    if (now - entry.since >= windowMs) {
      this.byAddress.delete(address);
      return 0;
    }
    return entry.count >= limit.max ? Math.max(1, Math.ceil((entry.since + windowMs - now) / 60_000)) : 0;
  }

  record(address: string, limit: Limit, now = Date.now()): void {
    const entry = this.byAddress.get(address);
    if (entry && now - entry.since < limit.windowMinutes * 60_000) {
      entry.count++;
      return;
    }
    this.byAddress.delete(address);
    if (this.byAddress.size >= MAX_ADDRESSES) this.byAddress.delete(this.byAddress.keys().next().value!);
    this.byAddress.set(address, { count: 1, since: now });
  }
}
