/**
 * The metrics' own port (METRICS_PORT, on METRICS_HOST): `GET /metrics` and nothing else, with the
 * bearer token when METRICS_TOKEN is set too. A plain node:http server, not the portal's Fastify:
 * nothing of the portal (its routes, sessions, the database) is reachable through it, and it keeps
 * answering while the portal is overloaded. In a single process it serves that process's metrics;
 * with WORKERS the primary serves the machine's (cluster.ts).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_PATH, type Exposition } from './registry.ts';
import { tokenAccepted } from './settings.ts';

export interface MetricsServerOptions {
  port: number;
  host: string;
  token?: string;
  exposition: () => Promise<Exposition>;
  /** Where a failed exposition is told (the process's log); default console.error. */
  onError?: (error: unknown) => void;
}

export interface MetricsServer {
  /** The port it listens on (the one asked, or the one given for 0). */
  port: number;
  close(): Promise<void>;
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const onError = options.onError ?? ((error) => console.error('[metrics]', error));
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(request.method === 'HEAD' ? undefined : text);
    };
    if (path !== METRICS_PATH) return answer(404, 'Not Found\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method Not Allowed\n', { allow: 'GET, HEAD' });
    if (!tokenAccepted(request.headers.authorization, options.token)) {
      return answer(401, 'Unauthorized\n', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    options.exposition().then(
      (exposition) => {
        response.writeHead(200, { 'content-type': exposition.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : exposition.body);
      },
      (error) => {
        onError(error);
        answer(503, 'Metrics unavailable\n');
      },
    );
  });
  // a scrape is one short request: nothing is left waiting on a silent client
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
