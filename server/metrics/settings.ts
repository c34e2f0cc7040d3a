/**
 * Where and to whom `GET /metrics` is served (docs/deployment.md "Metrics"; why: docs/decisions.md
 * "Metrics (issue 33)"):
 *
 * | METRICS_PORT | METRICS_TOKEN | served                                                         |
 * |--------------|---------------|----------------------------------------------------------------|
 * | —            | —             | nowhere: GET /metrics is a 404 like any unknown path            |
 * | set          | —             | on that port (METRICS_HOST, 127.0.0.1 by default), to anyone reaching it |
 * | set          | set           | on that port, with `Authorization: Bearer <METRICS_TOKEN>`      |
 * | —            | set           | on the portal's own port, with the bearer token                 |
 *
 * With a port, the portal's own port never serves metrics: the load balancer cannot forward them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export interface MetricsSettings {
  /** The metrics' own port; undefined: served on the portal's port (then the token is required). */
  port?: number;
  /** The interface of the metrics port. */
  host: string;
  /** The bearer token a scrape must carry; undefined: none asked (only with a port of its own). */
  token?: string;
}

/** A token shorter than this is refused at start-up: it could be guessed. */
export const MIN_TOKEN_LENGTH = 16;

export class MetricsSettingError extends Error {}

/** The settings of the environment; undefined when neither METRICS_PORT nor METRICS_TOKEN is set (no metrics anywhere). */
export function metricsSettings(env: Record<string, string | undefined>): MetricsSettings | undefined {
  const rawPort = env.METRICS_PORT?.trim();
  const token = env.METRICS_TOKEN;
  if (!rawPort && !token) return undefined;
  let port: number | undefined;
  if (rawPort) {
    port = Number(rawPort);
    if (!Number.isInteger(port) || port < 1 || port > 65_535) throw new MetricsSettingError(`METRICS_PORT must be a port number (1–65535), not "${rawPort}"`);
    if (port === Number(env.PORT || 3000)) throw new MetricsSettingError(`METRICS_PORT must differ from PORT (${port}): the portal's port never serves metrics when a port of their own is given`);
  }
  if (token !== undefined && token !== '') {
    if (token.length < MIN_TOKEN_LENGTH || /\s/.test(token)) {
      throw new MetricsSettingError(`METRICS_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters without spaces (e.g. openssl rand -hex 32)`);
    }
  }
  return { port, host: env.METRICS_HOST?.trim() || '127.0.0.1', token: token || undefined };
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Whether an Authorization header carries the token (`Bearer <token>`), compared in constant time.
 * No token configured: any caller may read.
 */
export function tokenAccepted(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined) return true;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return m !== null && timingSafeEqual(digest(m[1]), digest(token));
}
