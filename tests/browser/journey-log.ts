/**
 * What a journey's pages did, written beside a failing journey's other artifacts as
 * `journey-log.txt` and printed by .ci/run under the failure: the pages' navigations, every answer
 * they got (with its status and how long it took), requests never answered, console messages and
 * uncaught exceptions, each with its time since the journey started.
 *
 * Why: a journey that fails now and then under CI's load is diagnosed from CI's log alone, as the
 * traces and screenshots stay on the machine CI ran on; the call log says which step waited, not
 * what the page was doing meanwhile (a double-click that opened nothing, 7 December 2026: was the
 * table being read again? did the dialog ask for its record?). The traces of a kept context record
 * no network either (kept-context.ts). Kept in memory, a few hundred lines a journey, written only
 * when the journey failed.
 */
import { writeFile } from 'node:fs/promises';
import { stripVTControlCharacters } from 'node:util';
import type { Browser, BrowserContext, Page, Request } from '@playwright/test';

/** The longest a line's text may be: an answer's address or a console message can be long. */
const LINE_CHARS = 240;
/** The most lines kept: the oldest go first, the end of a journey is what explains its failure. */
const MAX_LINES = 2_000;

export class JourneyLog {
  readonly #started: number;
  readonly #now: () => number;
  readonly #lines: Line[] = [];
  readonly #waiting = new Map<Request, { at: number; tab: string }>();
  #tabs = 0;
  #stopped = false;

  /** `now`: the wall clock's milliseconds, so that the reporter can put the journey's steps among the lines */
  constructor(now: () => number = () => Date.now()) {
    this.#now = now;
    this.#started = now();
  }

  /** Records what this page does from now on, under a tab number of its own. */
  watch(page: Page): void {
    const tab = `tab ${++this.#tabs}`;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) this.add(tab, `at ${shortUrl(frame.url())}`);
    });
    page.on('request', (request) => {
      if (isLogged(request.url())) this.#waiting.set(request, { at: this.#now(), tab });
    });
    page.on('response', (response) => {
      const request = response.request();
      const asked = this.#waiting.get(request);
      if (!asked) return;
      this.#waiting.delete(request);
      const ms = Math.round(this.#now() - asked.at);
      const asset = ASSET.exec(request.url());
      if (asset && response.ok()) this.#push({ at: this.#now(), text: `${tab}  `, asset: { name: asset[1], ms } });
      else this.add(tab, `${request.method()} ${shortUrl(request.url())} → ${response.status()} in ${ms} ms`);
    });
    page.on('requestfailed', (request) => {
      if (!this.#waiting.delete(request)) return;
      this.add(tab, `${request.method()} ${shortUrl(request.url())} failed: ${request.failure()?.errorText ?? 'no reason given'}`);
    });
    page.on('console', (message) => this.add(tab, `console.${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => this.add(tab, `uncaught ${error.message}`));
    page.on('close', () => this.add(tab, 'closed'));
  }

  /** A line at the current time, unless the journey has ended. */
  add(tab: string, text: string): void {
    this.#push({ at: this.#now(), text: `${tab}  ${oneLine(text)}` });
  }

  #push(line: Line): void {
    if (this.#stopped) return;
    // the runtime's files come in bursts of a dozen: one line a burst keeps the log's end readable
    const last = this.#lines.at(-1);
    if (line.asset && last?.assets && last.text === line.text && line.at - last.at < ASSET_BURST_MS) {
      last.assets.push(line.asset);
      last.at = line.at;
      return;
    }
    this.#lines.push(line.asset ? { at: line.at, text: line.text, assets: [line.asset] } : line);
    if (this.#lines.length > MAX_LINES) this.#lines.splice(0, this.#lines.length - MAX_LINES);
  }

  /** Ends the record: what the pages do after the journey (the kept context's tabs live on) is not its. */
  stop(): void {
    this.add('journey', 'ended');
    this.#stopped = true;
  }

  /** The record as text: the lines in order, then the requests still unanswered when it ended. */
  text(): string {
    const seconds = (at: number) => `${((at - this.#started) / 1000).toFixed(2).padStart(7)} s`;
    const lines = this.#lines.map((line) => `${seconds(line.at)}  ${line.assets ? line.text + oneLine(assetsText(line.assets)) : line.text}`);
    const waiting = [...this.#waiting].map(([request, asked]) => `${seconds(asked.at)}  ${asked.tab}  ${request.method()} ${shortUrl(request.url())} → never answered`);
    const began = `${BEGAN}${new Date(this.#started).toISOString()}`;
    return [began, ...lines, ...(waiting.length ? [UNANSWERED, ...waiting] : [])].join('\n') + '\n';
  }

  async write(path: string): Promise<void> {
    await writeFile(path, this.text());
  }
}

/**
 * Calls `watch` for every page of the journey: the context's, its popups, and those of contexts the
 * journey opens itself (a second user beside the first), whose `browser.newContext` is watched
 * until the returned function is called.
 */
export function watchJourneyPages(browser: Browser, context: BrowserContext, watch: (page: Page) => void): () => void {
  const watchContext = (ctx: BrowserContext) => {
    // a kept context's tabs are this journey's: the last journey's were closed as it was made clean
    ctx.pages().forEach(watch);
    ctx.on('page', watch);
  };
  watchContext(context);
  const newContext = browser.newContext;
  browser.newContext = async (...args: Parameters<typeof newContext>) => {
    const ctx = await newContext.apply(browser, args);
    watchContext(ctx);
    return ctx;
  };
  return () => {
    browser.newContext = newContext;
    // the context may be kept for the next journey (kept-context.ts): stop watching it for this one
    context.off('page', watch);
  };
}

interface Line {
  at: number;
  text: string;
  /** the runtime's files answered in one burst (`/assets/`, 2xx), shown on one line */
  assets?: Array<{ name: string; ms: number }>;
  asset?: { name: string; ms: number };
}

/** The runtime's content-hashed files; a burst is the files answered within this time of each other. */
const ASSET = /\/assets\/([^/?]+)/;
const ASSET_BURST_MS = 250;

/** "GET /assets/, 2 files → 2xx in 68–585 ms: Form.js, TableScreen.js", the names without their hashes. */
function assetsText(assets: Array<{ name: string; ms: number }>): string {
  const names = assets.map((a) => a.name.replace(/-[\w-]{8}(?=\.\w+$)/, ''));
  const ms = assets.map((a) => a.ms);
  const [min, max] = [Math.min(...ms), Math.max(...ms)];
  const files = assets.length === 1 ? '' : `, ${assets.length} files`;
  return `GET /assets/${files} → 2xx in ${min === max ? min : `${min}–${max}`} ms: ${names.join(', ')}`;
}

const BEGAN = 'journey began at ';
const UNANSWERED = 'unanswered when the journey ended:';

/** A step of the journey as Playwright's reporter has it (the parts used here). */
export interface JourneyStep {
  title: string;
  subtitle?: string;
  category: string;
  startTime: Date;
  duration: number;
  error?: { message?: string };
  steps: JourneyStep[];
}

/**
 * The log's text with the journey's steps put among its lines at their times ("Double click
 * locator(…)", "Expect toBeVisible", with how long each took and how it failed): what the test did
 * beside what the pages did. Playwright API calls and expectations are listed, not what they are
 * made of; test.step and hooks are looked into; fixtures are left out.
 */
export function withSteps(text: string, steps: JourneyStep[]): string {
  const lines = text.split('\n');
  if (!lines[0].startsWith(BEGAN)) return text;
  const began = Date.parse(lines[0].slice(BEGAN.length));
  const unansweredAt = lines.indexOf(UNANSWERED);
  const timed = (unansweredAt < 0 ? lines.slice(1) : lines.slice(1, unansweredAt)).filter(Boolean);
  const rest = unansweredAt < 0 ? [] : lines.slice(unansweredAt).filter(Boolean);
  const entries = timed.map((line) => ({ at: Number.parseFloat(line) * 1000, line }));
  const listed: JourneyStep[] = [];
  const walk = (step: JourneyStep) => {
    if (step.category === 'pw:api' || step.category === 'expect') listed.push(step);
    else if (step.category === 'test.step' || step.category === 'hook') {
      if (step.category === 'test.step') listed.push(step);
      step.steps.forEach(walk);
    }
  };
  steps.forEach(walk);
  for (const step of listed) {
    const at = step.startTime.getTime() - began;
    const failed = step.error?.message ? ` → failed: ${stripVTControlCharacters(step.error.message).split('\n')[0]}` : '';
    const name = [step.title, step.subtitle].filter(Boolean).join(' ');
    // a step is put before the pages' lines of the same moment: it is what caused them
    entries.push({ at: at - 0.001, line: `${`${(at / 1000).toFixed(2).padStart(7)} s`}  step  ${oneLine(`${name} (${step.duration} ms)${failed}`)}` });
  }
  entries.sort((a, b) => a.at - b.at);
  return [lines[0], ...entries.map((entry) => entry.line), ...rest].join('\n') + '\n';
}

/** Requests over the network; `data:` and `blob:` addresses are the page's own. */
const isLogged = (url: string) => url.startsWith('http');

/** Query parameters whose values are secrets (a password reset's token, a sign-in's code): shown as "…". */
const SECRET_PARAM = /token|secret|code|key|password|signature|nonce/i;

/** An address without its origin when it is the portal's, its secrets hidden, cut to a line's length. */
export function shortUrl(url: string): string {
  let short = url;
  try {
    const parsed = new URL(url);
    for (const name of [...parsed.searchParams.keys()]) if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, '…');
    short = parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost' ? `${parsed.pathname}${readable(parsed.search)}` : readable(parsed.href);
  } catch {
    // not an address: shown as it is
  }
  return short.length > LINE_CHARS / 2 ? `${short.slice(0, LINE_CHARS / 2)}…` : short;
}

/** An address's escapes decoded where they decode ("…" rather than "%E2%80%A6"). */
const readable = (escaped: string) => {
  try {
    return decodeURIComponent(escaped);
  } catch {
    return escaped;
  }
};

const oneLine = (text: string) => {
  // without the colours of Playwright's messages
  const line = stripVTControlCharacters(text).replace(/\s+/g, ' ').trim();
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)}…` : line;
};
