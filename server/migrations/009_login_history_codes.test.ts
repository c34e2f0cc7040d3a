import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { migrateToLatest } from '../db/migrate.ts';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { migrations } from './index.ts';

describe.each(testBackends)('009 login history codes on %s', (kind) => {
  let t: TestDatabase;
  let db: Kysely<any>;
  beforeAll(async () => {
    t = await openTestDatabase({ kind, migrate: false });
    db = t.db;
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '009'));
    await migrateToLatest(db, before);
  }, 120_000);
  afterAll(async () => { await t?.close(); });

  it('turns the texts the server wrote into codes, moves a vehicle change\'s plate to rejestr, and keeps unknown texts', async () => {
    const row = (rodzaj: string, uwagi: string | null, success: boolean) => ({ login: 'doradca', loginDate: new Date(), rola: 'ADVISOR', rodzaj, uwagi, success });
    await db.insertInto('login_history').values([
      row('Logowanie', 'Zalogowano', true),
      row('Logowanie', 'Błędny login, hasło lub rola', false),
      row('Logowanie', 'Konto czasowo zablokowane', false),
      row('Zmiana pojazdu', 'WZ67890', true),
      row('Zmiana pojazdu', 'Nie znaleziono pojazdu o podanym numerze rejestracyjnym i końcówce VIN', false),
      row('Wylogowanie', 'Wylogowano', true),
      row('Logowanie', 'coś innego', false),
    ]).execute();
    await migrateToLatest(db);
    const rows = await db.selectFrom('v_login_history').select(['rodzaj', 'uwagi', 'rejestr']).orderBy('id').execute();
    expect(rows).toEqual([
      { rodzaj: 'SIGN_IN', uwagi: 'SUCCESS', rejestr: null },
      { rodzaj: 'SIGN_IN', uwagi: 'BAD_CREDENTIALS', rejestr: null },
      { rodzaj: 'SIGN_IN', uwagi: 'LOCKED', rejestr: null },
      { rodzaj: 'VEHICLE_CHANGE', uwagi: 'VEHICLE_CHANGED', rejestr: 'WZ67890' },
      { rodzaj: 'VEHICLE_CHANGE', uwagi: 'VEHICLE_NOT_FOUND', rejestr: null },
      { rodzaj: 'SIGN_OUT', uwagi: 'SIGNED_OUT', rejestr: null },
      { rodzaj: 'SIGN_IN', uwagi: 'coś innego', rejestr: null },
    ]);
  });
});
