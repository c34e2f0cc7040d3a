/**
 * One scrape for the whole machine with WORKERS (docs/decisions.md "Metrics (issue 33)"): the
 * primary asks every worker for its metrics over node:cluster's IPC channel and adds them up with
 * prom-client's `AggregatorRegistry.aggregate` (each metric by its `aggregator`, registry.ts).
 *
 * Not `AggregatorRegistry.clusterMetrics()` itself: it fails the whole scrape when one worker does
 * not answer within 5 s (a worker just replaced and still starting, one stuck at its database);
 * here the primary waits `timeoutMs` and answers with the workers that did, saying how many in
 * `portal_workers_reporting` beside `portal_workers`.
 *
 * The primary serves the machine's metrics on METRICS_PORT (server.ts). With METRICS_TOKEN alone
 * the scrape reaches a worker on the portal's port, which asks its primary for the machine's and
 * answers with them (`askPrimary`).
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import { createClusterMetrics, type Exposition, type PortalMetrics } from './registry.ts';

const COLLECT = 'portal:metrics:collect';
const COLLECTED = 'portal:metrics:collected';
const MACHINE = 'portal:metrics:machine';
const MACHINE_ANSWER = 'portal:metrics:machine-answer';

interface CollectMessage { type: typeof COLLECT; id: number }
interface CollectedMessage { type: typeof COLLECTED; id: number; metrics?: MetricJson[]; error?: string }
interface MachineMessage { type: typeof MACHINE; id: number }
interface MachineAnswer { type: typeof MACHINE_ANSWER; id: number; exposition?: Exposition; error?: string }

/** One process's metrics as prom-client hands them between processes. */
type MetricJson = Awaited<ReturnType<Registry['getMetricsAsJSON']>>[number];

const isMessage = <T extends { type: string }>(message: unknown, type: T['type']): message is T =>
  typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;

/** Longest wait of the primary for its workers' metrics (their database gauges wait 2 s at most). */
export const WORKER_ANSWER_MS = 3_000;

/**
 * In the primary: the machine's metrics, gathered from the workers on demand, and the answer to a
 * worker that asks for them (METRICS_TOKEN on the portal's port). Call once.
 */
export function machineMetrics(timeoutMs = WORKER_ANSWER_MS) {
  const own = createClusterMetrics();
  let nextId = 0;
  const pending = new Map<number, (worker: Worker, message: CollectedMessage) => void>();

  const gather = async (): Promise<Exposition> => {
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w?.isConnected()));
    const id = nextId++;
    const answers: MetricJson[][] = [];
    await new Promise<void>((resolve) => {
      let waiting = workers.length;
      const timer = setTimeout(finish, timeoutMs);
      function finish() {
        clearTimeout(timer);
        pending.delete(id);
        resolve();
      }
      if (waiting === 0) return finish();
      pending.set(id, (_worker, message) => {
        if (message.metrics) answers.push(message.metrics);
        if (--waiting === 0) finish();
      });
      for (const worker of workers) {
        try {
          worker.send({ type: COLLECT, id } satisfies CollectMessage);
        } catch {
          if (--waiting === 0) finish(); // disconnected in between
        }
      }
    });
    own.workers.set(Object.keys(cluster.workers ?? {}).length);
    own.reporting.set(answers.length);
    const registry = AggregatorRegistry.aggregate([...answers, await own.registry.getMetricsAsJSON()]);
    return { contentType: registry.contentType, body: await registry.metrics() };
  };

  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isMessage<CollectedMessage>(message, COLLECTED)) {
      pending.get(message.id)?.(worker, message);
    } else if (isMessage<MachineMessage>(message, MACHINE)) {
      gather().then(
        (exposition) => worker.send({ type: MACHINE_ANSWER, id: message.id, exposition } satisfies MachineAnswer),
        (error) => worker.send({ type: MACHINE_ANSWER, id: message.id, error: String(error) } satisfies MachineAnswer),
      );
    }
  });
  return { gather };
}

/** In a worker: answers the primary's requests with this process's metrics. Call once, early. */
export function answerPrimary(metrics: PortalMetrics): void {
  process.on('message', (message: unknown) => {
    if (!isMessage<CollectMessage>(message, COLLECT)) return;
    metrics.registry.getMetricsAsJSON().then(
      (json) => process.send?.({ type: COLLECTED, id: message.id, metrics: json } satisfies CollectedMessage),
      (error) => process.send?.({ type: COLLECTED, id: message.id, error: String(error) } satisfies CollectedMessage),
    );
  });
}

/** In a worker: the machine's metrics, from its primary (within `timeoutMs`, else rejected). */
export function askPrimary(timeoutMs = WORKER_ANSWER_MS + 2_000): () => Promise<Exposition> {
  let nextId = 0;
  const pending = new Map<number, (answer: MachineAnswer) => void>();
  process.on('message', (message: unknown) => {
    if (isMessage<MachineAnswer>(message, MACHINE_ANSWER)) pending.get(message.id)?.(message);
  });
  return () => new Promise<Exposition>((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`the primary did not answer with the machine's metrics within ${timeoutMs} ms`));
    }, timeoutMs);
    pending.set(id, (answer) => {
      clearTimeout(timer);
      pending.delete(id);
      if (answer.exposition) resolve(answer.exposition);
      else reject(new Error(answer.error ?? 'no metrics'));
    });
    process.send!({ type: MACHINE, id } satisfies MachineMessage);
  });
}
