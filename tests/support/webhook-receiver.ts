/**
 * A real HTTP receiver of webhooks for the tests (node:http on 127.0.0.1): it keeps every request
 * (path, headers, body, arrival), and answers as the test says per path (a status, a Retry-After,
 * a redirect), 200 by default.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, any> };
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string };

export interface Receiver {
  url(path: string): string;
  received: Received[];
  at(path: string): Received[];
  /** How to answer the next requests to a path: a list used up one by one, then the last one for ever. */
  answer(path: string, answers: Answer[]): void;
  /** From now on requests are taken in whole and their answers held until release() (a sender seen in the middle of a delivery). */
  hold(): void;
  release(): void;
  /** Requests whose answer is held now. */
  held(): number;
  /** Waits until `count` requests reached the path (polled; the test's own timeout bounds it). */
  waitFor(path: string, count: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, Answer[]>();
  let holding = false;
  const waiting: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      let json: Received['json'];
      try {
        json = JSON.parse(body);
      } catch {
        json = { type: '', timestamp: '', data: {} };
      }
      received.push({ path, headers: request.headers, body, json, at: Date.now() });
      const list = answers.get(path) ?? [];
      const answer = (list.length > 1 ? list.shift() : list[0]) ?? { status: 200 };
      const reply = () => {
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body ?? 'ok');
      };
      if (holding) waiting.push(reply);
      else reply();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    at,
    answer: (path, list) => answers.set(path, [...list]),
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const reply of waiting.splice(0)) reply();
    },
    held: () => waiting.length,
    async waitFor(path, count) {
      while (at(path).length < count) await new Promise((r) => setTimeout(r, 50));
      return at(path);
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
