/**
 * An invoice's files (spec §2 "Invoices", §7; ACCESS.md "invoice: table, download-link, files:
 * ADMIN all, MANAGER client"): a signed POST /api/invoice/download-link gives a one-time token for
 * an invoice the caller may see; GET /api/invoice/f and /a, opened in a new window without a bearer
 * header, serve the invoice and its attachment as PDFs for that token — once, within minutes, for
 * that invoice only, and only while the session that asked is alive.
 */
import { PDFDocument } from 'pdf-lib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

interface InvoiceRow {
  faktId: number;
  faktNrCaly: string;
  dokument: string;
  klient: string;
  iloscZal: number;
}

const EXPIRED = 'Link do pobrania wygasł lub został już użyty. Wróć do portalu i pobierz plik ponownie.';

describe('invoice files through one-time download tokens', () => {
  let t: TestApp;
  const bearer: Record<'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca', string> = {} as any;
  let invoices: InvoiceRow[];
  /** The manager's (client KL001) invoices with 2, 1 and 0 files, and another client's with 2. */
  let two: InvoiceRow, twoMore: InvoiceRow, one: InvoiceRow, none: InvoiceRow, foreign: InvoiceRow;

  const link = (token: string | undefined, body: unknown, sign = true) => t.call('POST', '/api/invoice/download-link', { token, body, sign });
  const file = (kind: 'f' | 'a', id: number | string, token: string | undefined, headers?: Record<string, string>) =>
    t.call('GET', `/api/invoice/${kind}?id=${id}${token === undefined ? '' : `&token=${encodeURIComponent(token)}`}`, { headers });
  const tokenFor = async (who: keyof typeof bearer, faktId: number) => {
    const res = await link(bearer[who], { faktId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  const pdfTitle = async (body: Buffer) => (await PDFDocument.load(body, { updateMetadata: false })).getTitle();

  beforeAll(async () => {
    t = await startTestApp();
    const names = ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const;
    const tokens = await Promise.all(names.map((n) => t.signIn(n)));
    names.forEach((n, i) => (bearer[n] = tokens[i]));
    invoices = (await t.app.db.selectFrom('v_invoice').select(['faktId', 'faktNrCaly', 'dokument', 'klient', 'iloscZal']).orderBy('faktId').execute()) as InvoiceRow[];
    const mine = invoices.filter((i) => i.klient === 'KL001');
    [two, twoMore] = mine.filter((i) => i.iloscZal === 2);
    one = mine.find((i) => i.iloscZal === 1)!;
    none = mine.find((i) => i.iloscZal === 0)!;
    foreign = invoices.find((i) => i.klient === 'KL002' && i.iloscZal === 2)!;
    expect([two, twoMore, one, none, foreign].every(Boolean)).toBe(true);
  }, 120_000);
  afterAll(async () => t?.close());

  it('gives a manager a token for an invoice of their client, and the invoice opens as an inline PDF without a bearer header', async () => {
    const token = await tokenFor('manager', two.faktId);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await file('f', two.faktId, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('inline;');
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1])).toBe(`Faktura ${two.faktNrCaly.replaceAll('/', '_')}.pdf`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // the document is this invoice: its title names its kind and number
    expect(await pdfTitle(res.rawPayload)).toBe(`${two.dokument} nr ${two.faktNrCaly}`);
  });

  it('serves the attachment ("Załącznik do faktury") of an invoice with two files', async () => {
    const res = await file('a', two.faktId, await tokenFor('manager', two.faktId));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1])).toBe(`Załącznik do faktury ${two.faktNrCaly.replaceAll('/', '_')}.pdf`);
    expect(await pdfTitle(res.rawPayload)).toBe(`Załącznik do faktury nr ${two.faktNrCaly}`);
  });

  it('serves each invoice its own document', async () => {
    const a = await file('f', two.faktId, await tokenFor('manager', two.faktId));
    const b = await file('f', twoMore.faktId, await tokenFor('manager', twoMore.faktId));
    expect(a.rawPayload.equals(b.rawPayload)).toBe(false);
    expect(await pdfTitle(b.rawPayload)).toContain(twoMore.faktNrCaly);
    expect(await pdfTitle(a.rawPayload)).not.toContain(twoMore.faktNrCaly);
  });

  it('lets an administrator open any client’s invoice', async () => {
    const res = await file('f', foreign.faktId, await tokenFor('admin', foreign.faktId));
    expect(res.statusCode).toBe(200);
    expect(await pdfTitle(res.rawPayload)).toContain(foreign.faktNrCaly);
  });

  it('answers a manager asking for another client’s invoice as if it did not exist, and an unknown id alike', async () => {
    for (const faktId of [foreign.faktId, 999_999]) {
      const res = await link(bearer.manager, { faktId });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ detail: 'Nie znaleziono' });
      expect(res.body).not.toContain(foreign.faktNrCaly);
    }
  });

  it('refuses drivers and service advisors (403)', async () => {
    for (const who of ['kierowca', 'doradca'] as const) {
      const res = await link(bearer[who], { faktId: two.faktId });
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ code: 'FORBIDDEN', detail: 'Brak uprawnień do tej operacji' });
    }
  });

  it('refuses a call without a session or with a forged bearer token (401)', async () => {
    for (const token of [undefined, 'A'.repeat(43)]) {
      const res = await link(token, { faktId: two.faktId });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('UNAUTHORIZED');
    }
  });

  it('refuses an unsigned request', async () => {
    const res = await link(bearer.manager, { faktId: two.faktId }, false);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'SIGNATURE_MISSING' });
  });

  it('answers a bad body with 400 naming the field in Polish', async () => {
    const cases: [unknown, string][] = [
      [{}, 'Pole nie może być puste'],
      [{ faktId: 'abc' }, 'Niepoprawna wartość'],
      [{ faktId: 0 }, 'Pole musi być większe równe 1'],
    ];
    for (const [body, message] of cases) {
      const res = await link(bearer.manager, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toEqual([{ field: 'faktId', message }]);
    }
    const extra = await link(bearer.manager, { faktId: two.faktId, kind: 'F' });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().errors).toEqual([{ field: 'kind', message: 'Nieznane pole' }]);
  });

  it('opens once: the same link a second time is refused, with a Polish page for a browser window', async () => {
    const token = await tokenFor('manager', two.faktId);
    expect((await file('f', two.faktId, token)).statusCode).toBe(200);
    const again = await file('f', two.faktId, token);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'DOWNLOAD_EXPIRED', detail: EXPIRED });
    const page = await file('f', two.faktId, token, { accept: 'text/html,application/xhtml+xml' });
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(EXPIRED);
  });

  it('opens one file per token: the invoice’s token spent on the invoice does not open its attachment', async () => {
    const token = await tokenFor('manager', two.faktId);
    expect((await file('f', two.faktId, token)).statusCode).toBe(200);
    expect((await file('a', two.faktId, token)).statusCode).toBe(403);
  });

  it('refuses an expired token', async () => {
    const token = await tokenFor('manager', twoMore.faktId);
    await sql`update download_token set "expiresAt" = now() - interval '1 second' where "refId" = ${String(twoMore.faktId)} and "usedAt" is null`.execute(t.app.db);
    const res = await file('f', twoMore.faktId, token);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe(EXPIRED);
  });

  it('does not open another invoice with a token, and the mistake does not spend it', async () => {
    const token = await tokenFor('manager', two.faktId);
    for (const other of [twoMore.faktId, foreign.faktId]) {
      expect((await file('f', other, token)).statusCode).toBe(403);
      expect((await file('a', other, token)).statusCode).toBe(403);
    }
    expect((await file('f', two.faktId, token)).statusCode).toBe(200);
  });

  it('refuses a missing, malformed or forged token and answers a malformed id with 400', async () => {
    for (const token of [undefined, '', 'abc', 'A'.repeat(43)]) {
      const res = await file('f', two.faktId, token);
      expect(res.statusCode, String(token)).toBe(403);
      expect(res.json().detail).toBe(EXPIRED);
    }
    const res = await file('f', 'abc', 'A'.repeat(43));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ field: 'id', message: 'Niepoprawny format' }]);
  });

  it('answers 404 for a file the invoice does not have (no files at all; no attachment)', async () => {
    const noFiles = await file('f', none.faktId, await tokenFor('manager', none.faktId));
    expect(noFiles.statusCode).toBe(404);
    expect(noFiles.json().detail).toBe('Ta faktura nie ma takiego pliku.');
    expect((await file('f', one.faktId, await tokenFor('manager', one.faktId))).statusCode).toBe(200);
    const noAttachment = await file('a', one.faktId, await tokenFor('manager', one.faktId));
    expect(noAttachment.statusCode).toBe(404);
    expect(noAttachment.json().detail).toBe('Ta faktura nie ma takiego pliku.');
  });

  it('kills the link when its session signs out', async () => {
    const session = await t.signIn('manager');
    const res = await link(session, { faktId: two.faktId });
    const token = res.json().token as string;
    expect((await t.call('POST', '/api/user/logout', { token: session, body: {} })).statusCode).toBeLessThan(300);
    const after = await file('f', two.faktId, token);
    expect(after.statusCode).toBe(403);
    expect(after.json().detail).toBe(EXPIRED);
  });

  it('checks the rows again when the link is opened: a manager moved to another client no longer opens the old client’s invoice', async () => {
    const token = await tokenFor('manager2', foreign.faktId);
    await t.app.db.updateTable('app_user').set({ klientSymbol: 'KL003' }).where('login', '=', 'manager2').execute();
    try {
      const res = await file('f', foreign.faktId, token);
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Nie znaleziono');
    } finally {
      await t.app.db.updateTable('app_user').set({ klientSymbol: 'KL002' }).where('login', '=', 'manager2').execute();
    }
  });
});
