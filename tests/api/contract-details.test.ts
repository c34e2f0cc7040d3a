/**
 * GET /api/contract/{id} (issue 13; spec §7 "GET /contract/{id} (positions)", §3 "Contract row";
 * ACCESS.md "contract (table, positions): ADMIN all, MANAGER client, USER own vehicle").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('a contract with its positions', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let own: number;
  let foreign: number;

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) tok[who] = await t.signIn(who);
    const db = t.app.db;
    const car = await db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    own = (await db.selectFrom('contract').select('kontraktId').where('pojazdId', '=', car.pojazdId).orderBy('kontraktId').executeTakeFirstOrThrow()).kontraktId;
    foreign = (await db.selectFrom('contract').select('kontraktId').where('klientSymbol', '=', 'KL002').orderBy('kontraktId').executeTakeFirstOrThrow()).kontraktId;
  }, 120_000);
  afterAll(async () => t?.close());

  it('answers the contract row and every charge, the row’s sums matching the positions', async () => {
    const res = await t.call('GET', `/api/contract/${own}`, { token: tok.manager });
    expect(res.statusCode, res.body).toBe(200);
    const { contract, positions } = res.json();
    expect(contract.kontraktId).toBe(own);
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) expect(['RATA', 'SERW', 'UBEZ', 'INNE']).toContain(p.rodzaj);
    const sum = (kind: string) => positions.filter((p: any) => p.rodzaj === kind).reduce((s: number, p: any) => s + p.ile, 0);
    if (contract.opmRataIle !== null) expect(sum('RATA')).toBeCloseTo(contract.opmRataIle, 2);
  });

  it('follows the contract scope: the driver’s own vehicle, not another client’s, not the advisor', async () => {
    expect((await t.call('GET', `/api/contract/${own}`, { token: tok.kierowca })).statusCode).toBe(200);
    expect((await t.call('GET', `/api/contract/${own}`, { token: tok.admin })).statusCode).toBe(200);
    expect((await t.call('GET', `/api/contract/${foreign}`, { token: tok.manager })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/contract/${own}`, { token: tok.manager2 })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/contract/${own}`, { token: tok.doradca })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/contract/999999', { token: tok.manager })).statusCode).toBe(404);
  });
});
