import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sessionAtom } from '../state/session';
import { store } from '../state/store';
import { askAhead } from './ahead';
import { api, configureSigning } from './client';

/** fetch answering by path (a list is answered in turn), each call's method and path kept. */
function serve(answers: Record<string, { status: number; body?: unknown }[]>) {
  const calls: string[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push(`${init.method ?? 'GET'} ${url}`);
    const list = answers[url] ?? [{ status: 404 }];
    const answer = list.length > 1 ? list.shift()! : list[0];
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

const signIn = (token: string) => store.set(sessionAtom, { token, user: { rola: 'USER' } as never });

describe('a GET asked ahead of its screen (issue 47)', () => {
  beforeEach(() => {
    signIn('first');
    configureSigning('portal');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    store.set(sessionAtom, null);
  });

  it('is taken by the screen’s own call: the server is asked once', async () => {
    const calls = serve({ '/api/car/single-car': [{ status: 200, body: { rejestr: 'WZ12345' } }] });
    askAhead('/car/single-car');
    await expect(api.get('/car/single-car')).resolves.toEqual({ rejestr: 'WZ12345' });
    expect(calls).toEqual(['GET /api/car/single-car']);
    // once: the next call asks again
    await api.get('/car/single-car');
    expect(calls).toHaveLength(2);
  });

  it('is not taken after a write, nor by another session', async () => {
    const calls = serve({ '/api/car/single-car': [{ status: 200, body: { licznik: 1 } }], '/api/counter': [{ status: 200, body: {} }] });
    askAhead('/car/single-car');
    await api.post('/counter', { licznik: 2 });
    await api.get('/car/single-car');
    expect(calls).toEqual(['GET /api/car/single-car', 'POST /api/counter', 'GET /api/car/single-car']);

    // asked for the first user; the second's screen asks for itself
    askAhead('/car/single-car');
    signIn('second');
    await api.get('/car/single-car');
    expect(calls.slice(3)).toEqual(['GET /api/car/single-car', 'GET /api/car/single-car']);
  });

  it('a refused ask leaves the screen its own call and its own error', async () => {
    const calls = serve({ '/api/car/single-car': [{ status: 403, body: { code: 'TERMS_NOT_ACCEPTED', detail: 'Zaakceptuj regulamin' } }, { status: 200, body: { rejestr: 'WZ12345' } }] });
    askAhead('/car/single-car');
    await expect(api.get('/car/single-car')).resolves.toEqual({ rejestr: 'WZ12345' });
    expect(calls).toEqual(['GET /api/car/single-car', 'GET /api/car/single-car']);
  });

  it('a screen gone before the answer came gets its abort, as from its own call', async () => {
    serve({ '/api/car/single-car': [{ status: 200, body: {} }] });
    askAhead('/car/single-car');
    const controller = new AbortController();
    const answer = api.get('/car/single-car', { signal: controller.signal });
    controller.abort();
    await expect(answer).rejects.toMatchObject({ name: 'AbortError' });
  });
});
