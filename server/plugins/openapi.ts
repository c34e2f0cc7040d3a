/**
 * The OpenAPI document at /api/docs/json (issue 27): what an integrator generates a client from,
 * so it must say everything the server answers and nothing it does not.
 *
 * Every documented route declares its operation in its route options, beside its access:
 *
 *   config: { access: { resource: 'order' }, operation: { resource: 'order', action: 'add', summary: 'Add an order with its positions' } }
 *
 * and ONE rule, here, turns the declarations into the document:
 * - operationId = camelCase(resource) + PascalCase(action) (`order` + `table2` → `orderTable2`,
 *   `fuel-card` + `excelPrepare` → `fuelCardExcelPrepare`), unique across the API;
 * - one tag per resource (its description in TAGS below);
 * - security from the access declaration: public → none, anything else → the bearer token; a
 *   signed write adds the request signature (X-Nonce + X-Signature, both required);
 * - the error answers the server's own plugins give, derived from the declarations (`errorsOf`):
 *   400 (the route validates input, or it is signed), 401 (not public), 403 (a role list or a
 *   resource's roles, or the gates of unaccepted terms and the first password), 413 and 415 (a
 *   request body, a signed one), 503 (every call: the database away or the process overloaded);
 *   the answers a handler chooses itself (404, 409, 429 …) are in the route's `schema.response`
 *   as `{ $ref: 'error-response#' }`;
 * - every error answer is a shared component of `components.responses`, referenced, not copied.
 *
 * A route without an operation declaration (or with a malformed one, or a duplicate operationId)
 * stops start-up, like a route without its access declaration (plugins/auth.ts). Routes hidden
 * from the document (`schema: { hide: true }`: the documentation UI's own files, the runtime's
 * static files) need none.
 */
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
// bundled into dist-server/main.js by esbuild, read by tsx in development and tests
import packageJson from '../../package.json' with { type: 'json' };
import { NONCE_WINDOW_MS } from '../../runtime/core/signing.ts';
import type { RouteAccess } from './auth.ts';

/** What a route says about itself for the document (route options `config.operation`). */
export interface OperationDeclaration {
  /** The resource the call belongs to, kebab-case (`order`, `fuel-card`, `auto-complete`): its tag. */
  resource: string;
  /** What the call does to it, camelCase (`add`, `table2`, `excelPrepare`). */
  action: string;
  /** A short summary (one line, no full stop at the end). */
  summary: string;
  /**
   * A request body that Fastify does not parse into `request.body` (a multipart upload read as a
   * stream): its media type and the schema of schemas/ that describes its fields.
   */
  streamedBody?: {
    mediaType: string; schema: string; description?: string;
    /** Another media type the body may take: any of the component schemas named with this prefix (extras.schemas); which one, a parameter says. */
    alternative?: { mediaType: string; schemasPrefix: string };
  };
  /**
   * The call is a link opened in a browser window (a download): a refusal is a short Polish page
   * when the browser asks for HTML, the error body otherwise.
   */
  errorPages?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's operation in the OpenAPI document; required on every documented route. */
    operation?: OperationDeclaration;
  }
}

const RESOURCE = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const ACTION = /^[a-z][a-zA-Z0-9]*$/;

/** THE rule: `fuel-card` + `excelPrepare` → `fuelCardExcelPrepare`. */
export function operationIdOf(resource: string, action: string): string {
  const camel = resource.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  return camel + action[0].toUpperCase() + action.slice(1);
}

/** Descriptions of the tags, one per resource; a resource without one fails the document build. */
export const TAGS: Record<string, string> = {
  account: 'Ustawienia → Język: the caller\'s language, kept on his account; screens, e-mails, notifications and the API\'s messages follow it (issue 48).',
  audit: 'Dziennik zmian: who changed what and when, field by field, in a hash chain (ADMIN; issue 37).',
  'acceptance-history': 'Historia akceptacji: who accepted which terms document and when (ADMIN).',
  assignment: 'Przydziały: vehicle assignments (handovers and returns), their table and Excel export.',
  attachment: 'Załączniki: files attached to vehicles, assignments, orders and damages; uploads and one-time downloads.',
  'auto-complete': 'Look-ups for pickers: vehicles, companies, clients and service stations by a few characters.',
  car: 'Pojazdy: the vehicles within the caller\'s row scope, their table, details, Excel export and mileage readings.',
  contract: 'Kontrakty: leasing contracts with their charges.',
  damage: 'Szkody: damages, their table, details and the damage report.',
  employee: 'Pracownicy: the participant picker and new employees.',
  'fuel-card': 'Karty paliwowe: fuel cards.',
  'fuel-transaction': 'Transakcje paliwowe: the fuel-card issuers\' transactions, loaded by import (read only).',
  'invoice-line': 'Pozycje faktur: an invoice\'s costs per vehicle, month and category (read only).',
  'fuel-anomaly': 'Anomalie paliwowe: what the fuel anomaly rules found, and their explanations.',
  inspections: 'Kontrole pojazdów (issue 47): the checklists of a vehicle and which are due, an inspection submitted with its photos (failed items open a damage report or a service-order draft), the caller\'s inspections and one with its answers.',
  inspection: 'Kontrole pojazdów: the inspections table, its count and Excel export (the generic table resource).',
  reports: 'Raporty: reports declared in configuration (schemas/reports), run, exported and subscribed to.',
  import: 'Import danych (issue 34): the importable resources and their fields, column mappings, file previews, import runs (dry or real) as jobs with progress, counts and errors per row (ADMIN, keys with import:<name>).',
  init: 'Start-up of a client: pre-configuration, the configuration bundle, health and branding images.',
  'integration-accounts': 'Konta integracyjne: accounts of other systems (not people) and their API keys, sent as `Authorization: Bearer <key>` (ADMIN; issue 34).',
  invoice: 'Faktury: invoices and their PDF files through one-time links.',
  'login-history': 'Historia logowań: sign-ins, sign-outs and vehicle changes (ADMIN).',
  note: 'Notatki: notes on orders and damages.',
  cockpit: 'Pulpit: the cockpit\'s charts and the approval inbox of a fleet manager (MANAGER, ADMIN).',
  order: 'Zlecenia: service orders, their positions, status moves and cost estimates.',
  'config-studio': 'Konfiguracja portalu: the analysts\' configuration studio (ADMIN): drafts over the configuration files, checks, publishing to every process, versions, rollback, export and import (issue 26).',
  notification: 'Powiadomienia: the caller\'s own notifications (the bell) and settings; the administrators\' log, send-again and the daily digest run now (issue 25).',
  reminder: 'Przypomnienia: what is due (policies, inspections, services, contracts, cards, readings, orders, damages) per rule and urgency, within the caller\'s rows.',
  push: 'Powiadomienia na telefon (issue 47): the caller\'s devices that receive Web Push notifications (VAPID), their test message; the messages\' payload: the `webhooks` section\'s `push.notification`.',
  password: 'Passwords: change one\'s own, the first-sign-in change, an administrator\'s reset, the forgotten-password flow.',
  security: 'Bezpieczeństwo (issue 36): the caller\'s second factor (authenticator app, recovery codes, passkeys) and sessions; an administrator\'s view of a user\'s sessions and reset of the second factor.',
  session: 'Signing in and out (with the second step of an account with a second factor), and an advisor\'s change of vehicle.',
  settings: 'Administration: the e-mail (SMTP) configuration and the configuration reload.',
  terms: 'Regulaminy: terms documents (PDF), their status and acceptance.',
  tire: 'Opony: tyres.',
  unit: 'Jednostki organizacyjne: the client\'s organisational units.',
  'user-table-settings': 'Saved table filters and column views of the signed-in user.',
  users: 'Użytkownicy: user accounts (ADMIN).',
  'webhook-endpoint': 'Webhooki: the table of webhook endpoints (ADMIN; issue 35).',
  'webhook-message': 'Wiadomości webhooka: the table of one endpoint\'s messages, its log (ADMIN; issue 35).',
  webhooks: 'Webhooki: endpoints that receive the portal\'s events (Standard Webhooks), their log, resend and recovery (ADMIN; integration keys with the `webhooks` scope for their own clients). The events and their payloads: the `webhooks` section (issue 35).',
};

/** The shared error answers: status → component name and description. */
const ERROR_RESPONSES = {
  400: ['BadRequest', 'The request is not acceptable: a field breaks a rule (each named in `errors` with its Polish message), the JSON is malformed, or the signature is missing, stale, wrong or used before (`code` SIGNATURE_…).'],
  401: ['Unauthorized', 'No session: the bearer token is missing, unknown, expired or ended (sign in again), or the integration key is wrong, expired or revoked.'],
  403: ['Forbidden', 'The caller\'s role may not make this call, or the user must first accept the current terms (TERMS_NOT_ACCEPTED) or choose their own password (FIRST_LOGIN_REQUIRED); an integration key gets KEY_NOT_ALLOWED from a call not open to keys, FORBIDDEN from one outside its scopes.'],
  404: ['NotFound', 'No such record within the caller\'s row scope (a record of another client is answered as absent).'],
  409: ['Conflict', 'The record\'s state does not allow the change (`detail` says why in Polish).'],
  413: ['PayloadTooLarge', 'The request body is larger than the server takes.'],
  415: ['UnsupportedMediaType', 'The request body is of a media type the call does not take (application/json unless said otherwise).'],
  429: ['TooManyRequests', 'Too many calls from this address, too many failed sign-ins of this login, or too many wrong integration keys from this address (see Retry-After).'],
  500: ['InternalServerError', 'The server failed (the failure is logged under the answer\'s `requestId`, the answer tells nothing else of it); a configuration reload names each problem of the refused configuration in `errors`.'],
  503: ['ServiceUnavailable', 'The database is away for a moment or the server is overloaded: try again after Retry-After seconds.'],
} as const;
type ErrorStatus = keyof typeof ERROR_RESPONSES;

const ERROR_SCHEMA = { $ref: '#/components/schemas/error-response' };
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } };

/** Every error answer names its request (plugins/request-log.ts): the X-Request-Id of the answer and of the log line. */
const requestId = '3f2c1e9a-7b4d-4c6e-9a1f-0d2b5c8e7a61';
const EXAMPLES: Partial<Record<ErrorStatus, object>> = {
  400: { statusCode: 400, code: 'VALIDATION', detail: 'tytul: Pole nie może być puste', errors: [{ field: 'tytul', message: 'Pole nie może być puste' }], requestId },
  401: { statusCode: 401, code: 'UNAUTHORIZED', detail: 'Sesja wygasła lub jest nieprawidłowa. Zaloguj się ponownie.', requestId },
  403: { statusCode: 403, code: 'FORBIDDEN', detail: 'Brak uprawnień do tej operacji', requestId },
  404: { statusCode: 404, detail: 'Nie znaleziono', requestId },
  503: { statusCode: 503, code: 'DATABASE_UNAVAILABLE', detail: 'Baza danych jest chwilowo niedostępna. Spróbuj ponownie za chwilę.', requestId },
};

function errorComponents(): Record<string, object> {
  const components: Record<string, object> = {};
  for (const [status, [name, description]] of Object.entries(ERROR_RESPONSES)) {
    const example = EXAMPLES[Number(status) as ErrorStatus];
    const json = { schema: ERROR_SCHEMA, ...(example ? { example } : {}) };
    const headers = status === '429' || status === '503' ? { headers: retryAfter } : {};
    components[name] = { description, ...headers, content: { 'application/json': json } };
    // a download link opened in a browser window: the same refusal as a short Polish page
    if (status === '403' || status === '404') {
      components[`${name}Page`] = {
        description: `${description} A browser that asks for text/html gets a short Polish page instead of the JSON body.`,
        content: { 'application/json': json, 'text/html': { schema: { type: 'string' } } },
      };
    }
  }
  return components;
}

/** The security schemes: the two halves an integrator needs, the session and the signature. */
const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    description: 'The session: `id_token` of POST /api/user/auth, sent as `Authorization: Bearer <id_token>` until POST /api/user/logout.',
  },
  nonce: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Nonce',
    description: 'Half of the request signature every POST and PUT carries (spec §7): the current time in milliseconds since ' +
      `1970, optionally followed by "." and up to 64 random hex digits (\`1767225600000.9f2c4a1b3e5d7c60\`). It must be within ${NONCE_WINDOW_MS / 60_000} minutes ` +
      'of the server\'s clock and is accepted once (a replay is refused with 400 SIGNATURE_REPLAYED).',
  },
  integrationKey: {
    type: 'http',
    scheme: 'bearer',
    description: 'An integration account\'s API key (`flp_…`, Administracja → Konta integracyjne), sent as `Authorization: Bearer <key>`, ' +
      'without X-Nonce and X-Signature. Only the operations that list this scheme take a key, within its clients and scopes (docs/integration.md).',
  },
  signature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description: 'The other half: `base64(HMAC-SHA256(key = name + nonce, message = the raw request body))`, where `name` is the ' +
      '`name` of GET /api/init/pre-config, `nonce` the X-Nonce header, and the body the exact bytes sent (UTF-8 JSON; the ' +
      'multipart bytes of an upload; empty for a call without a body). Missing, malformed, stale or wrong: 400 with `code` SIGNATURE_….',
  },
};

/** A binary answer (a file) with its real media types and how it is offered. */
export function binaryResponse(description: string, mediaTypes: readonly string[], disposition = 'attachment or inline, with the file name (RFC 6266)') {
  return {
    description,
    headers: { 'Content-Disposition': { type: 'string', description: `${disposition}: an ASCII filename and the UTF-8 filename* (RFC 6266).` } },
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
  };
}

/** The documentation-relevant facts of one route, worked out from its options once. */
interface DocumentedRoute {
  operationId: string;
  declaration: OperationDeclaration;
  access: RouteAccess;
  signed: boolean;
  /** The route takes an Idempotency-Key (plugins/idempotency.ts). */
  idempotent: boolean;
  errors: ErrorStatus[];
}

/** The header of a route that declares `idempotent` (issue 47). */
const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'One submission, however often it is sent: a later request of the same user with the same key (within 24 hours) gets the first answer ' +
    'again (with `Idempotent-Replayed: true`) and writes nothing. Each attempt is signed anew (a fresh X-Nonce). 409 IDEMPOTENCY_IN_PROGRESS while the first runs ' +
    '(see Retry-After), IDEMPOTENCY_DONE when it was written but its answer was lost, IDEMPOTENCY_KEY_REUSED for the same key with another call or body.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{8,100}$' },
};

/**
 * The derived error answers of a route (see the module comment). Every one of them is given by a
 * plugin every route passes through, so a route cannot opt out of it; the handler's own are in
 * its schema.
 */
function errorsOf(route: RouteOptions, access: RouteAccess, signed: boolean, declaration: OperationDeclaration): ErrorStatus[] {
  const methods = ([] as string[]).concat(route.method);
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const config = route.config ?? {};
  const takesBody = methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH') || schema.body !== undefined;
  const errors = new Set<ErrorStatus>([503]);
  if (signed || declaration.streamedBody || schema.body || schema.querystring || schema.params || schema.headers) errors.add(400);
  if (access !== 'public') {
    errors.add(401);
    // every non-public route refuses an integration key it is not open to (KEY_NOT_ALLOWED, issue 34)
    errors.add(403);
  }
  // a route open to keys refuses an address that failed with keys too often (server/integration/failed-keys.ts)
  if (config.keys) errors.add(429);
  // an Idempotency-Key in use, done, or reused for another request (plugins/idempotency.ts)
  if (config.idempotent) errors.add(409);
  if (takesBody) errors.add(413);
  if (takesBody && (signed || declaration.streamedBody)) errors.add(415);
  return [...errors].sort();
}

/**
 * The onRoute hook that requires an operation declaration on every documented route; to be added
 * right after the access hook (it reads the resolved access). Returns the routes by operationId,
 * which the document's transform reads.
 */
export function requireOperationDeclarations(app: FastifyInstance): Map<string, DocumentedRoute> {
  const byId = new Map<string, DocumentedRoute>();
  const owners = new Map<string, string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = ([] as string[]).concat(route.method).filter((m) => m !== 'HEAD');
    if (methods.length === 0 || (route.schema as { hide?: boolean } | undefined)?.hide) return;
    const where = `route ${methods.join(',')} ${route.url}`;
    const declaration = route.config?.operation;
    if (!declaration) {
      throw new Error(`${where} declares no operation: add config.operation { resource, action, summary } to its route options (server/plugins/openapi.ts)`);
    }
    const problems = [
      RESOURCE.test(declaration.resource) ? '' : `resource "${declaration.resource}" is not kebab-case`,
      ACTION.test(declaration.action) ? '' : `action "${declaration.action}" is not camelCase`,
      TAGS[declaration.resource] ? '' : `resource "${declaration.resource}" has no tag description in TAGS`,
      declaration.summary?.trim() && declaration.summary.length <= 80 && !declaration.summary.endsWith('.') ? '' : 'summary must be one short line (at most 80 characters, no full stop)',
    ].filter(Boolean);
    if (problems.length) throw new Error(`${where}: operation declaration: ${problems.join('; ')}`);
    const operationId = operationIdOf(declaration.resource, declaration.action);
    const owner = `${methods.join(',')} ${route.url}`;
    if (owners.has(operationId) && owners.get(operationId) !== owner) {
      throw new Error(`${where}: operationId ${operationId} is also ${owners.get(operationId)}: choose another action`);
    }
    owners.set(operationId, owner);
    const access = route.config!.access!;
    const signed = route.config!.signed ?? false;
    byId.set(operationId, { operationId, declaration, access, signed, idempotent: route.config?.idempotent === true, errors: errorsOf(route, access, signed, declaration) });
  });
  return byId;
}

interface PackageInfo {
  name: string;
  version: string;
  description?: string;
  license?: string;
  author?: { name?: string; email?: string; url?: string };
  homepage?: string;
}

/** @fastify/swagger's options: the document's head from package.json, and the rule applied to every operation. */
/** An answer of an operation as the document holds it: a reference to a shared one, or its own description and content. */
interface ResponseNode {
  $ref?: string;
  description?: string;
  content?: Record<string, { schema?: { $ref?: string } }>;
}

/** An operation of the document, as far as this module reads and completes it. */
interface OperationNode {
  operationId?: string;
  responses: Record<string, ResponseNode>;
  parameters?: unknown[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: unknown }> };
}

/** The OpenAPI document as @fastify/swagger hands it to `transformObject` (plain JSON): the parts this module reads and writes. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OperationNode>>;
  components?: { schemas?: Record<string, { title?: string }>; responses?: unknown };
  webhooks?: Record<string, unknown>;
  tags?: { name: string; description?: string }[];
  [key: string]: unknown;
}

export function openapiOptions(routes: Map<string, DocumentedRoute>, extras: {
  webhooks?: () => Record<string, unknown>;
  /** Component schemas built from the configuration (an import's rows, issue 34). */
  schemas?: () => Record<string, unknown>;
} = {}) {
  const pkg = packageJson as PackageInfo;
  const errorPageRefs = (status: string) => `#/components/responses/${ERROR_RESPONSES[Number(status) as ErrorStatus][0]}Page`;
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Portal klienta flotowego – API',
        version: pkg.version,
        description: 'The API of the fleet customer portal. Sign in with POST /api/user/auth and send the `id_token` as a bearer ' +
          'token; sign every POST and PUT (X-Nonce and X-Signature, see the security schemes). Errors share one body ' +
          '(`error-response`): `detail` is the Polish text to show, `errors` names each refused field with its Polish message. ' +
          'A guide with a runnable client: docs/integration.md.',
        contact: pkg.author,
        license: licenseOf(pkg.license),
      },
      servers: [{ url: '/', description: 'The portal serving this document (every path starts with /api).' }],
      components: { securitySchemes: SECURITY_SCHEMES, responses: errorComponents() },
      security: [{ bearer: [] }],
    },
    stripBasePath: false,
    refResolver: { buildLocalReference: (json: { $id?: unknown }, _baseUri: unknown, _fragment: unknown, i: number) => String(json.$id ?? `def-${i}`) },
    transform: ({ schema, url, route }: { schema: FastifySchema & { hide?: boolean }; url: string; route: RouteOptions }) => {
      const declaration = route.config?.operation;
      if (!declaration || schema?.hide) return { schema, url };
      const documented = routes.get(operationIdOf(declaration.resource, declaration.action))!;
      const { access, signed } = documented;
      const bearer = access === 'public' ? {} : { bearer: [] };
      const signature = signed || declaration.streamedBody ? { nonce: [], signature: [] } : {};
      const requirement = { ...bearer, ...signature };
      return {
        url,
        schema: {
          ...schema,
          operationId: documented.operationId,
          summary: declaration.summary,
          tags: [declaration.resource],
          // a route open to integration keys (config.keys) takes a key instead of the session and the signature
          security: [...(Object.keys(requirement).length ? [requirement] : []), ...(route.config?.keys ? [{ integrationKey: [] }] : [])],
        },
      };
    },
    transformObject: ({ openapiObject }: { openapiObject: OpenApiDocument }) => {
      const used = new Set<string>();
      if (extras.schemas) Object.assign((openapiObject.components ??= {}).schemas ??= {}, extras.schemas());
      for (const [path, methods] of Object.entries(openapiObject.paths ?? {})) {
        for (const [method, operation] of Object.entries(methods)) {
          const documented = routes.get(operation.operationId ?? '');
          if (!documented) throw new Error(`${method.toUpperCase()} ${path}: no operation declaration (server/plugins/openapi.ts)`);
          used.add(documented.declaration.resource);
          const responses = operation.responses;
          const shared = (status: string) =>
            documented.declaration.errorPages && (status === '403' || status === '404')
              ? { $ref: errorPageRefs(status) }
              : { $ref: `#/components/responses/${ERROR_RESPONSES[Number(status) as ErrorStatus][0]}` };
          // the handler's own error answers (error-response in its schema) become the shared component
          for (const [status, response] of Object.entries(responses)) {
            if (response?.content?.['application/json']?.schema?.$ref === ERROR_SCHEMA.$ref && Number(status) in ERROR_RESPONSES) {
              responses[status] = shared(status);
            }
          }
          for (const status of documented.errors) responses[status] ??= shared(String(status));
          // an answer without a description of its own is described by its schema's title, or the summary
          for (const response of Object.values(responses)) {
            if (response.description !== 'Default Response') continue;
            const ref: string | undefined = response.content?.['application/json']?.schema?.$ref;
            const title = ref ? openapiObject.components?.schemas?.[ref.slice('#/components/schemas/'.length)]?.title : undefined;
            response.description = title ?? documented.declaration.summary;
          }
          operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
          if (documented.idempotent) (operation.parameters ??= []).push(IDEMPOTENCY_PARAMETER);
          const streamed = documented.declaration.streamedBody;
          if (streamed) {
            const requestBody = {
              required: true,
              ...(streamed.description ? { description: streamed.description } : {}),
              content: { [streamed.mediaType]: { schema: { $ref: `#/components/schemas/${streamed.schema}` } } } as Record<string, { schema: unknown }>,
            };
            operation.requestBody = requestBody;
            const alternative = streamed.alternative;
            const alternatives = alternative ? Object.keys(openapiObject.components?.schemas ?? {}).filter((name) => name.startsWith(alternative.schemasPrefix)) : [];
            if (alternative && alternatives.length) {
              requestBody.content[alternative.mediaType] = { schema: { anyOf: alternatives.map((name) => ({ $ref: `#/components/schemas/${name}` })) } };
            }
          }
        }
      }
      // the events other systems receive (OpenAPI 3.1 `webhooks`): their payloads' schemas (issue 35)
      if (extras.webhooks) {
        openapiObject.webhooks = extras.webhooks();
        if (Object.keys(openapiObject.webhooks).length) used.add('webhooks');
      }
      openapiObject.tags = [...used].sort().map((name) => ({ name, description: TAGS[name] }));
      pruneUnusedSchemas(openapiObject);
      return openapiObject;
    },
  };
}

/**
 * package.json's `license` for `info.license`: an SPDX identifier as it is; UNLICENSED (npm's word
 * for "no licence is granted", a private product) as a named proprietary licence.
 */
function licenseOf(license: string | undefined) {
  if (!license || license === 'UNLICENSED') return { name: 'Proprietary: all rights reserved (UNLICENSED)', identifier: 'LicenseRef-Proprietary' };
  return { name: license, identifier: license };
}

/**
 * Drops the schemas of schemas/ that no operation reaches (a query object whose properties became
 * parameters, say): the document lists what the API uses, nothing else.
 */
function pruneUnusedSchemas(document: OpenApiDocument): void {
  const schemas: Record<string, unknown> = document.components?.schemas ?? {};
  const refsIn = (value: unknown, found: Set<string>) => {
    JSON.stringify(value, (key, v) => {
      if (key === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) found.add(v.slice('#/components/schemas/'.length));
      return v;
    });
    return found;
  };
  const reached = refsIn({ paths: document.paths, webhooks: document.webhooks, responses: document.components?.responses }, new Set());
  for (let grew = true; grew; ) {
    grew = false;
    for (const name of [...reached]) {
      for (const ref of refsIn(schemas[name], new Set())) {
        if (!reached.has(ref)) {
          reached.add(ref);
          grew = true;
        }
      }
    }
  }
  for (const name of Object.keys(schemas)) if (!reached.has(name)) delete schemas[name];
}
