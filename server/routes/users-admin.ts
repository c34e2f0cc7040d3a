/**
 * Users administration (spec §2 Users, §3 User, §5 "User form", §6 ADMIN, §7 Users; ACCESS.md
 * "users (table, create, update, delete, change-password): ADMIN"). Create and copy call POST
 * /users, edit PUT /users/{id}, delete DELETE /users/{id}; the users table itself is the users
 * table resource. Who may call is the users resource's declaration (ADMIN only).
 *
 * HTTP only (issue 45): the form's rules, the transaction, the password, the ended sessions and
 * the trail are app.accountService's (server/services/accounts.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../audit/index.ts';
import type { UserForm } from '../services/accounts.ts';

const RESOURCE = 'users';
/** Clients offered by the autocomplete at most. */
const AUTOCOMPLETE_LIMIT = 20;

export default async function usersAdminRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const errorResponse = { $ref: 'error-response#' };
  /** The saved account as the users table shows it. */
  const savedUser = (request: FastifyRequest, id: number) => app.tableQueries.byId(RESOURCE, request.session!, String(id));

  app.post<{ Body: UserForm }>('/api/users', {
    config: { access: { resource: RESOURCE }, operation: op('create', 'Create a user account') },
    schema: {
      description: 'Creates an account (the add and the copy of the users table). Role MANAGER unless given; the advisor role only when enabled in the configuration. ' +
        'A password given here follows the password policy and must be changed at the first sign-in.',
      body: { $ref: 'user-form#' },
      response: { 200: { $ref: 'user-saved-response#' }, 400: errorResponse, 403: errorResponse },
    },
    handler: async (request) => {
      const id = await app.accountService.create(actorOf(request), request.body);
      return { message: t('user:messages.added'), user: await savedUser(request, id) };
    },
  });

  app.put<{ Params: { id: string }; Body: UserForm }>('/api/users/:id', {
    config: { access: { resource: RESOURCE }, operation: op('update', 'Change a user account') },
    schema: {
      description: 'Changes an account. The role stays as created (a form may repeat it). A password given here is set as by PUT /api/users/change-password. The account\'s other sessions end.',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      body: { $ref: 'user-form#' },
      response: { 200: { $ref: 'user-saved-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const id = Number(request.params.id);
      await app.accountService.update(actorOf(request), request.session!, id, request.body);
      return { message: t('user:messages.updated'), user: await savedUser(request, id) };
    },
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', {
    config: { access: { resource: RESOURCE }, operation: op('delete', 'Delete a user account, keeping its history') },
    schema: {
      description: 'Deletes an account, keeping its history readable (docs/decisions.md "Deleting a user"); its sessions end. One\'s own account cannot be deleted.',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      await app.accountService.remove(actorOf(request), request.session!, Number(request.params.id));
      return { message: t('user:messages.deleted') };
    },
  });

  app.get<{ Querystring: { searchText?: string } }>('/api/auto-complete/clients', {
    // ACCESS.md "auto-complete/clients: ADMIN" (the user form's client choice)
    config: { access: { resource: RESOURCE }, operation: { resource: 'auto-complete', action: 'clients', summary: 'Clients whose symbol or name contains the text' } },
    schema: {
      description: `Clients whose symbol or name contains searchText (at most ${AUTOCOMPLETE_LIMIT}).`,
      querystring: { type: 'object', properties: { searchText: { type: 'string', maxLength: 100, pattern: '^[^\\u0000]*$' } } },
      response: { 200: { $ref: 'client-autocomplete#' }, 400: errorResponse },
    },
    handler: async (request) => app.users.admin.clients(request.query.searchText ?? '', AUTOCOMPLETE_LIMIT),
  });

  app.get<{ Querystring: { searchText?: string } }>('/api/auto-complete/stations', {
    // ACCESS.md "auto-complete/stations: ADMIN" (the user form's service station choice for an advisor)
    config: { access: { resource: RESOURCE }, operation: { resource: 'auto-complete', action: 'stations', summary: 'Service stations whose symbol or name contains the text' } },
    schema: {
      description: `Service stations whose symbol or name contains searchText (at most ${AUTOCOMPLETE_LIMIT}).`,
      querystring: { type: 'object', properties: { searchText: { type: 'string', maxLength: 100, pattern: '^[^\\u0000]*$' } } },
      response: { 200: { $ref: 'station-autocomplete#' }, 400: errorResponse },
    },
    handler: async (request) => app.users.admin.stations(request.query.searchText ?? '', AUTOCOMPLETE_LIMIT),
  });
}
