/**
 * Attachments (issue 13; spec §5 Attachment, §6 ADMIN, §7 Attachments, §8; ACCESS.md "note,
 * attachment: the parent record's scope", "attachment delete: ADMIN"). Uploads are real signed
 * multipart bodies; every refusal is checked to leave nothing stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyPdf } from '../../server/seed/pdf.ts';
import { postMultipart, type FormPart } from '../support/multipart.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Who = 'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca';
type Group = 'SA_POJA' | 'SA_PRZYDZ' | 'SA_AUTO' | 'SA_SZKODY';

const PDF = tinyPdf(['Protokol zdawczo-odbiorczy']);
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510, 0x90)]);
const EXPIRED = 'Link do pobrania wygasł lub został już użyty. Wróć do portalu i pobierz plik ponownie.';

/**
 * Who may attach to which record, written from ACCESS.md: the manager's client (KL001) owns the
 * demo vehicle WZ12345, its assignment, order and damage; the driver (USER) and the advisor
 * (ADVISOR, station SS01) signed in with that vehicle; manager2 is another client's.
 */
const MAY_ATTACH: Record<Group, Who[]> = {
  SA_POJA: ['admin', 'manager', 'kierowca', 'doradca'],
  SA_PRZYDZ: ['admin', 'manager'],
  SA_AUTO: ['admin', 'manager', 'kierowca', 'doradca'],
  SA_SZKODY: ['admin', 'manager', 'kierowca'],
};
const EVERYONE: Who[] = ['admin', 'manager', 'manager2', 'kierowca', 'doradca'];

describe('attachments', () => {
  let t: TestApp;
  const tok = {} as Record<Who, string>;
  const parent = {} as Record<Group, number>;
  let foreignCar: number;

  const upload = (who: Who | undefined, parts: FormPart[], signature?: string) => postMultipart(t, '/api/attachment/upload', who && tok[who], parts, { signature });
  const form = (group: Group, id: number, file: { filename: string; content: Buffer | string } | null, fields: Record<string, string> = {}): FormPart[] => [
    { name: 'id', value: String(id) },
    { name: 'group', value: group },
    { name: 'tytul', value: fields.tytul ?? 'Protokół' },
    { name: 'opis', value: fields.opis ?? 'Protokół wydania pojazdu' },
    ...(file ? [{ name: 'file', ...file }] : []),
  ];
  const stored = async () => Number((await t.app.db.selectFrom('attachment').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const post = (who: Who, path: string, body: unknown) => t.call('POST', `/api${path}`, { token: tok[who], body });
  const linkFor = async (who: Who, zalaczId: number) => {
    const res = await post(who, '/attachment/download-link', { zalaczId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  const download = (id: number, token: string, preview?: string, headers?: Record<string, string>) =>
    t.call('GET', `/api/attachment/download?id=${id}&token=${encodeURIComponent(token)}${preview === undefined ? '' : `&preview=${preview}`}`, { headers });
  const fileNameOf = (res: { headers: Record<string, unknown> }) => decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1]);
  /** Uploads a PDF as the manager and answers its zalaczId. */
  const managerPdf = async (group: Group = 'SA_POJA', filename = 'protokół wydania.pdf') => {
    const res = await upload('manager', form(group, parent[group], { filename, content: PDF }));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().zalaczIds[0] as number;
  };

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of EVERYONE) tok[who] = await t.signIn(who);
    const db = t.app.db;
    const car = await db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    parent.SA_POJA = car.pojazdId;
    parent.SA_PRZYDZ = (await db.selectFrom('vehicle_assignment').select('przydzialId').where('pojazdId', '=', car.pojazdId).orderBy('przydzialId').executeTakeFirstOrThrow()).przydzialId;
    parent.SA_AUTO = (await db.selectFrom('service_order').select('autId').where('pojazdId', '=', car.pojazdId).orderBy('autId').executeTakeFirstOrThrow()).autId;
    parent.SA_SZKODY = (await db.selectFrom('damage').select('sprawaId').where('pojazdId', '=', car.pojazdId).orderBy('sprawaId').executeTakeFirstOrThrow()).sprawaId;
    foreignCar = (await db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', 'KL002').orderBy('pojazdId').executeTakeFirstOrThrow()).pojazdId;
  }, 120_000);
  afterAll(async () => t?.close());

  it('lets a manager attach a PDF to a vehicle, lists it, and opens it once through a one-time link, inline for a preview', async () => {
    const res = await upload('manager', form('SA_POJA', parent.SA_POJA, { filename: 'protokół wydania.pdf', content: PDF }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Dodano załącznik');
    const [zalaczId] = res.json().zalaczIds;
    const list = await post('manager', '/car/details-attachments', { id: parent.SA_POJA });
    expect(list.statusCode).toBe(200);
    expect(list.json()[0]).toMatchObject({ zalaczId, tytul: 'Protokół', opis: 'Protokół wydania pojazdu', filename: 'protokół wydania.pdf', mime: 'application/pdf', size: PDF.length, grupa: 'SA_POJA' });
    expect(list.json()[0]).not.toHaveProperty('content');

    const token = await linkFor('manager', zalaczId);
    const file = await download(zalaczId, token, 'true');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(String(file.headers['content-disposition'])).toMatch(/^inline; /);
    expect(fileNameOf(file)).toBe('protokół wydania.pdf');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    // the same link a second time
    const again = await download(zalaczId, token, 'true');
    expect(again.statusCode).toBe(403);
    expect(again.json().detail).toBe(EXPIRED);
  });

  it('downloads (not previews) a file without preview, and never shows a text file inline', async () => {
    const zalaczId = await managerPdf();
    const saved = await download(zalaczId, await linkFor('manager', zalaczId));
    expect(String(saved.headers['content-disposition'])).toMatch(/^attachment; filename="protokol_wydania.pdf"; filename\*=UTF-8''/);
    const txt = await upload('manager', form('SA_POJA', parent.SA_POJA, { filename: 'notatka.txt', content: 'Zwykły tekst notatki\n' }));
    expect(txt.statusCode, txt.body).toBe(200);
    const id = txt.json().zalaczIds[0];
    const shown = await download(id, await linkFor('manager', id), 'true');
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(String(shown.headers['content-disposition'])).toMatch(/^attachment; /);
    expect(shown.headers['x-content-type-options']).toBe('nosniff');
  });

  for (const group of Object.keys(MAY_ATTACH) as Group[]) {
    it(`attaches to a ${group} record exactly for the roles whose scope holds it, and answers everyone else as if it were absent`, async () => {
      for (const who of EVERYONE) {
        const before = await stored();
        const res = await upload(who, form(group, parent[group], { filename: `${who}.png`, content: PNG }));
        if (MAY_ATTACH[group].includes(who)) {
          expect(res.statusCode, `${who} ${res.body}`).toBe(200);
          const listed = await t.call('GET', `/api/attachment?group=${group}&id=${parent[group]}`, { token: tok[who] });
          expect(listed.json().map((a: any) => a.zalaczId), who).toContain(res.json().zalaczIds[0]);
          expect(await stored()).toBe(before + 1);
        } else {
          expect(res.statusCode, `${who} ${res.body}`).toBe(404);
          expect(await stored(), who).toBe(before);
          const listed = await t.call('GET', `/api/attachment?group=${group}&id=${parent[group]}`, { token: tok[who] });
          expect(listed.statusCode, who).toBe(404);
        }
      }
    });
  }

  it('lists each record’s attachments under its own call, for the parent’s roles only', async () => {
    const calls: [string, Group, Who[]][] = [
      ['/assignment/attachments', 'SA_PRZYDZ', ['admin', 'manager']],
      ['/damage/attachments', 'SA_SZKODY', ['admin', 'manager', 'kierowca']],
      ['/car/details-attachments', 'SA_POJA', ['admin', 'manager', 'kierowca', 'doradca']],
      ['/order/order-attachments', 'SA_AUTO', ['admin', 'manager', 'kierowca', 'doradca']],
    ];
    for (const [path, group, allowed] of calls) {
      const zalaczId = await managerPdf(group);
      for (const who of EVERYONE) {
        const res = await post(who, path, { id: parent[group] });
        if (allowed.includes(who)) {
          expect(res.statusCode, `${who} ${path}`).toBe(200);
          expect(res.json().map((a: any) => a.zalaczId), `${who} ${path}`).toContain(zalaczId);
          expect(res.json().every((a: any) => a.grupa === group)).toBe(true);
        } else {
          expect([403, 404], `${who} ${path}: ${res.statusCode}`).toContain(res.statusCode);
        }
      }
    }
  });

  it('refuses another client’s vehicle as if it did not exist, storing nothing', async () => {
    const before = await stored();
    const res = await upload('manager', form('SA_POJA', foreignCar, { filename: 'a.pdf', content: PDF }));
    expect(res.statusCode).toBe(404);
    expect(await stored()).toBe(before);
    expect((await post('manager', '/car/details-attachments', { id: foreignCar })).statusCode).toBe(404);
  });

  describe('refused uploads store nothing and say why in Polish', () => {
    const cases: [string, () => FormPart[], string, string][] = [
      ['a missing title', () => form('SA_POJA', parent.SA_POJA, { filename: 'a.pdf', content: PDF }, { tytul: '   ' }), 'tytul', 'Tytuł nie może być pusty'],
      ['a title of 30 characters', () => form('SA_POJA', parent.SA_POJA, { filename: 'a.pdf', content: PDF }, { tytul: 'x'.repeat(30) }), 'tytul', 'Pole może mieć najwyżej 29 znaków'],
      ['a missing description', () => form('SA_POJA', parent.SA_POJA, { filename: 'a.pdf', content: PDF }, { opis: '' }), 'opis', 'Opis nie może być pusty'],
      ['a description of 256 characters', () => form('SA_POJA', parent.SA_POJA, { filename: 'a.pdf', content: PDF }, { opis: 'o'.repeat(256) }), 'opis', 'Pole może mieć najwyżej 255 znaków'],
      ['no file', () => form('SA_POJA', parent.SA_POJA, null), 'file', 'Wybierz plik'],
      ['a wrong extension', () => form('SA_POJA', parent.SA_POJA, { filename: 'program.exe', content: EXE }), 'file',
        'Niedozwolone rozszerzenie pliku. Dozwolone rozszerzenia: pdf, jpg, jpeg, png, doc, docx, xls, xlsx, txt'],
      ['content that does not match its extension (a program named .pdf)', () => form('SA_POJA', parent.SA_POJA, { filename: 'faktura.pdf', content: EXE }), 'file',
        'Zawartość pliku nie odpowiada jego rozszerzeniu'],
      ['a PNG named .jpg', () => form('SA_POJA', parent.SA_POJA, { filename: 'zdjecie.jpg', content: PNG }), 'file', 'Zawartość pliku nie odpowiada jego rozszerzeniu'],
      ['a binary named .txt', () => form('SA_POJA', parent.SA_POJA, { filename: 'notatka.txt', content: PDF }), 'file', 'Zawartość pliku nie odpowiada jego rozszerzeniu'],
      ['two files for one attachment', () => [...form('SA_POJA', parent.SA_POJA, { filename: 'a.pdf', content: PDF }), { name: 'file', filename: 'b.pdf', content: PDF }], 'file',
        'Do jednego załącznika można dodać tylko jeden plik'],
      ['an unknown group', () => form('SA_XXX' as Group, parent.SA_POJA, { filename: 'a.pdf', content: PDF }), 'group', 'Wybierz jedną z dostępnych wartości'],
    ];
    for (const [name, parts, field, message] of cases) {
      it(`refuses ${name}`, async () => {
        const before = await stored();
        const res = await upload('manager', parts());
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json().errors).toContainEqual({ field, message });
        expect(await stored()).toBe(before);
      });
    }

    it('refuses a file over the configured size while it streams, naming the limit in MB', async () => {
      const config = t.app.config.bundle.config as { attachmentMaxSizeKb: number };
      const configured = config.attachmentMaxSizeKb;
      config.attachmentMaxSizeKb = 512;
      try {
        const before = await stored();
        const big = Buffer.concat([PDF, Buffer.alloc(600 * 1024, 0x20)]);
        const res = await upload('manager', form('SA_POJA', parent.SA_POJA, { filename: 'duzy.pdf', content: big }));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'ATTACHMENT_TOO_LARGE', errors: [{ field: 'file', message: 'Plik jest za duży. Maksymalny rozmiar pliku to 0.5 MB' }] });
        expect(res.headers.connection).toBe('close');
        expect(await stored()).toBe(before);
        // exactly at the limit is fine
        const fits = await upload('manager', form('SA_POJA', parent.SA_POJA, { filename: 'rowny.pdf', content: Buffer.concat([PDF, Buffer.alloc(512 * 1024 - PDF.length, 0x20)]) }));
        expect(fits.statusCode, fits.body).toBe(200);
      } finally {
        config.attachmentMaxSizeKb = configured;
      }
    });

    it('refuses an upload whose signature does not cover its bytes, and one without a signature', async () => {
      const before = await stored();
      const forged = await upload('manager', form('SA_POJA', parent.SA_POJA, { filename: 'a.pdf', content: PDF }), 'AAAA');
      expect(forged.statusCode).toBe(400);
      expect(forged.json().code).toBe('SIGNATURE_MISMATCH');
      const unsigned = await t.app.inject({ method: 'POST', url: '/api/attachment/upload', headers: { authorization: `Bearer ${tok.manager}`, 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x--\r\n' });
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json().code).toBe('SIGNATURE_MISSING');
      expect(await stored()).toBe(before);
    });

    it('refuses a JSON body at the upload', async () => {
      const res = await t.call('POST', '/api/attachment/upload', { token: tok.manager, body: { id: parent.SA_POJA } });
      expect(res.statusCode).toBe(415);
    });
  });

  describe('the multiple upload (indexed fields)', () => {
    const indexed = (files: { tytul: string; filename: string; content: Buffer }[]): FormPart[] => [
      { name: 'id', value: String(parent.SA_AUTO) },
      { name: 'group', value: 'SA_AUTO' },
      ...files.flatMap((f, i): FormPart[] => [
        { name: `tytul[${i}]`, value: f.tytul },
        { name: `opis[${i}]`, value: `Opis ${i}` },
        { name: `file[${i}]`, filename: f.filename, content: f.content },
      ]),
    ];

    it('stores every attachment of the form', async () => {
      const res = await upload('manager', indexed([{ tytul: 'Pierwszy', filename: 'a.pdf', content: PDF }, { tytul: 'Drugi', filename: 'b.png', content: PNG }]));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().zalaczIds).toHaveLength(2);
      expect(res.json().message).toBe('Dodano załączniki (2)');
      const list = await post('manager', '/order/order-attachments', { id: parent.SA_AUTO });
      expect(list.json().map((a: any) => a.tytul)).toEqual(expect.arrayContaining(['Pierwszy', 'Drugi']));
    });

    it('stores none when one of them is refused, naming its index', async () => {
      const before = await stored();
      const res = await upload('manager', indexed([{ tytul: 'Dobry', filename: 'a.pdf', content: PDF }, { tytul: 'Zły', filename: 'b.pdf', content: EXE }]));
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'file[1]', message: 'Zawartość pliku nie odpowiada jego rozszerzeniu' }]);
      expect(await stored()).toBe(before);
    });
  });

  describe('file names are data, never paths', () => {
    const names: [string, string, string][] = [
      ['a path climbing out', 'filename="../../etc/passwd.pdf"', 'passwd.pdf'],
      ['control characters', 'filename="z\u0001a\u001bo\u007fz.pdf"', 'zaoz.pdf'],
      ['300 characters', `filename="${'n'.repeat(300)}.pdf"`, `${'n'.repeat(196)}.pdf`],
    ];
    for (const [name, raw, expected] of names) {
      it(`stores and offers a name with ${name} harmlessly`, async () => {
        const res = await upload('manager', [
          { name: 'id', value: String(parent.SA_POJA) }, { name: 'group', value: 'SA_POJA' }, { name: 'tytul', value: 'Nazwa' }, { name: 'opis', value: 'Nazwa pliku' },
          { name: 'file', filename: '', rawFilename: raw, content: PDF },
        ]);
        expect(res.statusCode, res.body).toBe(200);
        const zalaczId = res.json().zalaczIds[0];
        const row = await t.app.db.selectFrom('attachment').select('filename').where('zalaczId', '=', zalaczId).executeTakeFirstOrThrow();
        expect(row.filename).not.toMatch(/[/\\\u0000-\u001f]/);
        expect(row.filename.length).toBeLessThanOrEqual(200);
        const file = await download(zalaczId, await linkFor('manager', zalaczId));
        const header = String(file.headers['content-disposition']);
        expect(header).not.toMatch(/[\r\n]/);
        expect(header).toMatch(/^attachment; filename="[A-Za-z0-9._-]+"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
        expect(fileNameOf(file)).toBe(expected);
      });
    }
  });

  describe('title and description change', () => {
    it('changes them for a record the caller sees, and answers another client as if absent', async () => {
      const zalaczId = await managerPdf();
      const ok = await post('manager', '/attachment/update', { zalaczId, tytul: 'Nowy tytuł', opis: 'Nowy opis' });
      expect(ok.statusCode, ok.body).toBe(200);
      const row = await t.app.db.selectFrom('attachment').select(['tytul', 'opis']).where('zalaczId', '=', zalaczId).executeTakeFirstOrThrow();
      expect(row).toEqual({ tytul: 'Nowy tytuł', opis: 'Nowy opis' });
      const foreign = await post('manager2', '/attachment/update', { zalaczId, tytul: 'Cudzy', opis: 'Cudzy' });
      expect(foreign.statusCode).toBe(404);
      const empty = await post('manager', '/attachment/update', { zalaczId, tytul: ' ', opis: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().errors).toEqual(expect.arrayContaining([
        { field: 'tytul', message: 'Tytuł nie może być pusty' },
        { field: 'opis', message: 'Opis nie może być pusty' },
      ]));
    });
  });

  describe('links and removal', () => {
    it('gives no link for another client’s attachment, and a link opens only its own attachment', async () => {
      const zalaczId = await managerPdf();
      expect((await post('manager2', '/attachment/download-link', { zalaczId })).statusCode).toBe(404);
      expect((await post('doradca', '/attachment/download-link', { attachmentId: zalaczId })).statusCode).toBe(200);
      const other = await managerPdf();
      const token = await linkFor('manager', zalaczId);
      expect((await download(other, token)).statusCode).toBe(403);
      // a wrong record did not spend it
      expect((await download(zalaczId, token)).statusCode).toBe(200);
      // a link ends with the session that asked for it
      const session = await t.signIn('manager');
      const link = await t.call('POST', '/api/attachment/download-link', { token: session, body: { zalaczId } });
      await t.call('POST', '/api/user/logout', { token: session });
      const dead = await download(zalaczId, link.json().token, undefined, { accept: 'text/html' });
      expect(dead.statusCode).toBe(403);
      expect(dead.headers['content-type']).toContain('text/html');
    });

    it('lets only ADMIN delete an attachment, file and record together', async () => {
      const zalaczId = await managerPdf();
      for (const who of ['manager', 'kierowca', 'doradca', 'manager2'] as Who[]) {
        const res = await t.call('DELETE', `/api/attachment/${zalaczId}`, { token: tok[who] });
        expect(res.statusCode, who).toBe(403);
      }
      const removed = await t.call('DELETE', `/api/attachment/${zalaczId}`, { token: tok.admin });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().message).toBe('Usunięto załącznik');
      expect(await t.app.db.selectFrom('attachment').select('zalaczId').where('zalaczId', '=', zalaczId).executeTakeFirst()).toBeUndefined();
      expect((await t.call('DELETE', `/api/attachment/${zalaczId}`, { token: tok.admin })).statusCode).toBe(404);
    });
  });
});
