/** Latency statistics of one measurement: milliseconds, sorted copies, nearest-rank percentiles. */
export interface Latency {
  median: number;
  p95: number;
  n: number;
}

export function latency(samples: readonly number[]): Latency {
  if (samples.length === 0) throw new Error('no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  return { median: rank(50), p95: rank(95), n: sorted.length };
}

/** Milliseconds a call takes (high-resolution clock). */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}
