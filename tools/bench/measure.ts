/**
 * A measurement is one kind of API call (a block, a count, an export…), described by a small
 * object; the runner times it side by side with the SQL it runs. To add a section, write a
 * function returning more `Measurement`s (see orders.ts) and list it in index.ts.
 */
import type pg from 'pg';
import { accessPaths, replay, type SqlRecorder } from './sql.ts';
import { latency, timed, type Latency } from './stats.ts';

export interface Target {
  /** The API's p95 must stay under this many milliseconds. */
  p95Ms: number;
  /** The API's median may be at most this multiple of the same SQL run directly. */
  maxRatio?: number;
}

export interface Measurement {
  /** Heading the measurement is listed under. */
  section: string;
  name: string;
  target: Target;
  /** Prepares what the call needs (e.g. the cursor of the block before); not timed. */
  setup?(): Promise<void>;
  /** One call, as the browser makes it. */
  call(): Promise<unknown>;
  /** Throws when the answer is not what the measurement claims to measure (e.g. fewer than 30 rows). */
  check?(answer: any): void;
  /** Why, when the target is missed: printed in the report next to the figure. */
  whenMissed?: string;
  /** Fewer calls for a slow measurement (an export takes seconds); defaults to the run's. */
  repetitions?: number;
  warmup?: number;
  /** Which of the server's statements count as the call's SQL (default: reads of the v_… views). */
  capture?: RegExp;
  /** Replay the SQL inside BEGIN … COMMIT, as the server runs a write. */
  transactional?: boolean;
  /** Figures beside the latency (e.g. peak memory), read after the timed calls. */
  extras?(): Extra[];
}

/** A figure of a measurement other than its latency, with its own target where it has one. */
export interface Extra {
  label: string;
  value: string;
  target?: string;
  met?: boolean;
}

export interface Result {
  section: string;
  name: string;
  target: Target;
  api: Latency;
  db: Latency;
  /** API median / database median. */
  ratio: number;
  /** Which targets held: the p95 bound, and the ratio bound when there is one. */
  met: { p95: boolean; ratio?: boolean };
  /** The scans of the SQL's plans (indexes used). */
  paths: string[];
  whenMissed?: string;
  extras: Extra[];
}

export interface RunOptions {
  warmup: number;
  repetitions: number;
  recorder: SqlRecorder;
  direct: pg.Client;
  log: (m: string) => void;
}

export async function runMeasurement(m: Measurement, o: RunOptions): Promise<Result> {
  await m.setup?.();
  m.check?.(await m.call());
  const queries = await o.recorder.record(() => m.call(), m.capture);
  if (queries.length === 0) throw new Error(`${m.name}: the call ran no table query`);
  const paths = await accessPaths(o.direct, queries.filter((q) => /^select /i.test(q.sql)));
  for (let i = 0; i < (m.warmup ?? o.warmup); i++) {
    await m.call();
    await replay(o.direct, queries, m.transactional);
  }
  // Interleaved, so that both see the same moments of a shared machine.
  const api: number[] = [];
  const db: number[] = [];
  for (let i = 0; i < (m.repetitions ?? o.repetitions); i++) {
    api.push(await timed(() => m.call()));
    db.push(await timed(() => replay(o.direct, queries, m.transactional)));
  }
  const result: Result = {
    section: m.section, name: m.name, target: m.target, api: latency(api), db: latency(db), ratio: 0, met: { p95: false }, paths, whenMissed: m.whenMissed, extras: [],
  };
  result.ratio = result.api.median / result.db.median;
  result.met = { p95: result.api.p95 < m.target.p95Ms, ...(m.target.maxRatio !== undefined ? { ratio: result.ratio <= m.target.maxRatio } : {}) };
  result.extras = m.extras?.() ?? [];
  o.log(`${allMet(result) ? 'met    ' : 'MISSED '} ${m.section} / ${m.name}: API median ${result.api.median.toFixed(1)} ms, p95 ${result.api.p95.toFixed(1)} ms; SQL median ${result.db.median.toFixed(1)} ms, p95 ${result.db.p95.toFixed(1)} ms; ratio ${result.ratio.toFixed(2)}`);
  return result;
}

export const allMet = (r: Result) => r.met.p95 && r.met.ratio !== false && r.extras.every((e) => e.met !== false);
