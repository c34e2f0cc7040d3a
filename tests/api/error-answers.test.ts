/**
 * The error answers of the document are the server's (issue 27): for one operation of every
 * resource (tag), a real error answer has a status the operation declares, through a shared
 * component of `components.responses` (referenced, not copied), its body is the one error schema
 * (`error-response`) and it says in Polish what the spec's message says, naming the field where
 * one is at fault. The expected texts are written out here, not read from locales/.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswer, operationOf } from '../support/conformance.ts';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

let t: TestApp;
const tokens = {} as Record<DemoAccount, string>;

beforeAll(async () => {
  t = await startTestApp();
  for (const who of ['admin', 'manager', 'kierowca', 'doradca'] as DemoAccount[]) tokens[who] = await t.signIn(who);
}, 120_000);
afterAll(async () => t?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Case {
  resource: string;
  method: Method;
  url: string;
  who?: DemoAccount;
  body?: unknown;
  raw?: { payload: string | Buffer; contentType: string };
  sign?: boolean;
  status: number;
  /** The shared component the document refers to for this status. */
  component: string;
  detail: string;
  errors?: { field: string; message: string }[];
}

const FORBIDDEN = 'Brak uprawnień do tej operacji';
const NOT_FOUND = 'Nie znaleziono';

const cases: Case[] = [
  { resource: 'acceptance-history', method: 'POST', url: '/api/acceptance-history/table', who: 'manager', body: { startRow: 0, endRow: 30 }, status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'assignment', method: 'POST', url: '/api/assignment/table2', who: 'manager', body: { startRow: 0, endRow: 30, sortModel: [{ colId: 'nieMa', sort: 'asc' }] }, status: 400, component: 'BadRequest', detail: 'Nieznana kolumna: nieMa', errors: [{ field: 'nieMa', message: 'Nieznana kolumna: nieMa' }] },
  { resource: 'attachment', method: 'GET', url: '/api/attachment?group=SA_POJA&id=999999', who: 'manager', status: 404, component: 'NotFound', detail: NOT_FOUND },
  { resource: 'auto-complete', method: 'GET', url: `/api/auto-complete/cars?searchText=${'A'.repeat(51)}`, who: 'manager', status: 400, component: 'BadRequest', detail: 'searchText: Pole może mieć najwyżej 50 znaków', errors: [{ field: 'searchText', message: 'Pole może mieć najwyżej 50 znaków' }] },
  { resource: 'car', method: 'GET', url: '/api/car/single-car', who: 'manager', status: 404, component: 'NotFound', detail: 'Brak pojazdu przypisanego do sesji.' },
  { resource: 'cockpit', method: 'GET', url: '/api/cockpit/approval-inbox', who: 'kierowca', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'notification', method: 'POST', url: '/api/notifications/999999999/read', who: 'manager', body: {}, status: 404, component: 'NotFound', detail: 'Nie znaleziono powiadomienia.' },
  { resource: 'reminder', method: 'GET', url: '/api/reminders/items?rule=nieznana', who: 'manager', status: 400, component: 'BadRequest', detail: 'rule: Nieznana reguła przypomnień', errors: [{ field: 'rule', message: 'Nieznana reguła przypomnień' }] },
  { resource: 'audit', method: 'GET', url: '/api/audit/1/changes', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'config-studio', method: 'GET', url: '/api/config-studio', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'contract', method: 'GET', url: '/api/contract/abc', who: 'manager', status: 400, component: 'BadRequest', detail: 'id: Niepoprawny format', errors: [{ field: 'id', message: 'Niepoprawny format' }] },
  { resource: 'damage', method: 'POST', url: '/api/damage/add', who: 'doradca', body: {}, status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'employee', method: 'GET', url: '/api/employees?searchText=kow', status: 401, component: 'Unauthorized', detail: 'Sesja wygasła lub jest nieprawidłowa. Zaloguj się ponownie.' },
  { resource: 'fuel-card', method: 'POST', url: '/api/fuel-card/table-count', who: 'manager', body: { startRow: 0, endRow: 30, filterModel: { nieMa: { filterType: 'text', type: 'equals', filter: 'x' } } }, status: 400, component: 'BadRequest', detail: 'Nieznana kolumna: nieMa', errors: [{ field: 'nieMa', message: 'Nieznana kolumna: nieMa' }] },
  { resource: 'init', method: 'GET', url: '/api/ui/assets/nie-ma.png', status: 404, component: 'NotFound', detail: NOT_FOUND },
  { resource: 'invoice', method: 'GET', url: '/api/invoice/f?id=1&token=zuzyty', status: 403, component: 'ForbiddenPage', detail: 'Link do pobrania wygasł lub został już użyty. Wróć do portalu i pobierz plik ponownie.' },
  { resource: 'login-history', method: 'POST', url: '/api/login-history/table2', who: 'manager', body: { startRow: 0, endRow: 30 }, status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'note', method: 'POST', url: '/api/note', who: 'manager', body: { zrodlo: 'AUTORY', zrodloId: 1, tresc: '' }, status: 400, component: 'BadRequest', detail: 'tresc: Pole nie może być puste', errors: [{ field: 'tresc', message: 'Pole nie może być puste' }] },
  { resource: 'order', method: 'POST', url: '/api/order/add', who: 'manager', raw: { payload: 'order', contentType: 'text/plain' }, status: 415, component: 'UnsupportedMediaType', detail: 'Nieobsługiwany rodzaj treści żądania (wymagany application/json)' },
  { resource: 'password', method: 'POST', url: '/api/password/change-password', who: 'kierowca', body: { currentPassword: 'Zle-haslo-1', newPassword: 'Nowe-Haslo-2024!' }, status: 400, component: 'BadRequest', detail: 'Podane obecne hasło jest nieprawidłowe', errors: [{ field: 'currentPassword', message: 'Podane obecne hasło jest nieprawidłowe' }] },
  { resource: 'session', method: 'POST', url: '/api/user/auth', body: { username: 'manager', password: 'Zle-haslo-1', role: 'MANAGER' }, status: 401, component: 'Unauthorized', detail: 'Błąd logowania: Błędny login lub hasło!' },
  { resource: 'settings', method: 'GET', url: '/api/settings/email', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'terms', method: 'GET', url: '/api/terms/latest?templateId=999999', who: 'manager', status: 404, component: 'NotFound', detail: 'Nie znaleziono dokumentu regulaminu' },
  { resource: 'tire', method: 'POST', url: '/api/tire/table', who: 'manager', body: { startRow: 0, endRow: 30 }, sign: false, status: 400, component: 'BadRequest', detail: 'Brak podpisu żądania (nagłówki X-Nonce i X-Signature są wymagane)' },
  { resource: 'unit', method: 'POST', url: '/api/unit/table', who: 'manager', raw: { payload: '{"startRow": 0,', contentType: 'application/json' }, status: 400, component: 'BadRequest', detail: 'Niepoprawne żądanie' },
  { resource: 'user-table-settings', method: 'DELETE', url: '/api/user-table-filter?id=999999', who: 'manager', status: 404, component: 'NotFound', detail: NOT_FOUND },
  // issues 34 and 35 (ACCESS.md: integration accounts, import runs and webhook endpoints are ADMIN's)
  { resource: 'integration-accounts', method: 'GET', url: '/api/integration-accounts/scopes', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'import', method: 'GET', url: '/api/import/declarations', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'webhooks', method: 'GET', url: '/api/webhooks/events', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'webhook-endpoint', method: 'POST', url: '/api/webhook-endpoint/table', who: 'manager', body: { startRow: 0, endRow: 30 }, status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'webhook-message', method: 'POST', url: '/api/webhook-message/table', who: 'manager', body: { startRow: 0, endRow: 30 }, status: 403, component: 'Forbidden', detail: FORBIDDEN },
  // issue 36: Bezpieczeństwo (an administrator's view of a user's sessions is ADMIN's)
  { resource: 'security', method: 'GET', url: '/api/users/1/sessions', who: 'manager', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  { resource: 'users', method: 'DELETE', url: '/api/users/1', who: 'admin', status: 400, component: 'BadRequest', detail: 'Nie można usunąć własnego konta' },
  { resource: 'note', method: 'POST', url: '/api/note', who: 'manager', raw: { payload: JSON.stringify({ tresc: 'x'.repeat(1_100_000) }), contentType: 'application/json' }, status: 413, component: 'PayloadTooLarge', detail: 'Treść żądania jest zbyt duża' },
  // issue 46: fleet costs and reports (ACCESS.md: reports are the office's)
  { resource: 'fuel-transaction', method: 'POST', url: '/api/fuel-transaction/table2', who: 'manager', body: { startRow: 0, endRow: 30, sortModel: [{ colId: 'nieMa', sort: 'asc' }] }, status: 400, component: 'BadRequest', detail: 'Nieznana kolumna: nieMa', errors: [{ field: 'nieMa', message: 'Nieznana kolumna: nieMa' }] },
  { resource: 'invoice-line', method: 'POST', url: '/api/invoice-line/table2', who: 'manager', body: { startRow: 0, endRow: 30, sortModel: [{ colId: 'nieMa', sort: 'asc' }] }, status: 400, component: 'BadRequest', detail: 'Nieznana kolumna: nieMa', errors: [{ field: 'nieMa', message: 'Nieznana kolumna: nieMa' }] },
  { resource: 'fuel-anomaly', method: 'POST', url: '/api/fuel-anomaly/table2', who: 'manager', body: { startRow: 0, endRow: 30, sortModel: [{ colId: 'nieMa', sort: 'asc' }] }, status: 400, component: 'BadRequest', detail: 'Nieznana kolumna: nieMa', errors: [{ field: 'nieMa', message: 'Nieznana kolumna: nieMa' }] },
  { resource: 'reports', method: 'GET', url: '/api/reports', who: 'kierowca', status: 403, component: 'Forbidden', detail: FORBIDDEN },
  // issue 47: the driver's phone (inspections and push are each caller's own rows: another's is absent)
  { resource: 'inspections', method: 'GET', url: '/api/inspections/999999', who: 'manager', status: 404, component: 'NotFound', detail: NOT_FOUND },
  { resource: 'inspection', method: 'POST', url: '/api/inspection/table2', who: 'manager', body: { startRow: 0, endRow: 30, sortModel: [{ colId: 'nieMa', sort: 'asc' }] }, status: 400, component: 'BadRequest', detail: 'Nieznana kolumna: nieMa', errors: [{ field: 'nieMa', message: 'Nieznana kolumna: nieMa' }] },
  { resource: 'push', method: 'DELETE', url: '/api/push/subscriptions/999999', who: 'kierowca', status: 404, component: 'NotFound', detail: 'Nie znaleziono tego urządzenia.' },
  // issue 48: each person's language
  { resource: 'account', method: 'GET', url: '/api/account/language', status: 401, component: 'Unauthorized', detail: 'Sesja wygasła lub jest nieprawidłowa. Zaloguj się ponownie.' },
];

async function send(c: Case): Promise<LightMyRequestResponse> {
  if (!c.raw) return t.call(c.method, c.url, { token: c.who ? tokens[c.who] : undefined, body: c.body, sign: c.sign });
  const { signBody, makeNonce } = await import('../../runtime/core/signing.ts');
  const nonce = makeNonce();
  return t.app.inject({
    method: c.method,
    url: c.url,
    payload: c.raw.payload,
    headers: {
      'content-type': c.raw.contentType,
      ...(c.who ? { authorization: `Bearer ${tokens[c.who]}` } : {}),
      'x-nonce': nonce,
      'x-signature': signBody(t.preConfigName, nonce, c.raw.payload),
    },
  });
}

describe('error answers of one operation per resource match the document', () => {
  it('covers every resource of the document', () => {
    const tags = (t.app.swagger() as any).tags.map((tag: { name: string }) => tag.name);
    expect([...new Set(cases.map((c) => c.resource))].sort()).toEqual(tags);
  });

  for (const c of cases) {
    it(`${c.resource}: ${c.method} ${c.url.slice(0, 60)} → ${c.status} ${c.component}`, async () => {
      // users: the administrator's own id, whatever the seed gave it
      if (c.resource === 'users' && c.method === 'DELETE') {
        const own = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow();
        c.url = `/api/users/${own.id}`;
      }
      const res = await send(c);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(c.status);

      const operation = operationOf(t.app, c.method, c.url)!;
      expect(operation, 'an operation of the document').toBeDefined();
      expect(operation.responses[String(c.status)], `${operation.operationId} declares ${c.status}`).toEqual({ $ref: `#/components/responses/${c.component}` });
      // the body is the declared one: the error schema of schemas/ (and nothing the document does not say)
      expect(checkAnswer(t.app, { method: c.method, url: c.url }, res, false)).toEqual([]);

      const body = res.json();
      expect(body.statusCode).toBe(c.status);
      expect(body.detail).toBe(c.detail);
      if (c.errors) expect(body.errors).toEqual(c.errors);
      // a user's screenshot of the error leads to the request's log line (issue 33)
      expect(body.requestId).toBe(res.headers['x-request-id']);
    });
  }
});

describe('the conformance check itself', () => {
  it('names the operation, the status and the JSON pointer of an answer the document does not describe', async () => {
    const res = await t.call('POST', '/api/car/table-count', { token: tokens.manager, body: { startRow: 0, endRow: 30 } });
    const options = { method: 'POST' as const, url: '/api/car/table-count' };
    expect(checkAnswer(t.app, options, res, false)).toEqual([]);
    const wrongBody = { ...res, rawPayload: Buffer.from(JSON.stringify({ count: 'many' })) } as LightMyRequestResponse;
    expect(checkAnswer(t.app, options, wrongBody, false)).toEqual([expect.stringMatching(/^carTableCount \(POST \/api\/car\/table-count\) 200 application\/json: \/count must be integer/)]);
    const wrongStatus = { ...res, statusCode: 418 } as LightMyRequestResponse;
    expect(checkAnswer(t.app, options, wrongStatus, false)).toEqual([expect.stringMatching(/^carTableCount \(POST \/api\/car\/table-count\) 418: status not declared/)]);
    const wrongType = { ...res, headers: { ...res.headers, 'content-type': 'text/csv' } } as LightMyRequestResponse;
    expect(checkAnswer(t.app, options, wrongType, false)).toEqual([expect.stringMatching(/418|media type "text\/csv" not declared/)]);
  });
});
