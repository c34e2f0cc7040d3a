/**
 * Adding notes (issue 13; spec §5 "Orders, damages, notes", §7 Notes; ACCESS.md "note: the parent
 * record's scope"): text required (max 500), author the signed-in user (max 40), date now; the
 * note is listed by zrodlo and zrodloId in the note table.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Who = 'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca';

describe('notes', () => {
  let t: TestApp;
  const tok = {} as Record<Who, string>;
  let order: number;
  let damage: number;
  let foreignOrder: number;

  const add = (who: Who, body: unknown) => t.call('POST', '/api/note', { token: tok[who], body });
  const count = async () => Number((await t.app.db.selectFrom('note').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as Who[]) tok[who] = await t.signIn(who);
    const db = t.app.db;
    const car = await db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    order = (await db.selectFrom('service_order').select('autId').where('pojazdId', '=', car.pojazdId).orderBy('autId').executeTakeFirstOrThrow()).autId;
    damage = (await db.selectFrom('damage').select('sprawaId').where('pojazdId', '=', car.pojazdId).orderBy('sprawaId').executeTakeFirstOrThrow()).sprawaId;
    foreignOrder = (await db.selectFrom('service_order').select('autId').where('klientSymbol', '=', 'KL002').orderBy('autId').executeTakeFirstOrThrow()).autId;
  }, 120_000);
  afterAll(async () => t?.close());

  it('adds a note to an order with the signed-in user as author and now as its date, and lists it by zrodlo and zrodloId', async () => {
    const before = Date.now();
    const res = await add('manager', { zrodlo: 'AUTORY', zrodloId: order, tresc: '  Proszę o telefon przed odbiorem.  ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ zrodlo: 'AUTORY', zrodloId: order, tresc: 'Proszę o telefon przed odbiorem.', autor: 'Nowak Anna' });
    expect(new Date(res.json().data).getTime()).toBeGreaterThanOrEqual(before - 60_000);
    const list = await t.call('POST', '/api/note/table2', { token: tok.manager, body: { startRow: 0, endRow: 30, group: 'AUTORY', srcId: order } });
    expect(list.json().rows[0]).toMatchObject({ id: res.json().id, autor: 'Nowak Anna', tresc: 'Proszę o telefon przed odbiorem.' });
  });

  it('does not take an author or a date from the caller', async () => {
    const res = await add('manager', { zrodlo: 'AUTORY', zrodloId: order, tresc: 'x', autor: 'Ktoś inny' });
    expect(res.statusCode).toBe(400);
  });

  it('refuses an empty, blank or too long text with the Polish message, storing nothing', async () => {
    const before = await count();
    for (const tresc of ['', '   \n ']) {
      const res = await add('manager', { zrodlo: 'AUTORY', zrodloId: order, tresc });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'tresc', message: 'Pole nie może być puste' }]);
    }
    const missing = await add('manager', { zrodlo: 'AUTORY', zrodloId: order });
    expect(missing.json().errors).toEqual([{ field: 'tresc', message: 'Pole nie może być puste' }]);
    const long = await add('manager', { zrodlo: 'AUTORY', zrodloId: order, tresc: 'a'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual([{ field: 'tresc', message: 'Pole może mieć najwyżej 500 znaków' }]);
    const exactly = await add('manager', { zrodlo: 'AUTORY', zrodloId: order, tresc: 'a'.repeat(500) });
    expect(exactly.statusCode).toBe(200);
    expect(await count()).toBe(before + 1);
  });

  it('follows the parent record’s scope: another client’s order and a role without damages answer as if absent', async () => {
    const before = await count();
    expect((await add('manager', { zrodlo: 'AUTORY', zrodloId: foreignOrder, tresc: 'Cudze' })).statusCode).toBe(404);
    expect((await add('manager2', { zrodlo: 'SZKODY', zrodloId: damage, tresc: 'Cudze' })).statusCode).toBe(404);
    expect((await add('doradca', { zrodlo: 'SZKODY', zrodloId: damage, tresc: 'Doradca nie widzi szkód' })).statusCode).toBe(404);
    expect((await add('manager', { zrodlo: 'AUTORY', zrodloId: 999999, tresc: 'Nie ma' })).statusCode).toBe(404);
    expect(await count()).toBe(before);
    // the driver's own vehicle's damage, the advisor's own vehicle's order, the admin's any
    expect((await add('kierowca', { zrodlo: 'SZKODY', zrodloId: damage, tresc: 'Zdjęcia dosłane mailem.' })).json().autor).toBe('Kowalski Jan');
    expect((await add('doradca', { zrodlo: 'AUTORY', zrodloId: order, tresc: 'Auto gotowe.' })).statusCode).toBe(200);
    expect((await add('admin', { zrodlo: 'AUTORY', zrodloId: foreignOrder, tresc: 'Uwaga administratora.' })).statusCode).toBe(200);
    expect(await count()).toBe(before + 3);
  });

  it('cuts a long author name to 40 characters', async () => {
    const id = (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow()).id;
    await t.app.db.updateTable('app_user').set({ lastName: 'Nowak-Wielkopolska-Przybyszewska', firstName: 'Anna Maria Józefina' }).where('id', '=', id).execute();
    try {
      const session = await t.signIn('manager');
      const res = await t.call('POST', '/api/note', { token: session, body: { zrodlo: 'AUTORY', zrodloId: order, tresc: 'Długie nazwisko' } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().autor).toBe('Nowak-Wielkopolska-Przybyszewska Anna Ma');
      expect(res.json().autor).toHaveLength(40);
    } finally {
      await t.app.db.updateTable('app_user').set({ lastName: 'Nowak', firstName: 'Anna' }).where('id', '=', id).execute();
    }
  });
});
