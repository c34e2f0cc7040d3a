/**
 * The record of a journey's pages (journey-log.ts), against stand-ins for Playwright's page: what
 * a failing journey's log says, in order, with the requests it was still waiting for.
 */
import { EventEmitter } from 'node:events';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { JourneyLog, shortUrl, watchJourneyPages, withSteps, type JourneyStep } from './journey-log';

/** A page that emits what the test says, with the calls journey-log.ts makes. */
function fakePage() {
  const page = new EventEmitter() as EventEmitter & { mainFrame: () => object };
  const main = { url: () => 'http://127.0.0.1:3100/app/users' };
  page.mainFrame = () => main;
  return { page: page as unknown as Page, emit: (event: string, value?: unknown) => page.emit(event, value), main };
}

const request = (method: string, url: string, failure?: string) => ({ method: () => method, url: () => url, failure: () => (failure ? { errorText: failure } : null) });
const response = (req: ReturnType<typeof request>, status: number) => ({ request: () => req, status: () => status, ok: () => status >= 200 && status < 300 });

describe('a journey log', () => {
  it('lists what the pages did in order, each answer with its status and time, and the requests never answered', () => {
    let now = 1_000;
    const log = new JourneyLog(() => now);
    const { page, emit, main } = fakePage();
    log.watch(page);

    emit('framenavigated', main);
    emit('framenavigated', { url: () => 'http://127.0.0.1:3100/iframe' });
    const users = request('GET', 'http://127.0.0.1:3100/api/users?limit=50');
    emit('request', users);
    const record = request('GET', 'http://127.0.0.1:3100/api/users/17');
    emit('request', record);
    now = 1_250;
    emit('response', response(users, 200));
    const save = request('POST', 'http://127.0.0.1:3100/api/users');
    emit('request', save);
    now = 2_500;
    emit('requestfailed', request('GET', 'http://127.0.0.1:3100/never-asked'));
    emit('requestfailed', save);
    emit('console', { type: () => 'warning', text: () => 'a\n  warning' });
    emit('pageerror', new Error('boom'));
    emit('request', request('GET', 'data:image/png;base64,AAAA'));
    log.stop();
    now = 3_000;
    emit('console', { type: () => 'log', text: () => 'after the journey' });

    expect(log.text().split('\n')).toEqual([
      'journey began at 1970-01-01T00:00:01.000Z',
      '   0.00 s  tab 1  at /app/users',
      '   0.25 s  tab 1  GET /api/users?limit=50 → 200 in 250 ms',
      '   1.50 s  tab 1  POST /api/users failed: no reason given',
      '   1.50 s  tab 1  console.warning: a warning',
      '   1.50 s  tab 1  uncaught boom',
      '   1.50 s  journey  ended',
      'unanswered when the journey ended:',
      '   0.00 s  tab 1  GET /api/users/17 → never answered',
      '',
    ]);
  });

  it('names a failed request\'s reason and numbers each page it watches', () => {
    const log = new JourneyLog(() => 0);
    const first = fakePage();
    const second = fakePage();
    log.watch(first.page);
    log.watch(second.page);
    const asset = request('GET', 'http://127.0.0.1:3100/assets/index.js', 'net::ERR_ABORTED');
    second.emit('request', asset);
    second.emit('requestfailed', asset);
    first.emit('close');
    expect(log.text()).toBe('journey began at 1970-01-01T00:00:00.000Z\n   0.00 s  tab 2  GET /assets/index.js failed: net::ERR_ABORTED\n   0.00 s  tab 1  closed\n');
  });

  it('puts the runtime\'s files answered in one burst on one line, without their hashes', () => {
    let now = 0;
    const log = new JourneyLog(() => now);
    const { page, emit } = fakePage();
    log.watch(page);
    const files = ['Form-CCHbyN3S.js', 'TableScreen--b9ap8h6.js', 'esm-Dmh7P4o-.js', 'bootstrap-icons-DJdhg9lH.woff2?e348'].map((name) => request('GET', `http://127.0.0.1:3100/assets/${name}`));
    files.forEach((file) => emit('request', file));
    const missing = request('GET', 'http://127.0.0.1:3100/assets/gone-AAAAAAAA.js');
    emit('request', missing);
    now = 100;
    emit('response', response(files[0], 200));
    now = 300;
    emit('response', response(files[1], 200));
    emit('response', response(missing, 404));
    emit('response', response(files[2], 200));
    now = 1_000;
    emit('response', response(files[3], 200));
    expect(log.text().split('\n').slice(1)).toEqual([
      '   0.30 s  tab 1  GET /assets/, 2 files → 2xx in 100–300 ms: Form.js, TableScreen.js',
      '   0.30 s  tab 1  GET /assets/gone-AAAAAAAA.js → 404 in 300 ms',
      '   0.30 s  tab 1  GET /assets/ → 2xx in 300 ms: esm.js',
      '   1.00 s  tab 1  GET /assets/ → 2xx in 1000 ms: bootstrap-icons.woff2',
      '',
    ]);
  });

  it('keeps the last lines of a long journey', () => {
    const log = new JourneyLog(() => 0);
    for (let i = 0; i < 2_100; i++) log.add('tab 1', `line ${i}`);
    const lines = log.text().trim().split('\n').slice(1);
    expect(lines).toHaveLength(2_000);
    expect(lines[0]).toContain('line 100');
    expect(lines.at(-1)).toContain('line 2099');
  });

  it('shows other origins whole and cuts long addresses', () => {
    expect(shortUrl('https://example.org/hook?x=1')).toBe('https://example.org/hook?x=1');
    expect(shortUrl(`http://127.0.0.1:3100/api/x?q=${'a'.repeat(200)}`)).toMatch(/^\/api\/x\?q=a+…$/);
    expect(shortUrl(`http://127.0.0.1:3100/api/x?q=${'a'.repeat(200)}`)).toHaveLength(121);
    expect(shortUrl('http://127.0.0.1:3100/reset-password?token=abc123&lang=en')).toBe('/reset-password?token=…&lang=en');
  });
});

describe('a journey log with the journey\'s steps', () => {
  const step = (title: string, atMs: number, more: Partial<JourneyStep> = {}): JourneyStep => ({ title, category: 'pw:api', startTime: new Date(atMs), duration: 10, steps: [], ...more });

  it('puts the test\'s actions and expectations among the pages\' lines at their times, with how a step failed', () => {
    let now = 10_000;
    const log = new JourneyLog(() => now);
    const { page, emit } = fakePage();
    log.watch(page);
    const rows = request('POST', 'http://127.0.0.1:3100/api/users/table2');
    emit('request', rows);
    now = 10_500;
    emit('response', response(rows, 200));
    const record = request('GET', 'http://127.0.0.1:3100/api/users/17');
    now = 12_000;
    emit('request', record);
    log.stop();
    const steps: JourneyStep[] = [
      step('Before Hooks', 9_000, { category: 'hook', steps: [step('Navigate', 9_500, { subtitle: '/app/users' }), step('page', 9_600, { category: 'fixture' })] }),
      step('Double click', 12_000, { subtitle: "locator('.ag-row')", duration: 120 }),
      step('open the preview', 12_200, { category: 'test.step', duration: 3_000, steps: [step('Expect "toBeVisible"', 12_200, { category: 'expect', duration: 3_000, error: { message: 'Error: \u001b[2mexpect(\u001b[22mlocator\u001b[2m)\u001b[22m timed out\nCall log: …' } })] }),
    ];
    expect(withSteps(log.text(), steps).split('\n')).toEqual([
      'journey began at 1970-01-01T00:00:10.000Z',
      '  -0.50 s  step  Navigate /app/users (10 ms)',
      '   0.50 s  tab 1  POST /api/users/table2 → 200 in 500 ms',
      '   2.00 s  step  Double click locator(\'.ag-row\') (120 ms)',
      '   2.00 s  journey  ended',
      '   2.20 s  step  open the preview (3000 ms)',
      '   2.20 s  step  Expect "toBeVisible" (3000 ms) → failed: Error: expect(locator) timed out',
      'unanswered when the journey ended:',
      '   2.00 s  tab 1  GET /api/users/17 → never answered',
      '',
    ]);
  });

  it('leaves a text without its start as it is', () => {
    expect(withSteps('something else\n', [step('Click', 0)])).toBe('something else\n');
  });
});

describe('watching a journey\'s pages', () => {
  it('watches the context\'s pages, its new ones and those of contexts the journey opens, until it is told to stop', async () => {
    const context = new EventEmitter() as EventEmitter & { pages: () => Page[] };
    const open = fakePage();
    context.pages = () => [open.page];
    const other = new EventEmitter() as EventEmitter & { pages: () => Page[] };
    other.pages = () => [];
    const original = async () => other as unknown as BrowserContext;
    const browser = { newContext: original } as unknown as Browser;
    const watched: Page[] = [];

    const unwatch = watchJourneyPages(browser, context as unknown as BrowserContext, (page) => watched.push(page));
    const popup = fakePage();
    context.emit('page', popup.page);
    await browser.newContext();
    const second = fakePage();
    other.emit('page', second.page);
    unwatch();
    context.emit('page', fakePage().page);

    expect(watched).toEqual([open.page, popup.page, second.page]);
    expect(browser.newContext).toBe(original);
  });
});
