/**
 * Vehicle inspections (issue 47): the checklists of screens/inspections.json for a vehicle and
 * which are due; a submission checked item by item (400 naming the field, in the caller's
 * language); a failed tyre that opens a damage report with its photo; a failed fluid that opens a
 * service-order draft; the odometer as a reading (lower than the last is refused); the fleet
 * manager's notification, the webhook event inspection.submitted and the trail; a repeated
 * Idempotency-Key answered with the first answer; and who may submit and read what — the expected
 * answers written from ACCESS.md ("inspections: submit | all | client | own vehicle | —",
 * "inspections: read | all | client | own | own vehicle").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postMultipart } from '../support/multipart.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Template = { id: string; label: string; due: boolean; occasions: string[]; odometer: boolean; groups: { id: string; label: string; items: { id: string; label: string; notApplicable: boolean; opens: string; measure?: { failBelow: number | null } }[] }[] };
type Answer = { pozycja: string; wynik: 'pass' | 'fail' | 'na'; wartosc?: number | null; uwagi?: string; zdjecia?: number };

/** A small JPEG (1×1 px): what a phone's scaled photo is, as far as the server's checks go. */
const JPEG = Buffer.from('/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=', 'base64');

describe('vehicle inspections', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let vehicle: { pojazdId: number; rejestr: string; aktStanLicz: number | null; klientSymbol: string };
  let walkaround: Template;

  /** Every item of a checklist passed (a tyre with 6 mm of tread), then the given changes. */
  const answers = (template: Template, changes: Record<string, Partial<Answer>> = {}): Answer[] =>
    template.groups.flatMap((g) => g.items.map((i) => ({ pozycja: i.id, wynik: 'pass' as const, ...(i.measure ? { wartosc: 6 } : {}), ...changes[i.id] })));
  const submit = (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.call('POST', '/api/inspections', { token, body, headers });
  const reading = async () => (await t.app.db.selectFrom('car').select(['aktStanLicz', 'kontrolaData']).where('pojazdId', '=', vehicle.pojazdId).executeTakeFirstOrThrow());
  let odometer = 0;
  /** A reading above every earlier one. */
  const nextReading = () => (odometer += 10);

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) tok[who] = await t.signIn(who);
    vehicle = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'aktStanLicz', 'klientSymbol']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow() as typeof vehicle;
    odometer = (vehicle.aktStanLicz ?? 0) + 100;
    // another system takes the client's inspection events (no delivery worker runs here: the messages wait in the outbox)
    const endpoint = await t.call('POST', '/api/webhooks/endpoints', { token: tok.admin, body: { url: 'https://example.com/kontrole', events: ['inspection.submitted'], clients: [vehicle.klientSymbol] } });
    expect(endpoint.statusCode, endpoint.body).toBe(200);
    const templates = await t.call('GET', `/api/inspections/templates?pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca });
    expect(templates.statusCode, templates.body).toBe(200);
    walkaround = (templates.json().templates as Template[]).find((c) => c.id === 'walkaround')!;
  }, 180_000);
  afterAll(async () => t?.close());

  it('offers the vehicle\'s checklists in the caller\'s language, when each is used, and the weekly one as due once a week has passed', async () => {
    expect(walkaround).toMatchObject({ label: 'Kontrola pojazdu (obchód)', occasions: ['periodic', 'adhoc'], odometer: true });
    expect(walkaround.groups.map((g) => g.id)).toEqual(['lights', 'tyres', 'fluids', 'bodywork', 'documents', 'equipment']);
    const tyre = walkaround.groups.find((g) => g.id === 'tyres')!.items[0];
    expect(tyre).toMatchObject({ id: 'tyreFrontLeft', label: 'Opona przednia lewa', opens: 'damage', notApplicable: false, measure: { failBelow: 1.6 } });
    const english = await t.call('GET', `/api/inspections/templates?pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca, headers: { 'accept-language': 'en' } });
    expect((english.json().templates as Template[]).find((c) => c.id === 'handover')).toMatchObject({ label: 'Handover and return inspection', occasions: ['handover', 'return', 'adhoc'] });

    await t.app.db.updateTable('car').set({ kontrolaData: '2020-01-01' }).where('pojazdId', '=', vehicle.pojazdId).execute();
    const due = await t.call('GET', `/api/inspections/templates?pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca });
    expect((due.json().templates as Template[]).find((c) => c.id === 'walkaround')).toMatchObject({ due: true, dueDate: '2020-01-08' });
    // and the driver's Do zrobienia lists it, with the button that opens the inspection
    const todo = await t.call('GET', `/api/reminders/items?rule=inspectionWeekly&pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca });
    expect(todo.json().items[0]).toMatchObject({ rule: 'inspectionWeekly', action: { screen: 'inspection-wizard' } });

    // a vehicle never inspected is due now: its first weekly inspection is not left for ever
    await t.app.db.updateTable('car').set({ kontrolaData: null }).where('pojazdId', '=', vehicle.pojazdId).execute();
    const never = await t.call('GET', `/api/inspections/templates?pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca });
    expect((never.json().templates as Template[]).find((c) => c.id === 'walkaround')).toMatchObject({ due: true, dueDate: null });
    const first = await t.call('GET', `/api/reminders/items?rule=inspectionWeekly&pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca });
    expect(first.json().items[0]).toMatchObject({ rule: 'inspectionWeekly', urgency: 'urgent', dueDate: null, text: 'Wykonaj cotygodniową kontrolę pojazdu — pojazd nie miał jeszcze kontroli', left: 'dziś' });
  });

  it('refuses an incomplete or contradictory inspection, naming the field, in the caller\'s language', async () => {
    const base = { pojazdId: vehicle.pojazdId, szablon: 'walkaround', okazja: 'periodic', licznik: nextReading() };
    const missing = await submit(tok.kierowca, { ...base, answers: answers(walkaround).slice(1) });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'answers', message: 'Odpowiedz na wszystkie pozycje listy; brakuje: Światła mijania i drogowe' }]);

    const all = answers(walkaround, { tyreFrontLeft: { wynik: 'pass', wartosc: 1.0 }, washerFluid: { wynik: 'fail' }, bodyDamage: { wynik: 'fail' }, extinguisher: { wynik: 'na' } });
    const wrong = await submit(tok.kierowca, { ...base, answers: all });
    expect(wrong.statusCode).toBe(400);
    const index = (id: string) => all.findIndex((a) => a.pozycja === id);
    expect(wrong.json().errors).toEqual([
      { field: `answers.${index('tyreFrontLeft')}.wynik`, message: '„Opona przednia lewa”: bieżnik poniżej 1,6 mm to usterka, pozycja nie może być sprawna' },
      // the washer fluid needs no photo; the bodywork does
      { field: `answers.${index('bodyDamage')}.zdjecia`, message: 'Dołącz zdjęcie usterki: „Nadwozie bez nowych uszkodzeń”' },
      { field: `answers.${index('extinguisher')}.wynik`, message: 'Pozycji „Gaśnica” nie można oznaczyć jako „nie dotyczy”' },
    ]);

    const english = await submit(tok.kierowca, { ...base, licznik: null, answers: answers(walkaround) }, { 'accept-language': 'en' });
    expect(english.statusCode).toBe(400);
    expect(english.json().errors).toEqual([{ field: 'licznik', message: 'Enter the odometer reading' }]);

    const lower = await submit(tok.kierowca, { ...base, licznik: 1, answers: answers(walkaround) });
    expect(lower.statusCode).toBe(400);
    expect(lower.json().errors[0].field).toBe('licznik');
    expect(lower.json().detail).toMatch(/Stan licznika nie może być mniejszy/);
    expect(await t.app.db.selectFrom('inspection').select('kontrolaId').where('licznik', '>', vehicle.aktStanLicz ?? 0).where('pojazdId', '=', vehicle.pojazdId).execute()).toEqual([]);
  });

  it('a failed tyre opens a damage report of the vehicle with the tyre\'s photo; the odometer is a reading; the manager hears of it; the webhook carries every answer; the trail has it', async () => {
    const licznik = nextReading();
    const body = {
      pojazdId: vehicle.pojazdId, szablon: 'walkaround', okazja: 'periodic', licznik,
      answers: answers(walkaround, { tyreFrontLeft: { wynik: 'fail', wartosc: 1.0, uwagi: 'Przecięty bok opony', zdjecia: 1 } }),
    };
    const sent = await submit(tok.kierowca, body);
    expect(sent.statusCode, sent.body).toBe(200);
    const answer = sent.json();
    expect(answer).toMatchObject({ wynik: 'failed', iloscUsterek: 1, autId: null });
    expect(answer.nrSprawy).toMatch(/^SZK\//);
    expect(answer.message).toBe(`Kontrola została zapisana; usterki: 1. Otwarto zgłoszenie szkody ${answer.nrSprawy}`);

    // the damage, of the vehicle, describing the tyre
    const damage = await t.app.db.selectFrom('damage').select(['pojazdId', 'opisSzkody', 'rodzSzkod', 'stanLicz']).where('sprawaId', '=', answer.sprawaId).executeTakeFirstOrThrow();
    expect(damage).toMatchObject({ pojazdId: vehicle.pojazdId, rodzSzkod: 'Kontrola pojazdu', stanLicz: licznik });
    expect(damage.opisSzkody).toContain('Opony – Opona przednia lewa (Głębokość bieżnika: 1 mm): Przecięty bok opony');
    // the odometer is the vehicle's reading, and today is its last inspection
    expect((await reading()).aktStanLicz).toBe(licznik);
    expect((await reading()).kontrolaData).not.toBeNull();

    // the photo follows: an attachment of the inspection and of the damage
    const photo = await postMultipart(t, '/api/inspections/photos', tok.kierowca, [
      { name: 'id', value: String(answer.kontrolaId) }, { name: 'pozycja', value: 'tyreFrontLeft' },
      { name: 'file', filename: 'opona.jpg', content: JPEG, type: 'image/jpeg' },
    ], { headers: { 'idempotency-key': 'photo-key-0001.photos0' } });
    expect(photo.statusCode, photo.body).toBe(200);
    expect(photo.json().zalaczIds).toHaveLength(2);
    const onDamage = await t.call('POST', '/api/damage/attachments', { token: tok.manager, body: { id: answer.sprawaId } });
    expect(onDamage.json()).toEqual([expect.objectContaining({ grupa: 'SA_SZKODY', filename: 'opona.jpg', tytul: 'Opona przednia lewa' })]);
    // sent again on a weak signal with the same key: stored once
    const again = await postMultipart(t, '/api/inspections/photos', tok.kierowca, [
      { name: 'id', value: String(answer.kontrolaId) }, { name: 'pozycja', value: 'tyreFrontLeft' },
      { name: 'file', filename: 'opona.jpg', content: JPEG, type: 'image/jpeg' },
    ], { headers: { 'idempotency-key': 'photo-key-0001.photos0' } });
    expect(again.json()).toEqual(photo.json());
    expect(await t.app.db.selectFrom('inspection_photo').select('zalaczId').where('kontrolaId', '=', answer.kontrolaId).execute()).toHaveLength(1);
    // a photo is an image
    const pdf = await postMultipart(t, '/api/inspections/photos', tok.kierowca, [
      { name: 'id', value: String(answer.kontrolaId) }, { name: 'pozycja', value: 'tyreFrontLeft' },
      { name: 'file', filename: 'opona.pdf', content: '%PDF-1.4\n', type: 'application/pdf' },
    ]);
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().errors).toEqual([{ field: 'file', message: 'Zdjęcie musi być plikiem JPG, PNG albo WebP' }]);

    // the inspection with its answers and the photo, as the manager sees it
    const one = await t.call('GET', `/api/inspections/${answer.kontrolaId}`, { token: tok.manager });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().inspection).toMatchObject({ rejestr: vehicle.rejestr, wynik: 'failed', iloscUsterek: 1, nrSprawy: answer.nrSprawy, iloscZdjec: 1, licznik });
    expect(one.json().answers.find((a: { pozycja: string }) => a.pozycja === 'tyreFrontLeft')).toMatchObject({
      etykieta: 'Opona przednia lewa', grupaEtykieta: 'Opony', wynik: 'fail', waga: 'critical', wartosc: 1, uwagi: 'Przecięty bok opony',
      zdjecia: [{ zalaczId: photo.json().zalaczIds[0], filename: 'opona.jpg' }],
    });

    // the client's fleet manager is notified
    const notified = await t.app.db.selectFrom('notification as n').innerJoin('app_user as u', 'u.id', 'n.userId')
      .select(['u.login', 'n.channel']).where('n.event', '=', 'inspectionFailed').where('n.entityId', '=', answer.kontrolaId).execute();
    expect(notified.map((n) => n.login)).toContain('manager');
    expect(notified.map((n) => n.login)).not.toContain('manager2');
    // the webhook event, with every answer
    const messages = await t.app.db.selectFrom('webhook_message').select('payload').where('event', '=', 'inspection.submitted').execute();
    const payload = messages.map((m) => (typeof m.payload === 'string' ? JSON.parse(m.payload) : m.payload)).find((p) => p.data.inspection.kontrolaId === answer.kontrolaId);
    expect(payload.data.inspection).toMatchObject({ kontrolaId: answer.kontrolaId, wynik: 'failed', sprawaId: answer.sprawaId, rejestr: vehicle.rejestr });
    expect(payload.data.answers).toHaveLength(walkaround.groups.flatMap((g) => g.items).length);
    expect(payload.data.answers.find((a: { pozycja: string }) => a.pozycja === 'tyreFrontLeft')).toEqual({ pozycja: 'tyreFrontLeft', grupa: 'tyres', wynik: 'fail', waga: 'critical', wartosc: 1, uwagi: 'Przecięty bok opony' });
    // the trail: the inspection, the reading, the damage, the photos
    const trail = await t.app.db.selectFrom('audit_entry').select(['resource', 'action', 'recordKey']).orderBy('seq').execute();
    expect(trail).toEqual(expect.arrayContaining([
      expect.objectContaining({ resource: 'inspection', action: 'submit', recordKey: String(answer.kontrolaId) }),
      expect.objectContaining({ resource: 'car', action: 'reading', recordKey: String(vehicle.pojazdId) }),
      expect.objectContaining({ resource: 'damage', action: 'create', recordKey: String(answer.sprawaId) }),
      expect.objectContaining({ resource: 'attachment', action: 'create', recordKey: String(photo.json().zalaczIds[1]) }),
    ]));
  });

  it('a failed fluid opens a service-order draft for the vehicle, and nothing is opened for a passed inspection', async () => {
    const sent = await submit(tok.manager, {
      pojazdId: vehicle.pojazdId, szablon: 'walkaround', licznik: nextReading(),
      answers: answers(walkaround, { engineOil: { wynik: 'fail', zdjecia: 1, uwagi: 'Wyciek oleju' }, washerFluid: { wynik: 'fail' } }),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toMatchObject({ wynik: 'failed', iloscUsterek: 2, sprawaId: null, message: 'Kontrola została zapisana; usterki: 2. Otwarto szkic zlecenia serwisowego' });
    const order = await t.app.db.selectFrom('service_order').select(['status', 'pojazdId', 'czySzkoda', 'zgloZakres']).where('autId', '=', sent.json().autId).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 0, pojazdId: vehicle.pojazdId, czySzkoda: false });
    expect(order.zgloZakres).toContain('Płyny – Poziom oleju silnikowego: Wyciek oleju');

    const ok = await submit(tok.kierowca, { pojazdId: vehicle.pojazdId, szablon: 'handover', okazja: 'return', licznik: nextReading(), answers: answers(walkaround.id === 'handover' ? walkaround : await template('handover')) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ wynik: 'ok', iloscUsterek: 0, sprawaId: null, autId: null, message: 'Kontrola została zapisana — bez usterek' });
    expect(await t.app.db.selectFrom('notification').select('id').where('event', '=', 'inspectionFailed').where('entityId', '=', ok.json().kontrolaId).execute()).toEqual([]);
  });

  async function template(id: string): Promise<Template> {
    const all = await t.call('GET', `/api/inspections/templates?pojazdId=${vehicle.pojazdId}`, { token: tok.kierowca });
    return (all.json().templates as Template[]).find((c) => c.id === id)!;
  }

  it('answers a repeated Idempotency-Key with the first answer, and records one inspection', async () => {
    const body = { pojazdId: vehicle.pojazdId, szablon: 'walkaround', okazja: 'adhoc', licznik: nextReading(), answers: answers(walkaround) };
    const first = await submit(tok.kierowca, body, { 'idempotency-key': 'inspection-0001-abcd' });
    const second = await submit(tok.kierowca, body, { 'idempotency-key': 'inspection-0001-abcd' });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json()).toEqual(first.json());
    expect(await t.app.db.selectFrom('inspection').select('kontrolaId').where('licznik', '=', body.licznik).execute()).toHaveLength(1);
  });

  it('lets submit and read whom ACCESS.md names, each within his rows', async () => {
    const body = (licznik: number) => ({ pojazdId: vehicle.pojazdId, szablon: 'walkaround', licznik, answers: answers(walkaround) });
    // "inspections: submit | all | client | own vehicle | —"
    expect((await submit(tok.doradca, body(nextReading()))).statusCode).toBe(403);
    expect((await submit(tok.manager2, body(nextReading()))).statusCode).toBe(404);
    expect((await submit(tok.admin, body(nextReading()))).statusCode).toBe(200);
    const other = await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', vehicle.klientSymbol).where('pojazdId', '!=', vehicle.pojazdId).executeTakeFirstOrThrow();
    const notHis = await submit(tok.kierowca, { ...body(1), pojazdId: other.pojazdId });
    expect(notHis.statusCode).toBe(404);

    // "inspections: read | all | client | own | own vehicle"
    const total = Number((await t.app.db.selectFrom('inspection').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const ofVehicle = Number((await t.app.db.selectFrom('inspection').select((eb) => eb.fn.countAll().as('n')).where('pojazdId', '=', vehicle.pojazdId).executeTakeFirstOrThrow()).n);
    const listed = async (who: string) => (await t.call('GET', '/api/inspections?limit=100', { token: tok[who] })).json();
    expect((await listed('admin')).total).toBe(total);
    expect((await listed('manager')).rows.every((r: { klientSymbol: string }) => r.klientSymbol === vehicle.klientSymbol)).toBe(true);
    expect((await listed('manager')).total).toBeGreaterThanOrEqual(ofVehicle);
    expect((await listed('manager2')).rows.filter((r: { pojazdId: number }) => r.pojazdId === vehicle.pojazdId)).toEqual([]);
    expect((await listed('kierowca')).total).toBe(ofVehicle);
    expect((await listed('doradca')).total).toBe(ofVehicle);
    const someId = (await listed('kierowca')).rows[0].kontrolaId;
    expect((await t.call('GET', `/api/inspections/${someId}`, { token: tok.manager2 })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/inspections/${someId}`, { token: tok.doradca })).statusCode).toBe(200);
    expect((await t.call('GET', `/api/inspections/templates?pojazdId=${other.pojazdId}`, { token: tok.kierowca })).statusCode).toBe(404);
    // the managers' table is the generic table resource, within the same rows
    const count = async (who: string) => {
      const answer = await t.call('POST', '/api/inspection/table-count', { token: tok[who], body: { startRow: 0, endRow: 30 } });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().count as number;
    };
    expect(await count('admin')).toBe(total);
    expect(await count('kierowca')).toBe(ofVehicle);
    expect(await count('manager2')).toBe((await listed('manager2')).total);
  });
});
