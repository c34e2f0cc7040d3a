import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSession } from '../../server/auth/sessions.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * A /table2 answer is serialised through its entity's schema (server/resources/table-routes.ts),
 * which writes only the declared properties, each as its declared type. So that can never drop or
 * change a value the query read (an integer-declared column holding 7.5 would be written as 7, a
 * column missing from the entity would vanish), every resource's block, as the server read it, is
 * compared with what went over the wire.
 */
describe('table blocks over HTTP', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = await t.signIn('admin');
  }, 60_000);
  afterAll(async () => t?.close());

  it('carry exactly the rows the server read, for every resource', async () => {
    const session = (await findSession(t.app.db, token))!;
    const resources = Object.keys(t.app.config.bundle.resources);
    expect(resources.length).toBeGreaterThan(10);
    let rowsCompared = 0;
    for (const name of resources) {
      const params = { startRow: 0, endRow: 30, sortModel: [], filterModel: {} };
      const res = await t.call('POST', `/api/${name}/table2`, { token, body: params });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      const read = await t.app.tableQueries.page(name, session, params);
      // the wire form of what was read: JSON as JavaScript writes it, with nothing left out
      expect(res.json().rows, name).toEqual(JSON.parse(JSON.stringify(read.rows)));
      rowsCompared += read.rows.length;
    }
    expect(rowsCompared).toBeGreaterThan(100);
  });
});
