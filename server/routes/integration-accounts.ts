/**
 * Administracja → Konta integracyjne (issue 34, ACCESS.md "integration accounts and their keys":
 * ADMIN only): accounts that other systems call the API with, and their keys. The accounts' table
 * is the `integration-accounts` table resource (schemas/resources/); here are the writes, the
 * scopes to choose from and the keys. A key's text is in exactly one answer: the one creating it.
 */
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../audit/index.ts';
import { HttpError } from '../http-error.ts';
import { accountsRepository, type AccountValues } from '../integration/accounts.ts';
import { availableScopes, type ScopeChoice } from '../integration/scopes.ts';
import { labelledScope } from '../integration/scope-labels.ts';

const RESOURCE = 'integration-accounts';
/** A key's validity when the administrator names none, and the longest one allowed. */
const DEFAULT_VALID_DAYS = 365;
const MAX_VALID_DAYS = 2 * 366;

interface AccountForm {
  name: string;
  allClients: boolean;
  clients?: string[];
  scopes: string[];
}
interface FieldError { field: string; message: string }

export default async function integrationAccountRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const access = { roles: ['ADMIN' as const] };
  const errorResponse = { $ref: 'error-response#' };
  const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } };
  const keyParams = { type: 'object', required: ['id', 'keyId'], properties: { id: idParams.properties.id, keyId: idParams.properties.id } };
  const repository = accountsRepository(app.db);
  const refuse = (errors: FieldError[]) => new HttpError(400, errors.map((e) => e.message).join('; '), { code: 'VALIDATION', errors });
  const notFound = (key = 'errors:notFound') => new HttpError(404, t(key));

  const labelled = (choice: ScopeChoice) => labelledScope(app.config.bundle, t, choice);

  /** The account values the form's rules allow, or a 400 naming every field that breaks one. */
  async function accountValues(form: AccountForm, exceptId?: number): Promise<AccountValues> {
    const errors: FieldError[] = [];
    const name = form.name.trim();
    if (!name) errors.push({ field: 'name', message: t('integration-account:errors.nameRequired') });
    else if (await repository.nameTaken(name, exceptId)) errors.push({ field: 'name', message: t('integration-account:errors.nameTaken') });
    let clients: string[] | null = null;
    if (!form.allClients) {
      clients = [...new Set((form.clients ?? []).map((c) => c.trim()).filter(Boolean))];
      if (clients.length === 0) errors.push({ field: 'clients', message: t('integration-account:errors.clientsRequired') });
      const unknown = await repository.unknownClients(clients);
      if (unknown.length) errors.push({ field: 'clients', message: t('integration-account:errors.clientUnknown', { symbols: unknown.join(', ') }) });
    }
    const offered = new Set(availableScopes(app.config.bundle).map((s) => s.scope));
    const scopes = [...new Set(form.scopes)];
    const unknownScopes = scopes.filter((s) => !offered.has(s));
    if (scopes.length === 0) errors.push({ field: 'scopes', message: t('integration-account:errors.scopesRequired') });
    if (unknownScopes.length) errors.push({ field: 'scopes', message: t('integration-account:errors.scopeUnknown', { scopes: unknownScopes.join(', ') }) });
    if (errors.length) throw refuse(errors);
    return { name, clients, scopes: scopes.sort() };
  }

  app.get('/api/integration-accounts/scopes', {
    config: { access, operation: op('scopes', 'The scopes an integration account may be given, named as the menu names them') },
    schema: { response: { 200: { $ref: 'integration-scope-list#' } } },
    handler: async () => availableScopes(app.config.bundle).map(labelled),
  });

  app.post<{ Body: AccountForm }>('/api/integration-accounts', {
    config: { access, operation: op('create', 'Create an integration account (its clients and scopes)') },
    schema: { body: { $ref: 'integration-account-form#' }, response: { 201: { $ref: 'integration-account#' } } },
    handler: async (request, reply) => {
      const id = await repository.create(await accountValues(request.body), actorOf(request));
      reply.code(201);
      return repository.row(id);
    },
  });

  app.put<{ Body: AccountForm; Params: { id: string } }>('/api/integration-accounts/:id', {
    config: { access, operation: op('update', 'Change an integration account; its keys follow at once on every process') },
    schema: { params: idParams, body: { $ref: 'integration-account-form#' }, response: { 200: { $ref: 'integration-account#' }, 404: errorResponse } },
    handler: async (request) => {
      const id = Number(request.params.id);
      if (!(await repository.exists(id))) throw notFound();
      if (!(await repository.update(id, await accountValues(request.body, id), actorOf(request)))) throw notFound();
      return repository.row(id);
    },
  });

  app.get<{ Params: { id: string } }>('/api/integration-accounts/:id', {
    config: { access, operation: op('details', 'An integration account with its keys (the keys panel)') },
    schema: { params: idParams, response: { 200: { $ref: 'integration-account-details#' }, 404: errorResponse } },
    handler: async (request) => {
      const id = Number(request.params.id);
      const account = await repository.row(id);
      if (!account) throw notFound();
      return { account, keys: await repository.keys(id, app.clock()) };
    },
  });

  app.get<{ Params: { id: string } }>('/api/integration-accounts/:id/keys', {
    config: { access, operation: op('keys', 'The keys of an integration account (never the keys themselves)') },
    schema: { params: idParams, response: { 200: { $ref: 'integration-key-list#' }, 404: errorResponse } },
    handler: async (request) => {
      if (!(await repository.exists(Number(request.params.id)))) throw notFound();
      return repository.keys(Number(request.params.id), app.clock());
    },
  });

  app.delete<{ Params: { id: string } }>('/api/integration-accounts/:id', {
    config: { access, operation: op('delete', 'Remove an integration account and its keys (the trail keeps its history)') },
    schema: { params: idParams, response: { 200: { $ref: 'message-response#' }, 404: errorResponse } },
    handler: async (request) => {
      if (!(await repository.remove(Number(request.params.id), actorOf(request)))) throw notFound();
      return { message: t('integration-account:messages.deleted') };
    },
  });

  app.post<{ Body: { name?: string | null; validTo?: string | null } | undefined; Params: { id: string } }>('/api/integration-accounts/:id/keys', {
    config: { access, operation: op('createKey', 'A new key of an integration account, shown in this answer only') },
    schema: {
      description: 'At most two keys of an account are active at once (rotation: make the new one, switch the system over, revoke the old one); a third is refused with 400.',
      params: idParams,
      body: { $ref: 'integration-key-request#' },
      response: { 201: { $ref: 'integration-key-created#' }, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const now = app.clock();
      const expiresAt = validity(request.body?.validTo ?? null, now);
      const made = await repository.createKey(Number(request.params.id), expiresAt, actorOf(request), request.body?.name?.trim() || null);
      if (made === 'noAccount') throw notFound();
      if (made === 'tooMany') {
        const message = t('integration-account:errors.tooManyKeys');
        throw new HttpError(400, message, { code: 'TOO_MANY_KEYS', errors: [{ field: 'keys', message }] });
      }
      reply.code(201);
      return { key: made.key, ...made.row, message: t('integration-account:keys.created') };
    },
  });

  app.post<{ Params: { id: string; keyId: string } }>('/api/integration-accounts/:id/keys/:keyId/revoke', {
    config: { access, operation: op('revokeKey', 'Revoke a key: refused at once on every server process') },
    schema: { params: keyParams, response: { 200: { $ref: 'integration-key#' }, 404: errorResponse } },
    handler: async (request) => {
      const row = await repository.revokeKey(Number(request.params.id), Number(request.params.keyId), app.clock(), actorOf(request));
      if (!row) throw notFound('integration-account:errors.keyNotFound');
      return row;
    },
  });

  /** The key's end: the end of the day validTo (UTC), by default a year from now; a 400 outside (today, two years]. */
  function validity(validTo: string | null, now: Date): Date {
    const day = 86_400_000;
    if (validTo === null) return new Date(now.getTime() + DEFAULT_VALID_DAYS * day);
    const end = new Date(`${validTo}T00:00:00Z`).getTime() + day;
    if (!Number.isFinite(end) || end <= now.getTime() + day || end > now.getTime() + MAX_VALID_DAYS * day) {
      const message = t('integration-account:errors.validToInvalid');
      throw refuse([{ field: 'validTo', message }]);
    }
    return new Date(end);
  }
}
