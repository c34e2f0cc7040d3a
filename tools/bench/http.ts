/**
 * The bench talks to the real server over HTTP, as the browser does: signed POSTs (runtime/core/
 * signing.ts), a bearer token from a real sign-in, keep-alive connections, answers compressed
 * (`accept-encoding: br, gzip`, as a browser asks) and decompressed and parsed here.
 *
 * Node's own http client rather than fetch: fetch (undici's WHATWG layer) spent ~3 ms of the
 * bench's own CPU per call on this machine, more than the server's whole answer to a table block,
 * and the bench's client shares the machine's two cores with the server it measures.
 */
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { makeNonce, NONCE_HEADER, SIGNATURE_HEADER, signBody } from '../../runtime/core/signing.ts';

export interface Api {
  post<T = any>(path: string, body: unknown, token?: string): Promise<T>;
  get<T = any>(path: string, token?: string): Promise<T>;
  signIn(account: { username: string; password: string; role: string }): Promise<string>;
}

export function apiClient(baseUrl: string, preConfigName: string): Api {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(baseUrl);
  const send = (method: 'GET' | 'POST', path: string, headers: Record<string, string | number>, payload?: string) =>
    new Promise<{ status: number; body: Buffer }>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: `/api${path}`, method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body = encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw;
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });

  async function call<T>(method: 'GET' | 'POST', path: string, body: unknown, token?: string): Promise<T> {
    const headers: Record<string, string | number> = { 'accept-encoding': 'br, gzip' };
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (method === 'POST') {
      payload = JSON.stringify(body ?? {});
      const nonce = makeNonce();
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(payload);
      headers[NONCE_HEADER] = nonce;
      headers[SIGNATURE_HEADER] = signBody(preConfigName, nonce, payload);
    }
    const res = await send(method, path, headers, payload);
    const text = res.body.toString('utf8');
    if (res.status < 200 || res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
  return {
    post: (path, body, token) => call('POST', path, body, token),
    get: (path, token) => call('GET', path, undefined, token),
    async signIn(account) {
      const res = await call<{ id_token: string }>('POST', '/user/auth', account);
      return res.id_token;
    },
  };
}
