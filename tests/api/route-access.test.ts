/**
 * Every route the server registers, as every kind of caller, under every spelling of its path.
 *
 * The routes come from Fastify itself (the onRoute registry `app.declaredRoutes`, filled for each
 * route as Fastify adds it, plugins' routes included); the expected answers come from the LITERAL
 * table below, written from /work/shared/ACCESS.md, never from the server's own declarations. A
 * registered route missing from the table fails the test, and so does a table row no route has.
 *
 * A caller outside the policy only ever gets 401, 403 or 404; a caller inside it is never stopped
 * by the access gate (no 401, no FORBIDDEN). Empty bodies keep the allowed calls harmless (they
 * end in a 400 of the body validation, or in a read).
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { buildApp } from '../../server/app.ts';
import { hashToken } from '../../server/auth/sessions.ts';
import { openTestDatabase } from '../../server/seed/testing.ts';
import { DEMO, ROOT, type DemoAccount } from '../support/test-app.ts';

type Role = 'ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR';
type Who = 'public' | 'signedIn' | Role[];

const ALL: Role[] = ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'];
const A: Role[] = ['ADMIN'];
const AM: Role[] = ['ADMIN', 'MANAGER'];
const AMU: Role[] = ['ADMIN', 'MANAGER', 'USER'];
const AMV: Role[] = ['ADMIN', 'MANAGER', 'ADVISOR'];

/**
 * ACCESS.md, route by route. Table resources (`/table`, `/table2`, `/table-count`, aliases, by id,
 * `excel/prepare`) follow the resource's row of ACCESS.md; notes and attachments follow their
 * parents (attachment: assignment, car, order, damage → every role; note: order, damage → every
 * role). Download links carry their own one-time token, so the download routes are public and
 * refuse without it (their own tests). HEAD answers as its GET.
 */
const EXPECTED: Record<string, Who> = {
  // API description (public, like the API's own description of itself)
  'GET /api/docs': 'public',
  'HEAD /api/docs/': 'public',
  'GET /api/docs/static/index.html': 'public',
  'GET /api/docs/static/swagger-initializer.js': 'public',
  'GET /api/docs/json': 'public',
  'GET /api/docs/yaml': 'public',
  'GET /api/docs/static/*': 'public',
  // start-up
  'GET /api/init/pre-config': 'public',
  'GET /api/ui/config': 'public',
  // a variant's branding images, shown on the login page (docs/variants.md)
  'GET /api/ui/assets/:file': 'public',
  'GET /api/ui/manifest': 'public',
  'HEAD /api/ui/assets/:file': 'public',
  'GET /api/health': 'public',
  // issue 33: no session; a bearer token of its own (METRICS_TOKEN) or, unset, a 404 for everyone
  // (tests/api/metrics.test.ts); with METRICS_PORT it is served on that port only
  'GET /metrics': 'public',
  // session
  'POST /api/user/auth': 'public',
  'POST /api/user/re-logging': ['ADVISOR'],
  'POST /api/user/logout': 'signedIn',
  // issue 36: single sign-on's steps happen before there is a session (the flow and the one-time code protect them)
  'GET /api/user/sso/start': 'public',
  'GET /api/user/sso/callback': 'public',
  'POST /api/user/sso/session': 'public',
  // issue 36: the second step of a sign-in is public (the ticket of the password step proves the password)
  'POST /api/user/auth/second-factor': 'public',
  'POST /api/user/auth/passkey-options': 'public',
  'POST /api/user/auth/passkey': 'public',
  'POST /api/user/auth/passkey-only/options': 'public',
  'POST /api/user/auth/passkey-only': 'public',
  // issue 36, Ustawienia → Bezpieczeństwo "for every role": one's own factors and sessions
  'GET /api/account/security': 'signedIn',
  // issue 48: each person's language
  'GET /api/account/language': 'signedIn',
  'PUT /api/account/language': 'signedIn',
  'POST /api/account/totp/setup': 'signedIn',
  'POST /api/account/totp/confirm': 'signedIn',
  'POST /api/account/totp/disable': 'signedIn',
  'POST /api/account/recovery-codes': 'signedIn',
  'POST /api/account/passkeys/options': 'signedIn',
  'POST /api/account/passkeys': 'signedIn',
  'PUT /api/account/passkeys/:id': 'signedIn',
  'DELETE /api/account/passkeys/:id': 'signedIn',
  'DELETE /api/account/sessions/:id': 'signedIn',
  'POST /api/account/sessions/end-others': 'signedIn',
  // "An administrator sees and ends any user's sessions from the user's dialog" and resets the second factor
  'GET /api/users/:id/sessions': A,
  'DELETE /api/users/:id/sessions/:sessionId': A,
  'POST /api/users/:id/second-factor/reset': A,
  'GET /api/users/:id/lockouts': A,
  'DELETE /api/users/:id/lockouts': A,
  // issue 37, "personal data of a person: export, anonymise": ADMIN; the zip's one-time link carries its own token
  'POST /api/users/:id/personal-data/export': A,
  'POST /api/users/:id/anonymise': A,
  'POST /api/employees/:pracId/personal-data/export': A,
  'POST /api/employees/:pracId/anonymise': A,
  'GET /api/personal-data/download': 'public',
  // terms status/next/accept: self; acceptance history: ADMIN
  'GET /api/terms/status': 'signedIn',
  'GET /api/terms/next': 'signedIn',
  'GET /api/terms/latest': 'signedIn',
  'POST /api/terms/accept': 'signedIn',
  'POST /api/terms/accept-current': 'signedIn',
  'GET /api/terms/history': A,
  // passwords: own (self); users/change-password: ADMIN for anyone, the user for the first-login change
  'POST /api/password/change-password': 'signedIn',
  'POST /api/account': 'signedIn',
  'PUT /api/users/change-password': 'signedIn',
  'POST /api/password/reset-password': 'public',
  'PUT /api/password/change-forgotten-password': 'public',
  // settings
  'GET /api/settings/restart-application': A,
  'GET /api/settings/email': A,
  'PUT /api/settings/email': A,
  'POST /api/settings/email/test': A,
  // car
  'GET /api/car/single-car': ALL,
  'POST /api/car/table': ALL,
  'POST /api/car/table2': ALL,
  'POST /api/car/table-count': ALL,
  'GET /api/car/:id': ALL,
  'POST /api/car/excel/prepare': ALL,
  'GET /api/car/excel/download': 'public',
  // acceptance history (terms/history) and login history: ADMIN
  'POST /api/acceptance-history/table': A,
  'POST /api/acceptance-history/table2': A,
  'POST /api/acceptance-history/table-count': A,
  'POST /api/audit/table': A,
  'POST /api/audit/table2': A,
  'POST /api/audit/table-count': A,
  'POST /api/audit/excel/prepare': A,
  'GET /api/audit/excel/download': 'public',
  'GET /api/audit/actors': A, // the persons of the trail, for the "Kto" filter (ACCESS.md: the trail is the administrator's)
  'GET /api/audit/:id/changes': A,
  'GET /api/audit/history/:resource/:key': AM, // the record itself is then read in its resource's own scope
  'POST /api/login-history/table': A,
  'POST /api/login-history/table2': A,
  'POST /api/login-history/table-count': A,
  'POST /api/login-history/excel/prepare': A,
  'GET /api/login-history/excel/download': 'public',
  // assignment: ADMIN, MANAGER
  'POST /api/assignment/table': AM,
  'POST /api/assignment/table2': AM,
  'POST /api/assignment/table-count': AM,
  'POST /api/assignment/excel/prepare': AM,
  'GET /api/assignment/excel/download': 'public',
  // attachment: the parent record's scope (assignment, car, order, damage → every role)
  'POST /api/attachment/table': ALL,
  'POST /api/attachment/table2': ALL,
  'POST /api/attachment/table-count': ALL,
  // note: the parent record's scope (order, damage → every role)
  'POST /api/note/table': ALL,
  'POST /api/note/table2': ALL,
  'POST /api/note/table-count': ALL,
  'POST /api/note/excel/prepare': ALL,
  'GET /api/note/excel/download': 'public',
  // contract, damage, fuel card, tire: ADMIN, MANAGER, USER
  'POST /api/contract/table': AMU,
  'POST /api/contract/table2': AMU,
  'POST /api/contract/table-count': AMU,
  'POST /api/contract/excel/prepare': AMU,
  'GET /api/contract/excel/download': 'public',
  'POST /api/damage/table': AMU,
  'POST /api/damage/table2': AMU,
  'POST /api/damage/table-count': AMU,
  'POST /api/damage/excel/prepare': AMU,
  'GET /api/damage/excel/download': 'public',
  'POST /api/fuel-card/table': AMU,
  'POST /api/fuel-card/table2': AMU,
  'POST /api/fuel-card/table-count': AMU,
  'POST /api/fuel-card/excel/prepare': AMU,
  'GET /api/fuel-card/excel/download': 'public',
  // issue 46, ACCESS.md "fuel transactions, invoice lines: read | all | client | own vehicle's", "fuel anomalies: read | all | client"
  'POST /api/fuel-transaction/table': AMU,
  'POST /api/fuel-transaction/table2': AMU,
  'POST /api/fuel-transaction/table-count': AMU,
  'POST /api/fuel-transaction/excel/prepare': AMU,
  'GET /api/fuel-transaction/excel/download': 'public',
  'POST /api/invoice-line/table': AMU,
  'POST /api/invoice-line/table2': AMU,
  'POST /api/invoice-line/table-count': AMU,
  'POST /api/invoice-line/excel/prepare': AMU,
  'GET /api/invoice-line/excel/download': 'public',
  'POST /api/fuel-anomaly/table': AM,
  'POST /api/fuel-anomaly/table2': AM,
  'POST /api/fuel-anomaly/table-count': AM,
  'POST /api/fuel-anomaly/excel/prepare': AM,
  'GET /api/fuel-anomaly/excel/download': 'public',
  // issue 47, ACCESS.md "inspections: read | all | client | own | own vehicle"
  'POST /api/inspection/table': ALL,
  'POST /api/inspection/table2': ALL,
  'POST /api/inspection/table-count': ALL,
  'POST /api/inspection/excel/prepare': ALL,
  'GET /api/inspection/excel/download': 'public',
  'POST /api/tire/table': AMU,
  'POST /api/tire/table2': AMU,
  'POST /api/tire/table-count': AMU,
  'POST /api/tire/excel/prepare': AMU,
  'GET /api/tire/excel/download': 'public',
  // invoice: ADMIN, MANAGER; its files by one-time token
  'POST /api/invoice/table': AM,
  'POST /api/invoice/table2': AM,
  'POST /api/invoice/table-count': AM,
  'POST /api/invoice/excel/prepare': AM,
  'GET /api/invoice/excel/download': 'public',
  'POST /api/invoice/download-link': AM,
  'GET /api/invoice/f': 'public',
  'GET /api/invoice/a': 'public',
  // order: every role (USER own vehicle, ADVISOR station)
  'POST /api/order/table': ALL,
  'POST /api/order/table2': ALL,
  'POST /api/order/table-count': ALL,
  'POST /api/order/excel/prepare': ALL,
  'GET /api/order/excel/download': 'public',
  // unit: ADMIN, MANAGER, ADVISOR (read only)
  // Administracja → Pracownicy (ADMIN); a MANAGER his client's, an ADVISOR his vehicle's client's (ACCESS.md)
  'POST /api/employee/table': AMV,
  'POST /api/employee/table2': AMV,
  'POST /api/employee/table-count': AMV,
  'POST /api/employee/excel/prepare': AMV,
  'GET /api/employee/excel/download': 'public',
  'POST /api/unit/table': AMV,
  'POST /api/unit/table2': AMV,
  'POST /api/unit/table-count': AMV,
  'POST /api/unit/excel/prepare': AMV,
  'GET /api/unit/excel/download': 'public',
  // users: ADMIN
  'POST /api/users/table': A,
  'POST /api/users/table2': A,
  'POST /api/users/table-count': A,
  'POST /api/users/users': A,
  'POST /api/users/excel/prepare': A,
  'GET /api/users/excel/download': 'public',
  // saved table settings: self
  'POST /api/user-table-filter': 'signedIn',
  'POST /api/user-table-view': 'signedIn',
  'DELETE /api/user-table-filter': 'signedIn',
  'DELETE /api/user-table-view': 'signedIn',
  'GET /api/user-table-view/:tableName': 'signedIn',
  // the runtime's files and its client-side routes (the SPA fallback, / included: the page with
  // the pre-configuration written into it, plugins/delivery.ts), public
  'GET /index.html': 'public',
  // the content-hashed files, looked up at each request (a build made while the portal runs)
  'GET /assets/*': 'public',
  'HEAD /assets/*': 'public',
  'GET /*': 'public',
  // issue 12, orders and positions (ACCESS.md "order: add, positions, range plan", "order: details",
  // "order: confirm-pricing": ADVISOR only; "car: … auto-complete"; "auto-complete/companies": any signed-in user)
  'POST /api/order/add': ALL,
  'GET /api/order/details/:id': ALL,
  'PUT /api/order/:id': ALL,
  'POST /api/order/:id/transition': ALL,
  'GET /api/order/confirm-pricing/:id': ['ADVISOR'],
  'GET /api/order/car-user/:id': ALL,
  'POST /api/order-range-position': ALL,
  'GET /api/order-range-position/:id': ALL,
  'PUT /api/order-range-position/:id': ALL,
  'DELETE /api/order-range-position/:id': ALL,
  'POST /api/order-range-plan': ALL,
  'POST /api/service-plan/table': ALL,
  'GET /api/auto-complete/cars': ALL,
  'GET /api/auto-complete/companies': 'signedIn',
  'POST /api/auto-complete/companies': 'signedIn', // issue 23: the POST with additionalParams, as the GET
  // issue 13: attachments (the parent record's scope; delete ADMIN), the per-parent lists (the
  // parent resource's roles), notes (order, damage → every role), contract positions, users administration
  'POST /api/attachment/upload': ALL,
  'POST /api/attachment/update': ALL,
  'GET /api/attachment': ALL,
  'POST /api/attachment/download-link': ALL,
  'GET /api/attachment/download': 'public',
  'DELETE /api/attachment/:id': A,
  'POST /api/assignment/attachments': AM,
  'POST /api/damage/attachments': AMU,
  'POST /api/car/details-attachments': ALL,
  'POST /api/order/order-attachments': ALL,
  'POST /api/note': ALL,
  'GET /api/contract/:id': AMU,
  'POST /api/users': A,
  'PUT /api/users/:id': A,
  'DELETE /api/users/:id': A,
  'GET /api/auto-complete/clients': A,
  'GET /api/auto-complete/stations': A,
  // issue 14: damage add and details (damage: ADMIN, MANAGER, USER), handover (ADMIN, MANAGER), return and
  // counter (ADMIN, MANAGER, USER), last assignment (ADMIN, MANAGER), employees (ADMIN, MANAGER, ADVISOR read),
  // tenant/employee create (ADMIN, MANAGER)
  'POST /api/damage/add': AMU,
  'GET /api/damage/:id': AMU,
  'POST /api/assignment/pickup': AM,
  'POST /api/assignment/dropoff': AMU,
  'GET /api/assignment/last/:pojazdId': AM,
  'POST /api/counter': AMU,
  'GET /api/employees': AMV,
  'POST /api/tenant/employee': AM,
  // issue 24, ACCESS.md "charts": every role within its rows; invoices (costs per month) only for the
  // roles that read invoices; the approval inbox "as order transitions" (ADMIN, MANAGER)
  'GET /api/cockpit/costs-per-month': AM,
  // issue 46, ACCESS.md "reports: list, run, export | all | client"
  'GET /api/reports': AM,
  'POST /api/reports/:id/run': AM,
  'POST /api/reports/:id/export': AM,
  // issue 46, ACCESS.md "fuel anomalies: read; mark explained | all | client | — | —"
  'GET /api/fuel-anomalies': AM,
  'GET /api/fuel-anomalies/open': AM,
  'POST /api/fuel-anomalies/:id/explain': AM,
  // issue 47, ACCESS.md "inspections: submit | all | client | own vehicle | —" and "inspections: read | all | client | own | own vehicle"
  'GET /api/inspections/templates': ALL,
  'POST /api/inspections': AMU,
  'POST /api/inspections/photos': AMU,
  'GET /api/inspections': ALL,
  'GET /api/inspections/:id': ALL,
  // ACCESS.md "report subscriptions | self, and list all | self" (the rows: report-subscriptions.test.ts)
  'POST /api/report-subscriptions': AM,
  'GET /api/report-subscriptions': AM,
  'DELETE /api/report-subscriptions/:id': AM,
  'POST /api/report-subscriptions/:id/send': AM,
  'GET /api/report-subscriptions/:id/sends': AM,
  'GET /api/cockpit/orders-per-status': ALL,
  'GET /api/cockpit/km-per-month': ALL,
  'GET /api/cockpit/cost-per-km': ALL,
  'GET /api/cockpit/approval-inbox': AM,
  // issue 24: what is due, for every signed-in role (each sees the rules of its resources, within its rows)
  'GET /api/reminders': ALL,
  'GET /api/reminders/items': ALL,
  // issue 25, ACCESS.md "notifications: own list, unread count, mark read, own preferences | self" (every role, its own rows)
  'GET /api/notifications': ALL,
  'GET /api/notifications/unread-count': ALL,
  'POST /api/notifications/read-all': ALL,
  'POST /api/notifications/:id/read': ALL,
  'GET /api/notification-settings': ALL,
  'PUT /api/notification-settings': ALL,
  // issue 47, ACCESS.md "push subscriptions, push test | self" (every role, its own devices: push.test.ts)
  'GET /api/push/public-key': ALL,
  'GET /api/push/subscriptions': ALL,
  'POST /api/push/subscriptions': ALL,
  'DELETE /api/push/subscriptions/:id': ALL,
  'POST /api/push/test': ALL,
  // issue 34, ACCESS.md "integration accounts and their keys (create, rotate, revoke, list) | ADMIN"
  'GET /api/integration-accounts/scopes': A,
  'POST /api/integration-accounts': A,
  'PUT /api/integration-accounts/:id': A,
  'GET /api/integration-accounts/:id': A,
  // issue 49: removing an account (its keys with it; the trail keeps its history)
  'DELETE /api/integration-accounts/:id': A,
  'GET /api/integration-accounts/:id/keys': A,
  'POST /api/integration-accounts/:id/keys': A,
  'POST /api/integration-accounts/:id/keys/:keyId/revoke': A,
  'POST /api/integration-accounts/table': A,
  'POST /api/integration-accounts/table2': A,
  'POST /api/integration-accounts/table-count': A,
  // issue 26: "Konfiguracja portalu … Every call is ADMIN-only on the server"
  'GET /api/config-studio': A,
  'GET /api/config-studio/document': A,
  'PUT /api/config-studio/documents': A,
  'POST /api/config-studio/document': A,
  'DELETE /api/config-studio/document': A,
  'GET /api/config-studio/texts': A,
  'PUT /api/config-studio/texts': A,
  'GET /api/config-studio/draft/diff': A,
  'POST /api/config-studio/draft/revert': A,
  'POST /api/config-studio/draft/discard': A,
  'POST /api/config-studio/draft/rebase': A,
  'POST /api/config-studio/publish': A,
  'GET /api/config-studio/versions': A,
  'GET /api/config-studio/versions/:id/diff': A,
  'POST /api/config-studio/versions/:id/restore': A,
  'GET /api/config-studio/export': A,
  'POST /api/config-studio/import': A,
  'GET /api/config-studio/preview': A,
  'GET /api/config-studio/meta-schemas': A,
  // "notification log (Administracja → Powiadomienia), send again, run digest | ADMIN only"
  'POST /api/notification/table': A,
  'POST /api/notification/table2': A,
  'POST /api/notification/table-count': A,
  'POST /api/admin/notifications/:id/send-again': A,
  'POST /api/admin/notifications/digest': A,
  // issue 34: imports (ADMIN; integration keys with import:<name>, CONTRACTS.md)
  'GET /api/import/declarations': A,
  'PUT /api/import/declarations/:name/mapping': A,
  'POST /api/import/preview': A,
  'POST /api/import/runs': A,
  'GET /api/import/runs': A,
  'GET /api/import/runs/:id': A,
  'GET /api/import/runs/:id/errors': A,
  'GET /api/import/runs/:id/errors.xlsx': A,
  // issue 35, ACCESS.md "webhook endpoints, their log, resend, recover, test event | all | — | — | —"
  'GET /api/webhooks/events': A,
  'GET /api/webhooks/clients': A,
  // the tables of Administracja → Webhooki (resources webhook-endpoint, webhook-message: ADMIN all)
  'POST /api/webhook-endpoint/table': A,
  'POST /api/webhook-endpoint/table2': A,
  'POST /api/webhook-endpoint/table-count': A,
  'POST /api/webhook-message/table': A,
  'POST /api/webhook-message/table2': A,
  'POST /api/webhook-message/table-count': A,
  'GET /api/webhooks/endpoints': A,
  'POST /api/webhooks/endpoints': A,
  'GET /api/webhooks/endpoints/:id': A,
  'PUT /api/webhooks/endpoints/:id': A,
  'DELETE /api/webhooks/endpoints/:id': A,
  'POST /api/webhooks/endpoints/:id/rotate-secret': A,
  'POST /api/webhooks/endpoints/:id/test': A,
  'GET /api/webhooks/endpoints/:id/messages': A,
  'POST /api/webhooks/endpoints/:id/recover': A,
  'GET /api/webhooks/messages/:id': A,
  'POST /api/webhooks/messages/:id/resend': A,
};

/**
 * ACCESS.md: "An integration key is judged as a MANAGER of the clients it names (or as ADMIN's
 * 'all' …), limited further to its scopes … it never opens a browser screen, terms or password
 * call." A key of every client with every read scope passes the gate only on the table calls of
 * the resources a MANAGER reads (written out here, not taken from the server) and their rows by id
 * where the table answers them (car, damage); a domain call such as the contract's details is not a key's.
 * With the `webhooks` scope it also passes on the webhook calls (CONTRACTS.md, issue 35: a key manages
 * its own clients' endpoints; ACCESS.md "Webhook endpoints of a key receive only events of its clients").
 */
const KEY_READABLE = ['assignment', 'attachment', 'car', 'contract', 'damage', 'employee', 'fuel-anomaly', 'fuel-card', 'fuel-transaction', 'inspection', 'invoice', 'invoice-line', 'note', 'order', 'tire', 'unit'];
// and the import calls (issue 34, CONTRACTS.md "Import API": ADMIN and keys with import:<name>; the key has every import scope)
const KEY_ROUTE = new RegExp(`^(POST /api/(${KEY_READABLE.join('|')})/(table|table2|table-count)|(GET|HEAD) /api/(car|damage)/:id|(GET|HEAD|PUT|POST) /api/import/.*|(GET|HEAD|POST|PUT|DELETE) /api/webhooks/.+|(GET|HEAD) /api/reports|POST /api/reports/:id/(run|export))$`);

const ROLE_ACCOUNTS: Record<Role, DemoAccount> = { ADMIN: 'admin', MANAGER: 'manager', USER: 'kierowca', ADVISOR: 'doradca' };
const GATE_CODES = new Set(['UNAUTHORIZED', 'FORBIDDEN', 'FIRST_LOGIN_REQUIRED', 'TERMS_NOT_ACCEPTED']);
const FORGED = 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA';
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** A concrete path for a route pattern. */
// a deletion that would take away the test's own fixtures (the integration key's account is 1) aims at a record that is not there
const DESTRUCTIVE = new Set(['DELETE /api/integration-accounts/:id']);
const concrete = (url: string, method = 'GET') => url.replace(':id', DESTRUCTIVE.has(`${method} ${url}`) ? '999999' : '1').replace(':pracId', '1').replace(':tableName', 'ORDER_TABLE').replace(/\*$/, 'x');

/** The table row of a registered route (HEAD answers as its GET). */
const expectedOf = (method: string, url: string): Who | undefined =>
  EXPECTED[`${method} ${url}`] ?? (method === 'HEAD' ? EXPECTED[`GET ${url}`] : undefined);

/** Spellings of an /api path that a raw-URL check would not have recognised. */
function spellings(path: string): Record<string, string> {
  const rest = path.slice('/api/'.length);
  return {
    '%61pi': `/%61pi/${rest}`,
    '%2F separators': `/api%2F${rest.replace(/\//g, '%2F')}`,
    '//api': `//api/${rest}`,
    '/API/': `/API/${rest}`,
    '/api/./x': `/api/./${rest}`,
    '/api/x/..': `/api/${rest}/x/..`,
    'trailing ;': `${path};`,
    'encoded %2e%2e': `/x/%2e%2e/api/${rest}`,
  };
}

describe('every registered route, every caller, every spelling', () => {
  let app: FastifyInstance;
  let closeDb: () => Promise<void>;
  let preConfigName: string;
  const tokens: Record<string, string | undefined> = {};

  const call = (method: string, url: string, token?: string) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined;
    if (method === 'POST' || method === 'PUT') {
      payload = '{}';
      headers['content-type'] = 'application/json';
      const nonce = makeNonce();
      headers['x-nonce'] = nonce;
      headers['x-signature'] = signBody(preConfigName, nonce, payload);
    }
    return app.inject({ method: method as any, url, headers, payload });
  };
  const signIn = async (account: DemoAccount) => {
    const payload = JSON.stringify(DEMO[account]);
    const res = await app.inject({ method: 'POST', url: '/api/user/auth', headers: signedJson(payload), payload });
    if (res.statusCode !== 200) throw new Error(`sign-in of ${account}: ${res.statusCode} ${res.body}`);
    return res.json().id_token as string;
  };
  const signedJson = (payload: string) => {
    const nonce = makeNonce();
    return { 'content-type': 'application/json', 'x-nonce': nonce, 'x-signature': signBody(preConfigName, nonce, payload) };
  };

  beforeAll(async () => {
    // a built runtime stand-in, so the static files and the SPA fallback are registered too
    const site = mkdtempSync(join(tmpdir(), 'route-access-'));
    mkdirSync(join(site, 'assets'));
    writeFileSync(join(site, 'index.html'), '<!doctype html><html><body>runtime</body></html>');
    writeFileSync(join(site, 'assets', 'app.js'), 'console.log(1)');
    const database = await openTestDatabase({ seed: true });
    closeDb = database.close;
    // the administrator signs in with the password alone here (the second factor has tests/api/two-factor.test.ts)
    app = await buildApp({ secondFactor: { enforce: false }, db: database.db, root: ROOT, version: VERSION, staticDir: site });
    await app.ready();
    preConfigName = app.config.bundle.app.name;
    for (const [role, account] of Object.entries(ROLE_ACCOUNTS)) tokens[role] = await signIn(account);
    tokens.none = undefined;
    tokens.forged = FORGED;
    // an expired session: its idle window has passed
    tokens.expired = await signIn('manager');
    await app.db.updateTable('user_session').set({ expiresAt: new Date(Date.now() - 1000) }).where('tokenHash', '=', hashToken(tokens.expired)).execute();
    // an integration key of every client, with every read scope there is (issue 34)
    const scopes = (await call('GET', '/api/integration-accounts/scopes', tokens.ADMIN)).json().map((c: { scope: string }) => c.scope);
    const account = await app.inject({ method: 'POST', url: '/api/integration-accounts', headers: { authorization: `Bearer ${tokens.ADMIN}`, ...signedJson(JSON.stringify({ name: 'route-access', allClients: true, scopes })) }, payload: JSON.stringify({ name: 'route-access', allClients: true, scopes }) });
    const key = await app.inject({ method: 'POST', url: `/api/integration-accounts/${account.json().id}/keys`, headers: { authorization: `Bearer ${tokens.ADMIN}`, ...signedJson('{}') }, payload: '{}' });
    tokens.key = key.json().key;
    // a revoked session: signed out
    tokens.revoked = await signIn('admin');
    expect((await call('POST', '/api/user/logout', tokens.revoked)).statusCode).toBe(204);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await closeDb?.();
  });

  const routes = () => app.declaredRoutes;

  it('has a row in the literal table for every route Fastify registered, and no row without a route', () => {
    const registered = new Set(routes().map((r) => `${r.method} ${r.url}`));
    const missing = [...registered].filter((key) => expectedOf(key.split(' ')[0], key.slice(key.indexOf(' ') + 1)) === undefined);
    expect(missing).toEqual([]);
    const stale = Object.keys(EXPECTED).filter((key) => !registered.has(key));
    expect(stale).toEqual([]);
    expect(registered.size).toBeGreaterThan(100);
  });

  it('answers each caller as ACCESS.md says: outside the policy only 401, 403 or 404; inside it the gate never refuses', async () => {
    const failures: string[] = [];
    const callers = ['none', 'forged', 'expired', 'revoked', ...ALL];
    const ordered = [...routes()].sort((a, b) => Number(a.url === '/api/user/logout') - Number(b.url === '/api/user/logout'));
    for (const route of ordered) {
      const who = expectedOf(route.method, route.url);
      for (const caller of callers) {
        const res = await call(route.method, concrete(route.url, route.method), tokens[caller]);
        const code = route.method === 'HEAD' ? undefined : safeCode(res.body);
        const label = `${caller} ${route.method} ${route.url}: ${res.statusCode} ${code ?? ''}`;
        const role = ALL.includes(caller as Role) ? (caller as Role) : undefined;
        const allowed = who === 'public' || (role !== undefined && (who === 'signedIn' || who!.includes(role)));
        if (allowed) {
          if (res.statusCode === 401 || (code && GATE_CODES.has(code))) failures.push(`${label}, expected to pass the gate`);
        } else {
          if (![401, 403, 404].includes(res.statusCode)) failures.push(`${label}, expected 401/403/404`);
          if (!role && res.statusCode !== 401) failures.push(`${label}, expected 401 without a live session`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('refuses every spelling of a closed route (%61pi, %2F, //api, /API/, dot segments, ;) without a session, and as a role it is closed to', async () => {
    const failures: string[] = [];
    for (const route of routes()) {
      const who = expectedOf(route.method, route.url);
      if (who === 'public' || !route.url.startsWith('/api/')) continue;
      const outsiders: (string | undefined)[] = [undefined, FORGED];
      if (Array.isArray(who)) outsiders.push(...ALL.filter((r) => !who.includes(r)).map((r) => tokens[r]));
      for (const [name, path] of Object.entries(spellings(concrete(route.url, route.method)))) {
        for (const token of outsiders) {
          const res = await call(route.method, path, token);
          const label = `${name} ${route.method} ${path} (${token === undefined ? 'no token' : token === FORGED ? 'forged' : 'other role'}): ${res.statusCode}`;
          if (![401, 403, 404].includes(res.statusCode)) failures.push(label);
          if (res.body.includes('<html')) failures.push(`${label}: the runtime's page for an API path`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('lets an integration key through the gate only on the table calls of the resources a fleet manager reads, under every spelling', async () => {
    const failures: string[] = [];
    for (const route of routes()) {
      if (expectedOf(route.method, route.url) === 'public') continue;
      const opened = KEY_ROUTE.test(`${route.method} ${route.url}`);
      const res = await call(route.method, concrete(route.url, route.method), tokens.key);
      const code = route.method === 'HEAD' ? undefined : safeCode(res.body);
      const label = `key ${route.method} ${route.url}: ${res.statusCode} ${code ?? ''}`;
      if (opened && (res.statusCode === 401 || res.statusCode === 403)) failures.push(`${label}, expected to pass the gate`);
      if (!opened && res.statusCode !== 403) failures.push(`${label}, expected 403`);
      if (!opened) {
        for (const [name, path] of Object.entries(spellings(concrete(route.url, route.method)))) {
          const spelled = await call(route.method, path, tokens.key);
          if (![401, 403, 404].includes(spelled.statusCode)) failures.push(`key ${name} ${route.method} ${path}: ${spelled.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('refuses an absolute URL in the request line (GET http://host/api/… HTTP/1.1) over a real socket', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const failures: string[] = [];
    for (const route of routes()) {
      const who = expectedOf(route.method, route.url);
      if (who === 'public' || !route.url.startsWith('/api/')) continue;
      for (const target of [`${address}${concrete(route.url, route.method)}`, `http://evil.example${concrete(route.url, route.method)}`, `${address}/%61pi${concrete(route.url, route.method).slice(4)}`]) {
        const status = await rawStatus(port, route.method, target);
        if (![401, 403, 404, 400].includes(status)) failures.push(`${route.method} ${target}: ${status}`);
        if (status === 200) failures.push(`${route.method} ${target}: answered without a session`);
      }
    }
    // and the plain path over the same socket for comparison: 401
    expect(await rawStatus(port, 'GET', '/api/settings/email')).toBe(401);
    expect(failures).toEqual([]);
  }, 300_000);

  it('serves the runtime page for client-side routes but never for anything that is an /api path once decoded', async () => {
    expect((await call('GET', '/app/order')).body).toContain('runtime');
    for (const path of ['/%61pi/nothing', '/API/nothing', '//api/nothing', '/x/../api/nothing', '/%2561pi/nothing', '/api%2Fnothing', '/Api;x/nothing']) {
      const res = await call('GET', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body, path).not.toContain('runtime');
    }
  });
});

describe('a route without an access declaration', () => {
  it('stops start-up, naming the method and the path, whether the app or a plugin adds it', async () => {
    const database = await openTestDatabase({ seed: false });
    try {
      const app = await buildApp({ secondFactor: { enforce: false }, db: database.db, root: ROOT, version: VERSION });
      expect(() => app.get('/api/undeclared', async () => 'open')).toThrow(/GET.*\/api\/undeclared.*declares no access/);
      const boot = async () => {
        await app.register(fp(async (plugin) => {
          plugin.post('/api/from-a-plugin', async () => 'open');
        }));
        await app.ready();
      };
      await expect(boot()).rejects.toThrow(/POST \/api\/from-a-plugin declares no access/);
      await app.close().catch(() => undefined);
    } finally {
      await database.close();
    }
  }, 120_000);
});

function safeCode(body: string): string | undefined {
  try {
    return JSON.parse(body)?.code;
  } catch {
    return undefined;
  }
}

/** The status of one raw HTTP/1.1 request whose request line carries `target` as it is. */
function rawStatus(port: number, method: string, target: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('connect', () => {
      const body = method === 'POST' || method === 'PUT' ? '{}' : '';
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
        (body ? `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n` : '') + `\r\n${body}`);
    });
    socket.on('data', (chunk) => (data += chunk));
    socket.on('end', () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) resolve(Number(m[1]));
      else reject(new Error(`no status line for ${method} ${target}: ${data.slice(0, 80)}`));
    });
    socket.on('error', reject);
  });
}
