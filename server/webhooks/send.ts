/**
 * One HTTP attempt: POST the signed body to the checked address (address.ts), over a kept-alive
 * connection to that very address when one is free, redirects not followed (a 3xx is an answer
 * like any other, and fails), the whole exchange cut at the time-out, only the head of the
 * answer's body kept.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Target } from './address.ts';

export interface AttemptResult {
  status?: number;
  /** The answer's Retry-After, in seconds, when it gave one. */
  retryAfterSeconds?: number;
  /** The head of the answer's body. */
  body: string;
  /** Why there was no answer (time-out, refused connection …). */
  error?: string;
  durationMs: number;
}

/** Retry-After is seconds or an HTTP date. */
export function retryAfterSeconds(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Kept-alive connections, one agent per checked address (address.ts) and host name. */
const AGENTS_KEPT = 200;
const agents = new Map<string, http.Agent>();

/**
 * The agent whose sockets were all opened to `target`, the address checked for this attempt: a
 * kept-alive connection is reused only by a later attempt whose check found the same address, so
 * reusing it never reaches anything the check did not allow (a DNS answer that changed gets a new
 * agent and a new connection). TLS sessions are checked against the host name as always. Idle
 * sockets close after a few seconds; the least recently used agents beyond AGENTS_KEPT are closed.
 */
function agentFor(url: URL, target: Target, maxSockets: number): http.Agent {
  const key = `${url.protocol}//${url.hostname}:${url.port}@${target.address}`;
  let agent = agents.get(key);
  if (agent) {
    agents.delete(key); // most recently used last
  } else {
    const options = { keepAlive: true, keepAliveMsecs: 1_000, maxSockets, maxFreeSockets: maxSockets, timeout: 5_000, scheduling: 'lifo' as const };
    agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
    if (agents.size >= AGENTS_KEPT) {
      const [oldest] = agents.keys();
      agents.get(oldest)?.destroy();
      agents.delete(oldest);
    }
  }
  agents.set(key, agent);
  return agent;
}

/** Closes every kept-alive connection (the app's close). */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

export function postSigned(options: {
  url: URL;
  target: Target;
  headers: Record<string, string>;
  /** JSON text (a webhook), or bytes (an encrypted push message, whose headers name its type). */
  body: string | Buffer;
  timeoutMs: number;
  responseBytes: number;
  /** Connections kept to one address (the endpoint's concurrency). */
  maxSockets?: number;
}): Promise<AttemptResult> {
  const started = performance.now();
  const { url, target } = options;
  // the connection goes to the address checked, whatever the name resolves to by now
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    const done = (result: Omit<AttemptResult, 'durationMs'>) => resolve({ ...result, durationMs: Math.round(performance.now() - started) });
    const request = client.request(url, {
      method: 'POST',
      lookup: pinned,
      headers: { 'content-type': 'application/json', 'user-agent': 'fleet-portal-webhooks/1', ...options.headers, 'content-length': Buffer.byteLength(options.body) },
      signal: AbortSignal.timeout(options.timeoutMs),
      agent: agentFor(url, target, options.maxSockets ?? 8),
    }, (response) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      response.on('data', (chunk: Buffer) => {
        if (kept < options.responseBytes) {
          chunks.push(chunk.subarray(0, options.responseBytes - kept));
          kept += Math.min(chunk.length, options.responseBytes - kept);
        }
      });
      const finish = () => done({
        status: response.statusCode,
        retryAfterSeconds: retryAfterSeconds(response.headers['retry-after']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.on('end', finish);
      response.on('error', (error) => done({ status: response.statusCode, body: Buffer.concat(chunks).toString('utf8'), error: messageOf(error) }));
    });
    request.on('error', (error) => done({ body: '', error: messageOf(error) }));
    request.end(options.body);
  });
}

function messageOf(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'TIMEOUT';
  return error instanceof Error ? `${(error as NodeJS.ErrnoException).code ?? error.name}: ${error.message}` : String(error);
}
