/**
 * The request log (issue 33, server/plugins/request-log.ts): one JSON line per request with its id
 * (the load balancer's X-Request-Id when well formed, else a new one, answered in the header and
 * in every error body), the route's pattern, method, status, duration, the session's user and role
 * and the client variant; no secret anywhere in the output, whatever the requests carried; a job's
 * line names the job and the request that queued it (server/jobs/job-log.ts).
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every byte the app's logger writes, as `npm start` would write it to standard output. */
class Captured extends Writable {
  text = '';
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.text += chunk.toString();
    done();
  }
  lines(): Record<string, any>[] {
    return this.text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  }
  /** The lines of one request (by its id). */
  of(requestId: string) {
    return this.lines().filter((line) => line.requestId === requestId);
  }
}

describe('the request log', () => {
  let t: TestApp;
  const log = new Captured();
  let manager: string;

  beforeAll(async () => {
    // the worker runs (the job's line); no mail server is configured, so an e-mail job ends waiting for one
    t = await startTestApp({ logStream: log, notifications: { worker: true, pollingIntervalSeconds: 0.5 } });
    manager = await t.signIn('manager');
  }, 120_000);
  afterAll(async () => t?.close());

  describe('the request id', () => {
    it('is taken from the load balancer\'s X-Request-Id, answered in the header and logged', async () => {
      const res = await t.call('GET', '/api/health', { headers: { 'x-request-id': 'lb-7f3a9c21.1' } });
      expect(res.headers['x-request-id']).toBe('lb-7f3a9c21.1');
      expect(log.of('lb-7f3a9c21.1')).toHaveLength(1);
    });

    it('is made when the header is missing, a different one for each request', async () => {
      const first = (await t.call('GET', '/api/health')).headers['x-request-id'] as string;
      const second = (await t.call('GET', '/api/health')).headers['x-request-id'] as string;
      expect(first).toMatch(UUID);
      expect(second).toMatch(UUID);
      expect(second).not.toBe(first);
      expect(log.of(first)).toHaveLength(1);
    });

    it('replaces a hostile header (too long, a newline, a quote) instead of echoing or logging it', async () => {
      for (const hostile of ['a'.repeat(129), 'abc\nforged-line', 'abc"},{"x":"y', 'two words']) {
        const res = await t.call('GET', '/api/health', { headers: { 'x-request-id': hostile } });
        expect(res.headers['x-request-id'], JSON.stringify(hostile)).toMatch(UUID);
        expect(log.of(res.headers['x-request-id'] as string)).toHaveLength(1);
      }
      expect(log.text).not.toContain('forged-line');
      expect(log.text).not.toContain('a'.repeat(129));
      // 128 characters is still an id
      const longest = 'b'.repeat(128);
      expect((await t.call('GET', '/api/health', { headers: { 'x-request-id': longest } })).headers['x-request-id']).toBe(longest);
    });
  });

  describe('one line per request', () => {
    it('names the route pattern (not the URL), the method, status, duration, the user and role, and the variant', async () => {
      const res = await t.call('GET', '/api/order/details/1?nic=tutaj', { token: manager, headers: { 'x-request-id': 'details-1' } });
      expect(res.statusCode).toBe(200);
      const lines = log.of('details-1');
      expect(lines).toHaveLength(1);
      const [line] = lines;
      const session = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
      expect(line).toMatchObject({
        level: 30, msg: 'request', requestId: 'details-1', method: 'GET', route: '/api/order/details/:id', status: 200,
        userId: session.id, role: 'MANAGER', variant: t.app.config.variants[0],
      });
      expect(line.durationMs).toEqual(expect.any(Number));
      expect(line.durationMs).toBeGreaterThanOrEqual(0);
      expect(new Date(line.time).toISOString()).toBe(line.time);
      // neither the URL nor its query
      expect(JSON.stringify(line)).not.toContain('nic=tutaj');
      expect(line.url).toBeUndefined();
      // nothing of Fastify's own "incoming request" / "request completed"
      expect(log.lines().filter((l) => /incoming request|request completed/.test(String(l.msg)))).toEqual([]);
    });

    it('names the variant the host chose and, for a call without a session, no user', async () => {
      await t.app.inject({ method: 'GET', url: '/api/init/pre-config', headers: { host: 'dealer.localhost', 'x-request-id': 'dealer-host' } });
      const [line] = log.of('dealer-host');
      expect(line).toMatchObject({ route: '/api/init/pre-config', status: 200, variant: 'regional-dealer' });
      expect(line.userId).toBeUndefined();
      expect(line.role).toBeUndefined();
    });

    it('logs refused and unknown calls too, once each: a 401 with its route, a 404 without one', async () => {
      await t.call('GET', '/api/order/details/1', { headers: { 'x-request-id': 'no-session' } });
      expect(log.of('no-session')).toEqual([expect.objectContaining({ route: '/api/order/details/:id', status: 401 })]);
      await t.call('GET', '/api/nie-ma-takiej/sciezki', { headers: { 'x-request-id': 'unknown-path' } });
      expect(log.of('unknown-path')).toEqual([expect.objectContaining({ route: null, status: 404, method: 'GET' })]);
    });
  });

  describe('an error answer names its request', () => {
    it('puts the request id into the error body: validation, no session, not found, no access', async () => {
      const cases = [
        await t.call('GET', '/api/contract/abc', { token: manager, headers: { 'x-request-id': 'err-400' } }),
        await t.call('GET', '/api/order/details/1', { headers: { 'x-request-id': 'err-401' } }),
        await t.call('GET', '/api/nie-ma', { headers: { 'x-request-id': 'err-404' } }),
        await t.call('GET', '/api/settings/email', { token: manager, headers: { 'x-request-id': 'err-403' } }),
      ];
      expect(cases.map((res) => [res.statusCode, res.json().requestId])).toEqual([[400, 'err-400'], [401, 'err-401'], [404, 'err-404'], [403, 'err-403']]);
      // a made id as well
      const made = await t.call('GET', '/api/nie-ma');
      expect(made.json().requestId).toBe(made.headers['x-request-id']);
    });

    it('leaves successful answers as they were', async () => {
      const res = await t.call('GET', '/api/health', { headers: { 'x-request-id': 'ok-body' } });
      expect(res.json().requestId).toBeUndefined();
    });
  });

  describe('redaction', () => {
    it('writes no password, token, signature, cookie or SMTP password anywhere, whatever the requests carried', async () => {
      const secrets = {
        password: 'Manager123!', // the demo manager's: signed in with it above and again here
        wrongPassword: 'Zle-Haslo-987!',
        bearer: 'abcdefghijklmnopqrstuvwxyz0123456789SECRET',
        cookie: 'sessionid=ciasteczko-tajne-42',
        signature: 'c2lnbmF0dXJlLXRham5hLXdhcnRvc2M=',
        smtpPassword: 'Smtp-Tajne-Haslo-55',
      };
      const signedIn = await t.call('POST', '/api/user/auth', { body: { username: 'manager', password: secrets.password, role: 'MANAGER' } });
      expect(signedIn.statusCode).toBe(200);
      await t.call('POST', '/api/user/auth', { body: { username: 'manager', password: secrets.wrongPassword, role: 'MANAGER' } });
      await t.app.inject({
        method: 'POST', url: '/api/car/table-count', payload: '{}',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secrets.bearer}`, cookie: secrets.cookie, 'x-nonce': String(Date.now()), 'x-signature': secrets.signature },
      });
      const admin = await t.signIn('admin');
      const saved = await t.call('PUT', '/api/settings/email', {
        token: admin,
        body: { smtpHost: '127.0.0.1', smtpPort: 2525, smtpUser: 'portal', smtpPassword: secrets.smtpPassword, smtpEmail: 'portal@partnercfm.pl', smtpSsl: 'OFF' },
      });
      expect(saved.statusCode).toBe(200);
      // a session's own token, sent on every call above
      const tokens = [manager, admin, signedIn.json().id_token as string];
      for (const value of [...Object.values(secrets), ...tokens]) expect(log.text, 'a secret in the log').not.toContain(value);
      expect(log.text).not.toContain('partnercfm.pl');
    });

    it('censors secret fields of an object some code logs (the second guard)', async () => {
      t.app.log.info({
        req: { headers: { authorization: 'Bearer druga-linia-obrony', cookie: 'c=druga-linia-obrony', 'x-signature': 'druga-linia-obrony' } },
        body: { note: 'druga-linia-obrony' },
        smtp: { smtpPassword: 'druga-linia-obrony' },
        password: 'druga-linia-obrony',
      }, 'guard');
      const line = log.lines().find((l) => l.msg === 'guard')!;
      expect(line.password).toBe('[redacted]');
      expect(line.body).toBe('[redacted]');
      expect(log.text).not.toContain('druga-linia-obrony');
    });
  });

  describe('a job', () => {
    it('logs its end with its job id and the id of the request that queued it', async () => {
      // a confirmed estimate queues an e-mail to the order's reporter (no mail server: the job ends waiting for one)
      await t.app.db.updateTable('email_config').set({ smtpHost: null }).execute();
      const doradca = await t.signIn('doradca');
      const res = await t.call('GET', '/api/order/confirm-pricing/1', { token: doradca, headers: { 'x-request-id': 'queued-by-me' } });
      expect(res.statusCode).toBe(200);
      const until = Date.now() + 30_000;
      let jobLines: Record<string, any>[] = [];
      while (jobLines.length === 0 && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
        jobLines = log.lines().filter((l) => l.jobId && l.queue === 'notification-email' && l.requestId === 'queued-by-me');
      }
      const notification = await t.app.db.selectFrom('notification').select('id').where('channel', '=', 'email').where('entityId', '=', 1)
        .orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(jobLines).toEqual([expect.objectContaining({
        msg: 'job', requestId: 'queued-by-me', jobId: expect.stringMatching(UUID), durationMs: expect.any(Number), notificationId: Number(notification.id),
      })]);
      // the request itself is still one line
      expect(log.of('queued-by-me').filter((l) => !l.jobId)).toHaveLength(1);
    }, 60_000);
  });
});
