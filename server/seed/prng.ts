/**
 * Deterministic pseudo-random numbers, so that a seed with the same options always produces
 * the same data (tests and demos can rely on it; Math.random would not allow that).
 */

/** mulberry32: tiny, fast, good enough for demo data. Returns floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Rng {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

export function createRng(seed: number): Rng {
  const next = mulberry32(seed);
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)],
  };
}

/**
 * The same idea for the bulk rows generated inside SQL: a SQL expression giving a well-mixed
 * non-negative integer (< 2^31) for a row number `g` and a salt. Pure integer arithmetic, so it
 * yields identical values on every PostgreSQL version (unlike hashint4, which is internal).
 * Each salt gives an independent-looking stream; use `% n` to pick among n values.
 */
export function sqlHash(g: string, salt: number): string {
  const x1 = `((${g})::bigint * 1103515245 + ${(salt * 2654435 + 12345) % 2147483648}) % 2147483648`;
  const x2 = `((((${x1}) # ((${x1}) >> 13)) * 1664525 + 1013904223) % 2147483648)`;
  return `((${x2}) # ((${x2}) >> 16))`;
}
