/**
 * Bad input is a 400 naming the field with a Polish message, never a 500: NUL characters (which
 * PostgreSQL refuses in any text, SQLSTATE 22021), numbers outside a column's range (22003),
 * a parent id of the wrong type for its resource (22P02), malformed cursors and filter values,
 * huge strings — in bodies, query strings and path parameters. And whatever still reaches the
 * database as a data error (SQLSTATE class 22) is a 400 that does not show the SQL.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import configPlugin from '../../server/plugins/config.ts';
import dbPlugin from '../../server/plugins/db.ts';
import errorsPlugin from '../../server/plugins/errors.ts';
import { openTestDatabase, type TestDatabase } from '../../server/seed/testing.ts';
import { DEMO, ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const NUL = 'a\u0000b';
const NUL_MESSAGE = 'Pole zawiera niedozwolony znak (NUL)';

/** A 400 whose `errors` name `field` (and, when given, with this message). */
function expectFieldError(res: { statusCode: number; json(): any; body: string }, field: string, message?: string) {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  const named = (body.errors ?? []).find((e: { field: string }) => e.field === field);
  expect(named, res.body).toBeDefined();
  if (message) expect(named.message).toBe(message);
  expect(res.body).not.toMatch(/select|insert|update|invalid byte sequence|out of range for type/i);
}

describe('bad input answered with 400 naming the field, never 500', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    manager = await t.signIn('manager');
  }, 120_000);
  afterAll(async () => t?.close());

  const page = { startRow: 0, endRow: 30 };

  describe('a NUL character in text', () => {
    it('in the sign-in login is refused as a login with characters it may not have (spec §5)', async () => {
      const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, username: NUL } });
      expectFieldError(res, 'username', 'Wprowadzony login zawiera niedozwolone znaki');
    });

    it('in the sign-in password is refused as a bad password field', async () => {
      const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, password: NUL } });
      expectFieldError(res, 'password', NUL_MESSAGE);
    });

    it('in a text filter value names the filtered column', async () => {
      const res = await t.call('POST', '/api/car/table2', {
        token: manager,
        body: { ...page, filterModel: { rejestr: { filterType: 'text', type: 'contains', filter: NUL } } },
      });
      expectFieldError(res, 'rejestr');
    });

    it('in a set filter value names the filtered column', async () => {
      const res = await t.call('POST', '/api/car/table-count', {
        token: manager,
        body: { ...page, filterModel: { marka: { filterType: 'set', values: [NUL] } } },
      });
      expectFieldError(res, 'marka');
    });

    it('in the mail settings names the field', async () => {
      const res = await t.call('PUT', '/api/settings/email', {
        token: admin,
        body: { smtpHost: NUL, smtpPort: 25, smtpUser: 'u', smtpPassword: 'p', smtpEmail: 'a@b.pl', smtpSsl: 'OFF' },
      });
      expectFieldError(res, 'smtpHost', NUL_MESSAGE);
    });

    it('in a query string names the parameter', async () => {
      const res = await t.call('GET', `/api/terms/history?login=${encodeURIComponent(NUL)}`, { token: admin });
      expectFieldError(res, 'login', NUL_MESSAGE);
    });

    it('in a path parameter names the parameter', async () => {
      const res = await t.call('GET', `/api/user-table-view/${encodeURIComponent(NUL)}`, { token: manager });
      expectFieldError(res, 'tableName', NUL_MESSAGE);
    });

    it('a path parameter longer than the router takes is a 400 with the one error body, not Fastify\'s 414', async () => {
      const res = await t.call('PUT', `/api/order-range-position/${'x'.repeat(10_000)}`, { token: admin, body: {} });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, code: 'BAD_URL', detail: 'Niepoprawna wartość w żądaniu (zbyt długi tekst, liczba spoza zakresu, niedozwolony znak lub błędna data)' });
      expect(res.json().requestId).toBe(res.headers['x-request-id']);
    });

    it('in a saved filter name names the field', async () => {
      const res = await t.call('POST', '/api/user-table-filter', { token: manager, body: { name: NUL, tablename: 'ORDER_TABLE', filterModel: {} } });
      expectFieldError(res, 'name', NUL_MESSAGE);
    });

    it('in a parent group names the field', async () => {
      const res = await t.call('POST', '/api/note/table2', { token: manager, body: { ...page, srcId: 1, group: NUL } });
      expectFieldError(res, 'group', NUL_MESSAGE);
    });
  });

  describe('a number outside its column', () => {
    it('templateId beyond integer is refused as templateId', async () => {
      const res = await t.call('POST', '/api/terms/accept', { token: manager, body: { templateId: 99999999999 } });
      expectFieldError(res, 'templateId');
    });

    it('userId 1e308 is refused as userId', async () => {
      const res = await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId: 1e308, password: 'Haslo123!xyz' } });
      expectFieldError(res, 'userId');
    });

    it('a row window beyond integer is refused as startRow', async () => {
      const res = await t.call('POST', '/api/car/table2', { token: manager, body: { startRow: 1e308, endRow: 1e308 + 10 } });
      expect(res.statusCode, res.body).toBe(400);
    });

    it('a srcId beyond integer is refused as srcId', async () => {
      const res = await t.call('POST', '/api/contract/table2', { token: manager, body: { ...page, srcId: 99999999999 } });
      expectFieldError(res, 'srcId');
    });
  });

  describe('a srcId of the wrong type for its resource', () => {
    it('text where the parent id is a number is refused as srcId', async () => {
      const res = await t.call('POST', '/api/contract/table2', { token: manager, body: { ...page, srcId: 'abc' } });
      expectFieldError(res, 'srcId');
    });

    it('digits beyond integer as text are refused as srcId', async () => {
      const res = await t.call('POST', '/api/note/table-count', { token: manager, body: { ...page, srcId: '9'.repeat(40) } });
      expectFieldError(res, 'srcId');
    });

    it('digits as text still select by the number', async () => {
      const res = await t.call('POST', '/api/contract/table2', { token: manager, body: { ...page, srcId: '1' } });
      expect(res.statusCode, res.body).toBe(200);
    });
  });

  describe('malformed cursors and filter values', () => {
    for (const cursor of ['x', '.', 'a.b.c', 'e30.AAAAAAAAAAAAAAAAAAAAAA', '\u0000.\u0000', '😀.😀', 'x'.repeat(2000)]) {
      it(`a cursor ${JSON.stringify(cursor.slice(0, 30))} is refused as cursor`, async () => {
        const res = await t.call('POST', '/api/car/table2', { token: manager, body: { startRow: 30, endRow: 60, cursor } });
        expectFieldError(res, 'cursor');
      });
    }

    const wrong: [string, unknown][] = [
      ['a number filter with text', { aktStanLicz: { filterType: 'number', type: 'equals', filter: 'abc' } }],
      ['a number filter with 1e308 text', { aktStanLicz: { filterType: 'number', type: 'equals', filter: '1e308' } }],
      ['a date filter with 30 February', { dataRej: { filterType: 'date', type: 'equals', dateFrom: '2024-02-30' } }],
      ['a text filter with a number', { rejestr: { filterType: 'text', type: 'contains', filter: 12 } }],
      ['a set filter with an object', { marka: { filterType: 'set', values: [{ a: 1 }] } }],
    ];
    for (const [what, filterModel] of wrong) {
      it(`${what} names the column`, async () => {
        const res = await t.call('POST', '/api/car/table2', { token: manager, body: { ...page, filterModel } });
        expectFieldError(res, Object.keys(filterModel as object)[0]);
      });
    }
  });

  describe('huge strings', () => {
    const big = 'x'.repeat(200_000);
    it('a huge login is refused by its length', async () => {
      const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, username: big } });
      expectFieldError(res, 'username');
    });

    it('a huge sort column is refused', async () => {
      const res = await t.call('POST', '/api/car/table2', { token: manager, body: { ...page, sortModel: [{ colId: big, sort: 'asc' }] } });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    });

    it('a huge parent id is refused as srcId', async () => {
      const res = await t.call('POST', '/api/contract/table2', { token: manager, body: { ...page, srcId: big } });
      expectFieldError(res, 'srcId');
    });

    it('a body over the limit is a 413, not a 500', async () => {
      const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, username: 'x'.repeat(1024 * 1024 + 10) } });
      expect(res.statusCode).toBe(413);
    });
  });
});

describe('a data error of the database that still reaches the error handler', () => {
  let db: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    db = await openTestDatabase({ migrate: false });
    app = Fastify();
    await app.register(configPlugin, { load: { root: ROOT, version: '0.0.0' } });
    await app.register(errorsPlugin);
    // the db plugin answers the database's own errors (server/plugins/db.ts)
    await app.register(dbPlugin, { db: db.db });
    // a route that hands the database whatever it is given, as a handler with a missing schema limit would
    app.get<{ Querystring: { value: string; type: string } }>('/probe', async (request) => {
      const types = { int: sql`integer`, date: sql`date`, text: sql`text`, ts: sql`timestamptz` };
      const type = types[request.query.type as keyof typeof types];
      return db.db.executeQuery(sql`select cast(${request.query.value} as ${type}) as v`.compile(db.db));
    });
    await app.ready();
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  const cases: [string, string, string][] = [
    ['NUL in text (22021)', 'text', 'a\u0000b'],
    ['an integer out of range (22003)', 'int', '99999999999'],
    ['text where a number goes (22P02)', 'int', 'abc'],
    ['an impossible date (22008)', 'date', '2024-02-30'],
    ['a malformed timestamp (22007)', 'ts', 'yesterday-ish'],
  ];
  for (const [what, type, value] of cases) {
    it(`${what} is a 400 with a Polish message and no SQL`, async () => {
      const res = await app.inject({ method: 'GET', url: `/probe?type=${type}&value=${encodeURIComponent(value)}` });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, code: 'BAD_VALUE', detail: expect.stringMatching(/^Niepoprawna wartość/) });
      expect(res.body).not.toMatch(/select|cast|integer|syntax|out of range|invalid/i);
    });
  }
});
