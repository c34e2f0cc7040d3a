import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, configureSigning, RETRY_AFTER_CAP_MS, retryDelayMs } from './client';
import { store } from '../state/store';
import { userWritesAtom } from '../state/ui';

type Answer = { status: number; headers?: Record<string, string>; body?: unknown };

/** fetch answering the given answers in turn; each call's method and path is kept. */
function serve(...answers: Answer[]) {
  const calls: { method: string; url: string; at: number }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ method: init.method ?? 'GET', url, at: Date.now() });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  });
  return calls;
}

const busy = (retryAfter?: string): Answer => ({
  status: 503,
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  body: { statusCode: 503, code: 'OVERLOADED', detail: 'Serwer jest przeciążony' },
});

describe('the API client asks a busy server again once', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('repeats a GET answered 503 with Retry-After after that delay, and gives the page its answer', async () => {
    const calls = serve(busy('1'), { status: 200, body: { name: 'portal' } });
    const answer = api.get('/init/pre-config', { quiet: true });
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toEqual({ name: 'portal' });
    expect(calls.map((c) => c.url)).toEqual(['/api/init/pre-config', '/api/init/pre-config']);
    expect(calls[1].at - calls[0].at).toBe(1000);
  });

  it('asks only once more: a second refusal is the caller’s error', async () => {
    const calls = serve(busy('1'), busy('1'), { status: 200, body: {} });
    const answer = api.get('/ui/config', { quiet: true });
    const failed = expect(answer).rejects.toMatchObject({ status: 503, detail: 'Serwer jest przeciążony' });
    await vi.advanceTimersByTimeAsync(5_000);
    await failed;
    expect(calls).toHaveLength(2);
  });

  it('waits no longer than a few seconds, whatever the server asks', async () => {
    const calls = serve(busy('120'), { status: 200, body: [] });
    const answer = api.get('/tables/x');
    await vi.advanceTimersByTimeAsync(RETRY_AFTER_CAP_MS - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(answer).resolves.toEqual([]);
    expect(RETRY_AFTER_CAP_MS).toBeLessThanOrEqual(5_000);
  });

  it('does not repeat a 503 without Retry-After, another error, or a write', async () => {
    let calls = serve(busy(), { status: 200, body: {} });
    await expect(api.get('/a', { quiet: true })).rejects.toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);

    calls = serve({ status: 500, headers: { 'retry-after': '1' }, body: { detail: 'x' } }, { status: 200, body: {} });
    await expect(api.get('/b', { quiet: true })).rejects.toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);

    configureSigning('portal-cfm');
    calls = serve(busy('1'), { status: 200, body: {} });
    const write = api.post('/orders', { a: 1 }, { quiet: true });
    const failed = expect(write).rejects.toMatchObject({ status: 503 });
    await vi.advanceTimersByTimeAsync(5_000);
    await failed;
    expect(calls.map((c) => c.method)).toEqual(['POST']);
  });

  it('stops waiting when the caller gives up', async () => {
    const calls = serve(busy('2'), { status: 200, body: {} });
    const controller = new AbortController();
    const answer = api.get('/c', { signal: controller.signal });
    const aborted = expect(answer).rejects.toMatchObject({ name: 'AbortError' });
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    await aborted;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(calls).toHaveLength(1);
  });
});

describe('the delay a refusal asks for', () => {
  const answer = (status: number, retryAfter?: string) => ({ status, headers: new Headers(retryAfter === undefined ? {} : { 'retry-after': retryAfter }) });

  it('reads seconds and an HTTP date, and caps both', () => {
    const now = Date.parse('2026-05-04T10:00:00Z');
    expect(retryDelayMs(answer(503, '2'), now)).toBe(2_000);
    expect(retryDelayMs(answer(503, '0'), now)).toBe(0);
    expect(retryDelayMs(answer(503, 'Mon, 04 May 2026 10:00:01 GMT'), now)).toBe(1_000);
    expect(retryDelayMs(answer(503, 'Mon, 04 May 2026 09:00:00 GMT'), now)).toBe(0);
    expect(retryDelayMs(answer(503, '3600'), now)).toBe(RETRY_AFTER_CAP_MS);
  });

  it('is none for another status, no header or a header it cannot read', () => {
    expect(retryDelayMs(answer(429, '2'))).toBeNull();
    expect(retryDelayMs(answer(503))).toBeNull();
    expect(retryDelayMs(answer(503, 'soon'))).toBeNull();
  });
});

describe('the API client sends a submission\'s Idempotency-Key', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('puts the key on every attempt of the submission, each signed with a fresh nonce', async () => {
    configureSigning('portal-test');
    const seen: Headers[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(new Headers(init.headers));
      return new Response(JSON.stringify({ ok: true }), { status: 200 });
    });
    await api.post('/counter', { licznik: 5 }, { idempotencyKey: 'reading-0001-aaaa' });
    await api.post('/counter', { licznik: 5 }, { idempotencyKey: 'reading-0001-aaaa' });
    await api.post('/note', { tresc: 'x' });
    expect(seen.map((h) => h.get('idempotency-key'))).toEqual(['reading-0001-aaaa', 'reading-0001-aaaa', null]);
    expect(seen[0].get('x-nonce')).not.toBe(seen[1].get('x-nonce'));
  });
});

describe('the API client counts the user\'s own changes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('counts a POST, PUT or DELETE that succeeded, not a POST that only reads, a GET, a refusal or the page\'s own poll', async () => {
    configureSigning('portal-test');
    serve({ status: 200, body: { rows: [], lastRow: 0 } });
    const writes = () => store.get(userWritesAtom);
    const before = writes();
    await api.post('/car/table2', { startRow: 0, endRow: 50 }, { reads: true });
    await api.post('/reports/vehicle-cost/run', {}, { reads: true });
    await api.get('/car/single-car');
    await api.post('/push/subscriptions', {}, { background: true });
    expect(writes()).toBe(before);
    await api.post('/note', { tresc: 'x' });
    await api.put('/counter', { licznik: 5 });
    await api.delete('/user-table-filter?id=3');
    expect(writes()).toBe(before + 3);
    serve({ status: 400, body: { detail: 'Błąd' } });
    await expect(api.post('/note', {}, { quiet: true })).rejects.toBeInstanceOf(ApiError);
    await expect(api.delete('/push/subscriptions/4', { quiet: true })).rejects.toBeInstanceOf(ApiError);
    expect(writes()).toBe(before + 3);
  });
});
