/**
 * Throughput under concurrency: N clients, each sending its next request as soon as the last one
 * is answered, for a fixed time; the same for the SQL those requests run, straight on PostgreSQL
 * with N clients. Signed calls get a fresh nonce and signature per request, as the browser sends
 * them (a replayed nonce would be refused).
 */
import http from 'node:http';
import pg from 'pg';
import { makeNonce, NONCE_HEADER, SIGNATURE_HEADER, signBody } from '../../runtime/core/signing.ts';
import type { CapturedQuery } from './sql.ts';

export interface LoadResult {
  clients: number;
  requests: number;
  errors: number;
  /** Errors by status (or error code). */
  errorKinds: Record<string, number>;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
}

const rank = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;

/** Runs `once` from `clients` loops for `ms`; `once` resolves to an error label or null. */
export async function drive(clients: number, ms: number, once: () => Promise<string | null>): Promise<LoadResult> {
  const times: number[] = [];
  const errorKinds: Record<string, number> = {};
  const start = performance.now();
  const end = start + ms;
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const error = await once().catch((e: any) => String(e?.code ?? e?.message ?? e));
      times.push(performance.now() - t);
      if (error) errorKinds[error] = (errorKinds[error] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: clients }, loop));
  const elapsed = performance.now() - start;
  const sorted = times.sort((a, b) => a - b);
  const errors = Object.values(errorKinds).reduce((a, b) => a + b, 0);
  return { clients, requests: sorted.length, errors, errorKinds, perSecond: (sorted.length / elapsed) * 1000, p50: rank(sorted, 50), p95: rank(sorted, 95), p99: rank(sorted, 99) };
}

/** A signed POST to the server over a keep-alive agent of `sockets` connections: null on 200. */
export function signedPoster(baseUrl: string, preConfigName: string, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const url = new URL(baseUrl);
  const post = (path: string, body: unknown, token: string) => new Promise<{ status: number; text: string }>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const nonce = makeNonce();
    const req = http.request({
      host: url.hostname, port: url.port, path: `/api${path}`, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authorization: `Bearer ${token}`, [NONCE_HEADER]: nonce, [SIGNATURE_HEADER]: signBody(preConfigName, nonce, payload) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
  return {
    post,
    /** One call for drive(): the answer parsed, as the browser would. */
    call: (path: string, body: unknown, token: string) => async () => {
      const res = await post(path, body, token);
      if (res.status !== 200) return String(res.status);
      JSON.parse(res.text);
      return null;
    },
    close: () => agent.destroy(),
  };
}

/**
 * Connections of the direct SQL clients at most: the database allows 100 in all (max_connections),
 * shared with the server's pool and whatever else runs; more clients share them.
 */
export const SQL_CONNECTIONS_MAX = 50;

/** The same SQL with `clients` clients, each on its own connection up to SQL_CONNECTIONS_MAX. */
export async function driveSql(databaseUrl: string, schema: string, queries: readonly CapturedQuery[], clients: number, ms: number): Promise<LoadResult> {
  const connections = Math.min(clients, SQL_CONNECTIONS_MAX);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections, options: `-c TimeZone=Europe/Warsaw -c jit=off -c search_path=${schema}` });
  pool.on('error', () => undefined);
  try {
    // open every connection before the clock starts, as the server's pool is warm too
    const opened = await Promise.all(Array.from({ length: connections }, () => pool.connect()));
    opened.forEach((c) => c.release());
    return await drive(clients, ms, async () => {
      const client = await pool.connect();
      try {
        for (const q of queries) await client.query(q.sql, [...q.parameters]);
      } finally {
        client.release();
      }
      return null;
    });
  } finally {
    await pool.end();
  }
}
