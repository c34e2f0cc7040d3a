/**
 * One submission, however often the phone sends it (issue 47): POST /api/counter, /api/damage/add
 * and the attachment upload take an Idempotency-Key; a repeated key of the same user gets the first
 * answer (each attempt signed anew, a fresh nonce) and writes nothing more.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { postMultipart, type FormPart } from '../support/multipart.ts';
import { STALE_MS } from '../../server/plugins/idempotency.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

describe('Idempotency-Key on the driver\'s writes', () => {
  let t: TestApp;
  let driver: string, manager: string;
  let car: { pojazdId: number; rejestr: string; aktStanLicz: number };
  let kowalski: number;

  const counter = (token: string, body: Record<string, unknown>, key?: string) =>
    t.call('POST', '/api/counter', { token, body, headers: key ? { 'idempotency-key': key } : {} });
  const readings = async () => (await sql<{ n: number }>`select count(*)::int as n from mileage_reading where "pojazdId" = ${car.pojazdId}`.execute(t.app.db)).rows[0].n;
  const damages = async () => (await sql<{ n: number }>`select count(*)::int as n from damage`.execute(t.app.db)).rows[0].n;
  const attachments = async () => (await sql<{ n: number }>`select count(*)::int as n from attachment`.execute(t.app.db)).rows[0].n;

  beforeAll(async () => {
    t = await startTestApp();
    driver = await t.signIn('kierowca');
    manager = await t.signIn('manager');
    car = (await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'aktStanLicz']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow()) as typeof car;
    kowalski = (await t.app.db.selectFrom('employee').select('pracId').where('nazwisko', '=', 'Kowalski').where('imie', '=', 'Jan').executeTakeFirstOrThrow()).pracId;
  });
  afterAll(async () => t?.close());

  it('answers a reading sent twice with one key with the first answer and stores one reading', async () => {
    const before = await readings();
    const body = { pojaId: car.pojazdId, licznik: car.aktStanLicz + 50 };
    const first = await counter(driver, body, 'reading-0001-aaaa');
    expect(first.statusCode, first.body).toBe(200);
    const again = await counter(driver, body, 'reading-0001-aaaa');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await readings()).toBe(before + 1);
    // without a key, the same body is a new reading as before
    expect((await counter(driver, body)).statusCode).toBe(200);
    expect(await readings()).toBe(before + 2);
    car.aktStanLicz += 50;
  });

  it('keeps a refusal as the submission\'s answer: a reading below the last one is refused again, in Polish', async () => {
    const low = { pojaId: car.pojazdId, licznik: car.aktStanLicz - 10 };
    const first = await counter(driver, low, 'reading-low-0001');
    expect(first.statusCode).toBe(400);
    const again = await counter(driver, low, 'reading-low-0001');
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual(first.json().errors);
    expect(first.json().errors[0].message).toMatch(/nie może być mniejszy niż ostatni odczyt/);
  });

  it('keeps keys per user, refuses a key reused for another body and a malformed key', async () => {
    const body = { pojaId: car.pojazdId, licznik: car.aktStanLicz + 1 };
    expect((await counter(driver, body, 'shared-key-0001')).statusCode).toBe(200);
    // the manager's own submission with the same key is his own, not the driver's answer
    const managers = await counter(manager, { pojaId: car.pojazdId, licznik: car.aktStanLicz + 2 }, 'shared-key-0001');
    expect(managers.statusCode).toBe(200);
    expect(managers.headers['idempotent-replayed']).toBeUndefined();
    car.aktStanLicz += 2;
    const reused = await counter(driver, { pojaId: car.pojazdId, licznik: car.aktStanLicz + 3 }, 'shared-key-0001');
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', detail: 'Ten klucz Idempotency-Key został już użyty dla innego żądania' });
    const bad = await counter(driver, body, 'zły klucz');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('IDEMPOTENCY_KEY_INVALID');
  });

  it('answers an attempt while the first runs 409 in progress, and takes over a key left by a request that died before writing', async () => {
    const body = { pojaId: car.pojazdId, licznik: car.aktStanLicz + 5 };
    const fingerprintOf = async (key: string) => {
      // the first attempt's row, as a running request leaves it: taken, no answer yet
      await counter(driver, body, key);
      await t.app.db.updateTable('idempotency_key').set({ status: null, body: null, committed: false }).where('key', '=', key).execute();
    };
    await fingerprintOf('running-0001');
    car.aktStanLicz += 5;
    const busy = await counter(driver, body, 'running-0001');
    expect(busy.statusCode).toBe(409);
    expect(busy.json().code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect(busy.headers['retry-after']).toBe('2');
    // older than STALE_MS and never committed: the request died before writing; the next attempt runs
    await t.app.db.updateTable('idempotency_key').set({ createdAt: new Date(Date.now() - STALE_MS - 1000) }).where('key', '=', 'running-0001').execute();
    const before = await readings();
    const taken = await counter(driver, body, 'running-0001');
    expect(taken.statusCode, taken.body).toBe(200);
    expect(await readings()).toBe(before + 1);
  });

  it('never writes twice a submission committed whose answer was lost (the process died after its commit)', async () => {
    const body = { pojaId: car.pojazdId, licznik: car.aktStanLicz + 7 };
    const first = await counter(driver, body, 'lost-answer-0001');
    expect(first.statusCode).toBe(200);
    car.aktStanLicz += 7;
    // the row the business write marked committed in its transaction, as a crash before the answer leaves it
    const row = await t.app.db.selectFrom('idempotency_key').select('committed').where('key', '=', 'lost-answer-0001').executeTakeFirstOrThrow();
    expect(row.committed).toBe(true);
    await t.app.db.updateTable('idempotency_key').set({ status: null, body: null, createdAt: new Date(Date.now() - STALE_MS - 1000) }).where('key', '=', 'lost-answer-0001').execute();
    const before = await readings();
    const again = await counter(driver, body, 'lost-answer-0001');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('IDEMPOTENCY_DONE');
    expect(await readings()).toBe(before);
  });

  it('reports a damage and uploads its photo once, however often each is sent', async () => {
    const damage = {
      pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: kowalski, dataSzkod: new Date().toISOString(),
      rodzSzkod: 'Kolizja drogowa', zgloNazwiskoImie: 'Nowak Anna', zgloTelef: '+48 600 100 200', zgloEmail: 'anna.nowak@transbud.pl',
    };
    const beforeDamages = await damages();
    const send = () => t.call('POST', '/api/damage/add', { token: driver, body: damage, headers: { 'idempotency-key': 'damage-0001-abcd' } });
    const first = await send();
    expect(first.statusCode, first.body).toBe(200);
    const again = await send();
    expect(again.json().sprawaId).toBe(first.json().sprawaId);
    expect(await damages()).toBe(beforeDamages + 1);

    const parts: FormPart[] = [
      { name: 'id', value: String(first.json().sprawaId) }, { name: 'group', value: 'SA_SZKODY' },
      { name: 'tytul', value: 'Zdjęcie 1' }, { name: 'opis', value: 'Rysa na zderzaku' },
      { name: 'file', filename: 'rysa.png', content: PNG, type: 'image/png' },
    ];
    const beforeFiles = await attachments();
    // an attempt whose signature is refused (checked as the upload streams) is not the submission's answer
    const forged = await postMultipart(t, '/api/attachment/upload', driver, parts, { signature: 'A'.repeat(43), headers: { 'idempotency-key': 'photo-0001-abcd' } });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toMatch(/^SIGNATURE_/);
    const upload = () => postMultipart(t, '/api/attachment/upload', driver, parts, { headers: { 'idempotency-key': 'photo-0001-abcd' } });
    const sent = await upload();
    expect(sent.statusCode, sent.body).toBe(200);
    const resent = await upload();
    expect(resent.statusCode).toBe(200);
    expect(resent.json()).toEqual(sent.json());
    expect(await attachments()).toBe(beforeFiles + 1);
  });

  it('documents the header and its 409 on the three calls', async () => {
    const doc = (await t.call('GET', '/api/docs/json')).json();
    for (const [path, id] of [['/api/counter', 'carCounter'], ['/api/damage/add', 'damageAdd'], ['/api/attachment/upload', 'attachmentUpload']]) {
      const op = doc.paths[path].post;
      expect(op.operationId).toBe(id);
      expect(op.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
      expect(op.responses['409']).toBeDefined();
    }
  });
});
