/**
 * The bench talks to the real server over HTTP, as the browser does: signed POSTs (runtime/core/
 * signing.ts), a bearer token from a real sign-in, keep-alive connections (Node's fetch).
 */
import { makeNonce, NONCE_HEADER, SIGNATURE_HEADER, signBody } from '../../runtime/core/signing.ts';

export interface Api {
  post<T = any>(path: string, body: unknown, token?: string): Promise<T>;
  get<T = any>(path: string, token?: string): Promise<T>;
  signIn(account: { username: string; password: string; role: string }): Promise<string>;
}

export function apiClient(baseUrl: string, preConfigName: string): Api {
  async function call<T>(method: 'GET' | 'POST', path: string, body: unknown, token?: string): Promise<T> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (method === 'POST') {
      payload = JSON.stringify(body ?? {});
      const nonce = makeNonce();
      headers['content-type'] = 'application/json';
      headers[NONCE_HEADER] = nonce;
      headers[SIGNATURE_HEADER] = signBody(preConfigName, nonce, payload);
    }
    const res = await fetch(`${baseUrl}/api${path}`, { method, headers, body: payload });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
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
