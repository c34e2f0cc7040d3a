/**
 * Orders end to end through the real app and database (issue 12): adding an order with its
 * positions as each role, the row scope of every write, the cost estimate and its locks, hidden
 * prices, the approved scope, the approval workflow and the lookups of the order wizard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionNet } from '../../runtime/core/order-values.ts';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const tokens = {} as Record<DemoAccount, string>;
let own: { pojazdId: number; marka: string | null }; // WZ12345: the driver's car, the advisor's signed-in car, client KL001, station SS01
let foreignCar: number; // a car of another client

const positions = [
  { uslRodzaj: 1, tresc: 'Wymiana oleju', ilosc: 1.5, cena: 180, rabatProc: 10 },
  { uslRodzaj: 2, tresc: 'Filtr oleju', ilosc: 1, cena: 49.99, rabatProc: 15, nrKatalog: 'OC 90' },
];
const order = (extra: Record<string, unknown> = {}) => ({
  autTyp: 0, zgloInterw: 'PRZEGLAD', pojazdId: own.pojazdId, rejestr: 'WZ12345', zgloNazwiskoImie: 'Kowalski Jan',
  zgloEmail: 'jan.kowalski@transbud.pl', zgloZakres: 'Przegląd 90 000 km', stanLicz: 88000, ...extra,
});
const add = (who: DemoAccount, body: Record<string, unknown>) => t.call('POST', '/api/order/add', { token: tokens[who], body });
const orderRows = async () => Number((await t.app.db.selectFrom('service_order').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const stored = (autId: number) => t.app.db.selectFrom('service_order').selectAll().where('autId', '=', autId).executeTakeFirstOrThrow() as Promise<any>;
const storedPositions = (autId: number) => t.app.db.selectFrom('order_position').selectAll().where('autId', '=', autId).orderBy('pozId').execute() as Promise<any[]>;
const details = (who: DemoAccount, autId: number) => t.call('GET', `/api/order/details/${autId}`, { token: tokens[who] });
/** An order of the advisor's station with positions, not yet confirmed. */
const stationOrder = async (extra: Record<string, unknown> = {}) => {
  const res = await add('doradca', { order: order(extra), rangePositions: positions });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().order.autId as number;
};

beforeAll(async () => {
  t = await startTestApp();
  for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as DemoAccount[]) tokens[who] = await t.signIn(who);
  own = await t.app.db.selectFrom('car').select(['pojazdId', 'marka']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow() as any;
  foreignCar = (await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '<>', 'KL001').orderBy('pojazdId').executeTakeFirstOrThrow()).pojazdId;
}, 120_000);
afterAll(async () => t?.close());

describe('POST /api/order/add', () => {
  it('adds an order with its positions as a driver, for their own vehicle whatever the request names', async () => {
    const res = await add('kierowca', { order: order({ pojazdId: foreignCar }), rangePositions: positions });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ order: { autId: expect.any(Number), autNr: null }, message: 'Dodano zlecenie' });
    const row = await stored(res.json().order.autId);
    expect(row).toMatchObject({ pojazdId: own.pojazdId, rejestr: 'WZ12345', klientSymbol: 'KL001', status: 0, zgloKto: 'USER', stacjaSerw: 'SS01', pricingConfirmed: false });
    const saved = await storedPositions(row.autId);
    expect(saved.map((p) => [p.tresc, p.ogNetto])).toEqual([['Wymiana oleju', 243], ['Filtr oleju', positionNet(positions[1])]]);
    expect(saved[0]).toMatchObject({ rodzaj: 'dodatkowa', czynnoscTyp: 'Wykonaj', autOk: '?' });
  });

  it('adds one as an advisor: the reporting company and the contractor are their service station', async () => {
    const res = await add('doradca', { order: order({ zgloFirma: 'Inna firma' }), rangePositions: positions, pricingConfirmed: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Dodano zlecenie');
    const row = await stored(res.json().order.autId);
    expect(row).toMatchObject({ stacjaSerw: 'SS01', zgloFirma: 'Auto-Serwis Kowalczyk Sp. j.', firma: 'Auto-Serwis Kowalczyk Sp. j.', zgloKto: 'ADVISOR', pricingConfirmed: true, status: 0 });
  });

  it('adds and accepts one as the fleet manager or the admin (authorisation number given with the save)', async () => {
    const names = { manager: 'Nowak Anna', admin: 'Zieliński Piotr' } as Record<DemoAccount, string>;
    for (const who of ['manager', 'admin'] as DemoAccount[]) {
      const res = await add(who, { order: order(), rangePositions: positions });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Dodano i zaakceptowano zlecenie');
      expect(res.json().order.autNr).toMatch(/^AUT\/\d{4}\/\d{7}$/);
      // who authorised it, by name (the details' "Zatwierdził")
      expect(await stored(res.json().order.autId)).toMatchObject({ status: 0, zatwierdzil: names[who] });
    }
  });

  it('finds the vehicle by its registration when no id is sent', async () => {
    const res = await add('manager', { order: order({ pojazdId: undefined, rejestr: 'wz12345' }) });
    expect(res.statusCode, res.body).toBe(200);
    expect((await stored(res.json().order.autId)).pojazdId).toBe(own.pojazdId);
  });

  it("refuses an order for another client's vehicle as if the vehicle did not exist, and writes nothing", async () => {
    const before = await orderRows();
    const manager = await add('manager', { order: order({ pojazdId: foreignCar }), rangePositions: positions });
    expect(manager.statusCode).toBe(404);
    expect(manager.json().detail).toBe('Nie znaleziono pojazdu');
    const otherClient = await add('manager2', { order: order() });
    expect(otherClient.statusCode).toBe(404);
    const advisor = await add('doradca', { order: order({ pojazdId: foreignCar }) });
    expect(advisor.statusCode).toBe(404);
    expect(await orderRows()).toBe(before);
  });

  it('answers an invalid position with 400 naming the field in Polish, and writes no order', async () => {
    const before = await orderRows();
    const blank = await add('manager', { order: order(), rangePositions: [positions[0], { ...positions[1], tresc: '   ' }] });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toContainEqual({ field: 'rangePositions.1.tresc', message: 'Pole nie może być puste' });
    const discount = await add('manager', { order: order(), rangePositions: [{ ...positions[0], rabatProc: 101 }] });
    expect(discount.statusCode).toBe(400);
    expect(discount.json().errors).toContainEqual({ field: 'rangePositions.0.rabatProc', message: 'Pole musi być mniejsze równe 100' });
    const noKind = await add('manager', { order: order(), rangePositions: [{ tresc: 'Bez rodzaju', ilosc: 1 }] });
    expect(noKind.statusCode).toBe(400);
    expect(noKind.json().errors[0].field).toBe('rangePositions.0.uslRodzaj');
    const noReporter = await add('manager', { order: order({ zgloEmail: 'nie-email' }) });
    expect(noReporter.json().errors).toContainEqual({ field: 'order.zgloEmail', message: 'Niepoprawny adres email' });
    expect(await orderRows()).toBe(before);
  });

  it('takes the order back when a position fails in the database after the order was written', async () => {
    const before = await orderRows();
    // a net of 10^15 does not fit numeric(12,2): the second insert fails, inside the same transaction
    const res = await add('manager', { order: order(), rangePositions: [positions[0], { uslRodzaj: 1, tresc: 'Za drogo', ilosc: 999999999, cena: 1000000 }] });
    expect(res.statusCode).toBe(400);
    expect(await orderRows()).toBe(before);
  });

  it('lets only an advisor confirm the estimate with the save, and only with positions', async () => {
    const manager = await add('manager', { order: order(), rangePositions: positions, pricingConfirmed: true });
    expect(manager.statusCode).toBe(400);
    expect(manager.json().errors[0].field).toBe('pricingConfirmed');
    const empty = await add('doradca', { order: order(), rangePositions: [], pricingConfirmed: true });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0]).toEqual({ field: 'pricingConfirmed', message: 'Kosztorys nie zawiera pozycji — nie ma czego zatwierdzić.' });
  });

  it('refuses the approved scope from anyone but the admin', async () => {
    const res = await add('manager', { order: order({ zlecZakres: 'Zakres zatwierdzony' }) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'order.zlecZakres', message: 'Nie masz uprawnień do zmiany tego pola' }]);
    expect((await add('admin', { order: order({ zlecZakres: 'Zakres zatwierdzony' }) })).statusCode).toBe(200);
  });
});

describe('cost estimate: GET /api/order/confirm-pricing/{id}', () => {
  it('confirms the estimate for the advisor of the station, then locks adding, editing and deleting positions', async () => {
    const autId = await stationOrder();
    const [first] = await storedPositions(autId);
    const res = await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens.doradca });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Pomyślnie zatwierdzono kosztorys.' });
    expect((await stored(autId)).pricingConfirmed).toBe(true);

    const again = await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens.doradca });
    expect(again.statusCode).toBe(409);
    for (const who of ['doradca', 'manager', 'admin'] as DemoAccount[]) {
      const added = await t.call('POST', '/api/order-range-position', { token: tokens[who], body: { autId, uslRodzaj: 1, tresc: 'Dodatkowa', ilosc: 1 } });
      expect(added.statusCode, who).toBe(409);
      expect(added.json().detail).toMatch(/^Kosztorys jest zablokowany/);
      const edited = await t.call('PUT', `/api/order-range-position/${first.pozId}`, { token: tokens[who], body: { uslRodzaj: 1, tresc: 'Zmieniona', ilosc: 2 } });
      expect(edited.statusCode, who).toBe(409);
      expect((await t.call('DELETE', `/api/order-range-position/${first.pozId}`, { token: tokens[who] })).statusCode, who).toBe(409);
    }
    expect(await storedPositions(autId)).toHaveLength(2);
  });

  it('is refused to everyone but an advisor (403), and for an order without positions (409)', async () => {
    const autId = await stationOrder();
    for (const who of ['manager', 'admin', 'kierowca'] as DemoAccount[]) {
      expect((await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens[who] })).statusCode, who).toBe(403);
    }
    const empty = (await add('doradca', { order: order() })).json().order.autId;
    const res = await t.call('GET', `/api/order/confirm-pricing/${empty}`, { token: tokens.doradca });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe('Kosztorys nie zawiera pozycji — nie ma czego zatwierdzić.');
  });

  it("answers an order of another station as absent, even on the advisor's own vehicle", async () => {
    const res = await add('admin', { order: order({ stacjaSerw: 'SS02' }), rangePositions: positions });
    expect(res.statusCode, res.body).toBe(200);
    const autId = res.json().order.autId;
    expect((await details('doradca', autId)).statusCode).toBe(200); // own vehicle: may read it
    expect((await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens.doradca })).statusCode).toBe(404);
  });

  it('locks the estimate for an advisor once the status is not 0, but not for the manager', async () => {
    const autId = await stationOrder();
    await t.app.db.updateTable('service_order').set({ status: 10 }).where('autId', '=', autId).execute();
    const body = { autId, uslRodzaj: 1, tresc: 'Dodatkowa', ilosc: 1 };
    expect((await t.call('POST', '/api/order-range-position', { token: tokens.doradca, body })).statusCode).toBe(409);
    expect((await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens.doradca })).statusCode).toBe(409);
    expect((await t.call('POST', '/api/order-range-position', { token: tokens.manager, body })).statusCode).toBe(200);
  });

  it('confirms exactly once when two confirmations arrive at the same time', async () => {
    const autId = await stationOrder();
    const answers = await Promise.all([1, 2, 3].map(() => t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens.doradca })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
  });
});

describe('positions: /api/order-range-position', () => {
  it('adds, reads, edits and deletes a position with the server computing the net', async () => {
    const autId = await stationOrder();
    const added = await t.call('POST', '/api/order-range-position', { token: tokens.doradca, body: { autId, uslRodzaj: 3, tresc: 'Blacharka', ilosc: 2, cena: 100.005, rabatProc: 5 } });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().message).toBe('Dodano pozycje');
    const pozId = added.json().position.pozId;
    expect(added.json().position).toMatchObject({ cena: 100.01, ogNetto: positionNet({ cena: 100.01, ilosc: 2, rabatProc: 5 }) });
    const edited = await t.call('PUT', `/api/order-range-position/${pozId}`, { token: tokens.doradca, body: { uslRodzaj: 3, tresc: 'Blacharka drzwi', ilosc: 3, cena: 10, rabatProc: 0 } });
    expect(edited.json().position).toMatchObject({ tresc: 'Blacharka drzwi', ogNetto: 30 });
    expect((await t.call('GET', `/api/order-range-position/${pozId}`, { token: tokens.manager })).statusCode).toBe(200);
    expect((await t.call('DELETE', `/api/order-range-position/${pozId}`, { token: tokens.doradca })).statusCode).toBe(200);
    expect((await t.call('GET', `/api/order-range-position/${pozId}`, { token: tokens.doradca })).statusCode).toBe(404);
  });

  it("answers a position of another client's order as absent, for reads and writes", async () => {
    const autId = await stationOrder();
    const [first] = await storedPositions(autId);
    expect((await t.call('GET', `/api/order-range-position/${first.pozId}`, { token: tokens.manager2 })).statusCode).toBe(404);
    expect((await t.call('PUT', `/api/order-range-position/${first.pozId}`, { token: tokens.manager2, body: { uslRodzaj: 1, tresc: 'x', ilosc: 1 } })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/order-range-position/${first.pozId}`, { token: tokens.manager2 })).statusCode).toBe(404);
    expect((await t.call('POST', '/api/order-range-position', { token: tokens.manager2, body: { autId, uslRodzaj: 1, tresc: 'x', ilosc: 1 } })).statusCode).toBe(404);
    expect(await storedPositions(autId)).toHaveLength(2);
  });
});

describe('prices (cenaWidoczna)', () => {
  it('sends no quantity, price, discount, net or totals to a manager when cenaWidoczna is N, and all of them when it is T', async () => {
    const autId = await stationOrder();
    const hidden = (await details('manager', autId)).json();
    expect(hidden.order.cenaWidoczna).toBe('N');
    expect(hidden.positions).toHaveLength(2);
    for (const p of hidden.positions) for (const f of ['ilosc', 'cena', 'rabatProc', 'ogNetto']) expect(p, f).not.toHaveProperty(f);
    expect(hidden).not.toHaveProperty('totals');
    const [first] = await storedPositions(autId);
    const single = (await t.call('GET', `/api/order-range-position/${first.pozId}`, { token: tokens.manager })).json().position;
    expect(single).not.toHaveProperty('cena');

    const advisor = (await details('doradca', autId)).json();
    expect(advisor.positions[0]).toMatchObject({ ilosc: 1.5, cena: 180, rabatProc: 10, ogNetto: 243 });
    expect(advisor.totals).toEqual({ total: 243 + positionNet(positions[1]), totalAuthorized: 0 });

    expect((await t.call('PUT', `/api/order/${autId}`, { token: tokens.admin, body: { cenaWidoczna: 'T' } })).statusCode).toBe(200);
    const shown = (await details('manager', autId)).json();
    expect(shown.positions[0]).toMatchObject({ cena: 180, ogNetto: 243 });
    expect(shown.totals.total).toBe(advisor.totals.total);
  });

  it('keeps the stored prices when a manager who may not see them edits a position', async () => {
    const autId = await stationOrder();
    const [first] = await storedPositions(autId);
    const res = await t.call('PUT', `/api/order-range-position/${first.pozId}`, { token: tokens.manager, body: { uslRodzaj: 1, tresc: 'Nowa treść', ilosc: 1, cena: 0 } });
    expect(res.statusCode, res.body).toBe(200);
    const [after] = await storedPositions(autId);
    expect(after).toMatchObject({ tresc: 'Nowa treść', ilosc: 1.5, cena: 180, ogNetto: 243 });
  });
});

describe('approved scope and remarks: PUT /api/order/{id}', () => {
  it('lets only the admin edit zlecZakres, and the manager where the variant allows it (config.managerEditsApprovedScope)', async () => {
    const autId = await stationOrder();
    const manager = await t.call('PUT', `/api/order/${autId}`, { token: tokens.manager, body: { zlecZakres: 'Przez managera' } });
    expect(manager.statusCode).toBe(400);
    expect(manager.json().errors).toEqual([{ field: 'zlecZakres', message: 'Nie masz uprawnień do zmiany tego pola' }]);
    expect((await t.call('PUT', `/api/order/${autId}`, { token: tokens.admin, body: { zlecZakres: 'Przez admina', uwagi: 'Uwaga admina' } })).statusCode).toBe(200);
    expect(await stored(autId)).toMatchObject({ zlecZakres: 'Przez admina', uwagi: 'Uwaga admina' });
    const config = t.app.config.bundle.config as Record<string, unknown>;
    config.managerEditsApprovedScope = true;
    try {
      expect((await t.call('PUT', `/api/order/${autId}`, { token: tokens.manager, body: { zlecZakres: 'Przez managera' } })).statusCode).toBe(200);
      expect((await details('manager', autId)).json().editable.zlecZakres).toBe(true);
    } finally {
      config.managerEditsApprovedScope = false;
    }
    expect((await stored(autId)).zlecZakres).toBe('Przez managera');
    expect((await t.call('PUT', `/api/order/${autId}`, { token: tokens.manager2, body: { zlecZakres: 'x' } })).statusCode).toBe(404);
  });
});

describe('approval workflow: POST /api/order/{id}/transition', () => {
  it('takes an order from the advisor to the fleet manager who accepts it, and records every move', async () => {
    const autId = await stationOrder();
    await t.call('GET', `/api/order/confirm-pricing/${autId}`, { token: tokens.doradca });
    expect((await details('doradca', autId)).json().transitions.map((m: any) => m.to)).toEqual([1]);
    const submit = await t.call('POST', `/api/order/${autId}/transition`, { token: tokens.doradca, body: { to: 1 } });
    expect(submit.statusCode, submit.body).toBe(200);
    expect((await details('manager', autId)).json().transitions.map((m: any) => m.id)).toEqual(['accept', 'acceptPartly', 'reject', 'clarify']);
    expect((await t.call('POST', `/api/order/${autId}/transition`, { token: tokens.manager2, body: { to: 2 } })).statusCode).toBe(404);
    const accept = await t.call('POST', `/api/order/${autId}/transition`, { token: tokens.manager, body: { to: 2 } });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json().message).toBe('Zmieniono status zlecenia na: Zaakceptowano przez Fleet Managera');
    const after = (await details('manager', autId)).json();
    // the details dialog's "Zatwierdził" names who accepted, as the tables name people
    expect(after.order).toMatchObject({ status: 2, statusZnaczenie: 'Zaakceptowano przez Fleet Managera', zatwierdzil: 'Nowak Anna' });
    expect(after.history.map((h: any) => [h.fromStatus, h.toStatus, h.transition, h.login, h.rola])).toEqual([
      [0, 1, 'submit', 'doradca', 'ADVISOR'],
      [1, 2, 'accept', 'manager', 'MANAGER'],
    ]);
    expect(after.history[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('refuses a move the configuration does not allow the caller (409) and changes nothing', async () => {
    const autId = await stationOrder();
    for (const [who, to] of [['manager', 2], ['manager', 6], ['kierowca', 7], ['doradca', 1]] as [DemoAccount, number][]) {
      const res = await t.call('POST', `/api/order/${autId}/transition`, { token: tokens[who], body: { to } });
      expect(res.statusCode, `${who} → ${to}`).toBe(409);
      expect(res.json().detail).toBe('Ta zmiana statusu nie jest dozwolona dla tego zlecenia');
    }
    expect((await stored(autId)).status).toBe(0);
  });

  it('lets the admin reject nothing but cancel an open order and close an authorised one', async () => {
    const cancelled = await stationOrder();
    expect((await t.call('POST', `/api/order/${cancelled}/transition`, { token: tokens.admin, body: { to: 7 } })).statusCode).toBe(200);
    expect((await t.call('POST', `/api/order/${cancelled}/transition`, { token: tokens.admin, body: { to: 6 } })).statusCode).toBe(409);
    const closed = await stationOrder();
    await t.app.db.updateTable('service_order').set({ status: 4 }).where('autId', '=', closed).execute();
    expect((await t.call('POST', `/api/order/${closed}/transition`, { token: tokens.admin, body: { to: 6 } })).statusCode).toBe(200);
    expect((await stored(closed)).status).toBe(6);
  });
});

describe('seeded orders', () => {
  it('carry the net of runtime/core/order-values.ts on every position (demo and generated ones)', async () => {
    const rows = await t.app.db.selectFrom('order_position').select(['pozId', 'ilosc', 'cena', 'rabatProc', 'ogNetto']).execute();
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter((p) => p.ogNetto !== positionNet(p))).toEqual([]);
  });

  it('give the demo accounts orders with positions in several statuses (1: awaiting the manager, prices hidden)', async () => {
    const statuses = await t.app.db.selectFrom('service_order as o').select('o.status').distinct()
      .where('o.rejestr', 'in', ['WZ12345', 'WZ67890']).where('o.userId', 'is not', null)
      .where((eb) => eb.exists(eb.selectFrom('order_position as p').select('p.pozId').whereRef('p.autId', '=', 'o.autId')))
      .orderBy('o.status').execute();
    expect(statuses.map((s) => s.status)).toEqual(expect.arrayContaining([0, 1, 4, 6]));
  });
});

describe('details and lookups of the order wizard', () => {
  it('answers the details of an order in scope and 404 outside it', async () => {
    const autId = await stationOrder();
    const res = await details('manager', autId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ order: { autId, status: 0, statusZnaczenie: 'Zgłoszono' }, positionsLocked: false, canConfirmPricing: false });
    expect((await details('doradca', autId)).json().canConfirmPricing).toBe(true);
    expect((await details('manager2', autId)).statusCode).toBe(404);
    expect((await details('manager', 999999)).statusCode).toBe(404);
  });

  it('suggests vehicles after more than 2 characters, upper-cased, only within the caller\'s vehicles', async () => {
    const hints = (who: DemoAccount, text: string) => t.call('GET', `/api/auto-complete/cars?searchText=${encodeURIComponent(text)}`, { token: tokens[who] });
    expect((await hints('manager', 'wz')).json()).toEqual([]);
    expect((await hints('manager', 'wz1')).json().map((c: any) => c.rejestr)).toContain('WZ12345');
    expect((await hints('manager2', 'wz1')).json().map((c: any) => c.rejestr)).not.toContain('WZ12345');
    expect((await hints('kierowca', 'wz')).json()).toEqual([]);
    expect((await hints('kierowca', 'wz6')).json()).toEqual([]); // WZ67890 is not the driver's
  });

  it('suggests companies after more than 2 characters, upper-cased', async () => {
    const res = await t.call('GET', '/api/auto-complete/companies?searchText=kow', { token: tokens.kierowca });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: any) => c.firmaNazwa)).toContain('Auto-Serwis Kowalczyk Sp. j.');
    expect((await t.call('GET', '/api/auto-complete/companies?searchText=ko', { token: tokens.kierowca })).json()).toEqual([]);
  });

  it('fills the scope of an inspection from the service plan of its make, and says when there is none', async () => {
    const plan = await t.call('POST', '/api/order-range-plan', { token: tokens.kierowca, body: { interw: 'PRZEGLAD', marka: own.marka ?? '' } });
    expect(plan.statusCode, plan.body).toBe(200);
    expect(plan.json().found).toBe(true);
    expect(plan.json().positions[0]).toMatchObject({ tresc: 'Wymiana oleju silnikowego z filtrem', uslRodzaj: 1, cena: 0, rabatProc: 0 });
    const table = await t.call('POST', '/api/service-plan/table', { token: tokens.kierowca, body: { interw: 'PRZEGLAD', marka: own.marka ?? '' } });
    expect(table.json().length).toBe(plan.json().positions.length);
    const none = await t.call('POST', '/api/order-range-plan', { token: tokens.kierowca, body: { interw: 'PRZEGLAD', marka: 'Nieznana' } });
    expect(none.json()).toEqual({ found: false, positions: [] });
  });

  it('gives the vehicle and its user for the reporter step, within the caller\'s vehicles', async () => {
    const mine = await t.call('GET', `/api/order/car-user/${own.pojazdId}`, { token: tokens.kierowca });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ rejestr: 'WZ12345', nazwisko: 'Kowalski', imie: 'Jan' });
    expect((await t.call('GET', `/api/order/car-user/${foreignCar}`, { token: tokens.kierowca })).statusCode).toBe(404);
  });
});
