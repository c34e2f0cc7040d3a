/**
 * Which write operations of the OpenAPI document added a trail entry (issue 45): wraps the test
 * app's inject, matches each POST, PUT, PATCH and DELETE to its operation, and notes the operation
 * when its answer was a success and the chain's head moved meanwhile.
 */
import { sql } from 'kysely';
import type { TestApp } from './test-app.ts';

export interface WriteOperation { method: string; path: string; operationId: string; pattern: RegExp; params: number }

const WRITE_METHODS = ['post', 'put', 'patch', 'delete'];

/** The write operations of the app's OpenAPI document. */
export function writeOperations(t: TestApp): WriteOperation[] {
  const doc = t.app.swagger() as { paths: Record<string, Record<string, { operationId?: string }>> };
  const ops: WriteOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of WRITE_METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/?]+');
      ops.push({ method: method.toUpperCase(), path, operationId: op.operationId, pattern: new RegExp(`^${source}(\\?.*)?$`), params: (path.match(/\{/g) ?? []).length });
    }
  }
  return ops;
}

export function trackTrailWrites(t: TestApp) {
  const ops = writeOperations(t);
  const recorded = new Set<string>();
  const head = async () => Number((await sql<{ seq: string }>`select "seq" from audit_head where "id" = 1`.execute(t.app.db)).rows[0].seq);
  /** The operation of a request: of the paths that match, the one with the fewest parameters (a literal segment wins). */
  const operationOf = (method: string, url: string) => ops.filter((o) => o.method === method && o.pattern.test(url)).sort((a, b) => a.params - b.params)[0];
  const inject = t.app.inject.bind(t.app) as unknown as (opts: { method?: string; url?: string }) => Promise<{ statusCode: number }>;
  const tracked = async (opts: { method?: string; url?: string }) => {
    const op = operationOf(String(opts.method ?? 'GET').toUpperCase(), String(opts.url ?? ''));
    if (!op) return inject(opts);
    const before = await head();
    const res = await inject(opts);
    if (res.statusCode < 300 && (await head()) > before) recorded.add(op.operationId);
    return res;
  };
  Object.assign(t.app, { inject: tracked });
  return { ops, recorded };
}
