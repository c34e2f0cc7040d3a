/**
 * The configuration studio (issue 26): ADMIN only (ACCESS.md "configuration studio | ADMIN").
 * What each call does is server/studio/service.ts; the calls are listed in docs/config-studio-api.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Json } from '../../runtime/core/merge.ts';
import { actorOf } from '../audit/index.ts';
import { uiConfigResponse } from './init.ts';
import type { NewText } from '../studio/service.ts';

const ADMIN = { roles: ['ADMIN' as const] };
const error = { $ref: 'error-response#' };
const invalid = { $ref: 'studio-invalid#' };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,9}$' } } } as const;
/** A version to restore: 0 is every scope's start, the configuration as in the files. */
const restoreParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^(0|[1-9][0-9]{0,9})$' } } } as const;

export default async function configStudioRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'config-studio', action, summary });
  const session = (request: { session?: unknown }) => request.session as NonNullable<import('fastify').FastifyRequest['session']>;
  const id = (request: { params: unknown }) => Number((request.params as { id: string }).id);

  app.get('/api/config-studio', {
    config: { access: ADMIN, operation: op('overview', "Scopes, documents, the published version, the caller's draft, broken entries") },
    schema: { response: { 200: { $ref: 'studio-overview#' } } },
    handler: async (request) => app.studio.overview(session(request)),
  });

  app.get<{ Querystring: { scope: string; path: string } }>('/api/config-studio/document', {
    config: { access: ADMIN, operation: op('document', 'A document as the files give it and with the layer') },
    schema: { querystring: { $ref: 'studio-document-query#' }, response: { 200: { $ref: 'studio-document#' }, 400: error, 404: error } },
    handler: async (request) => app.studio.document(session(request), request.query.scope, request.query.path),
  });

  app.put<{ Body: { changes: { scope: string; path: string; document: Json }[] } }>('/api/config-studio/documents', {
    config: { access: ADMIN, operation: op('saveDocuments', "Save edited documents into the caller's draft (refused whole if checks fail)") },
    schema: { body: { $ref: 'studio-documents-request#' }, response: { 200: { $ref: 'studio-draft#' }, 400: invalid, 404: error } },
    handler: async (request) => app.studio.saveDocuments(session(request), request.body.changes),
  });

  app.post<{ Body: { scope: string; path: string; document: Json; texts?: NewText[] } }>('/api/config-studio/document', {
    config: { access: ADMIN, operation: op('createDocument', "Create a new document (a report) in the caller's draft, with its new texts") },
    schema: { body: { $ref: 'studio-create-request#' }, response: { 200: { $ref: 'studio-draft#' }, 400: invalid, 404: error, 409: error } },
    handler: async (request) => app.studio.createDocument(session(request), request.body.scope, request.body.path, request.body.document, request.body.texts),
  });

  app.delete<{ Querystring: { scope: string; path: string } }>('/api/config-studio/document', {
    config: { access: ADMIN, operation: op('forgetDocument', "Take a document's change out of the caller's draft") },
    schema: { querystring: { $ref: 'studio-document-query#' }, response: { 200: { $ref: 'studio-draft#' }, 400: invalid, 404: error } },
    handler: async (request) => app.studio.forgetDocument(session(request), request.query.scope, request.query.path),
  });

  app.get<{ Querystring: { scope: string; q?: string; ns?: string } }>('/api/config-studio/texts', {
    config: { access: ADMIN, operation: op('texts', 'Texts users see, found by their words or key, each with where it is shown') },
    schema: { querystring: { $ref: 'studio-texts-query#' }, response: { 200: { $ref: 'studio-texts#' }, 400: error, 404: error } },
    handler: async (request) => app.studio.texts(session(request), request.query.scope, request.query.q ?? '', request.query.ns),
  });

  app.put<{ Body: { scope: string; key: string; text: string; translations?: Record<string, string> } }>('/api/config-studio/texts', {
    config: { access: ADMIN, operation: op('saveText', "Change a text in the caller's draft, in each language side by side") },
    schema: { body: { $ref: 'studio-text-request#' }, response: { 200: { $ref: 'studio-draft#' }, 400: invalid, 404: error } },
    handler: async (request) => app.studio.saveText(session(request), request.body.scope, request.body.key, request.body.text, request.body.translations),
  });

  app.get('/api/config-studio/draft/diff', {
    config: { access: ADMIN, operation: op('draftDiff', "The caller's draft against the published version, value by value") },
    schema: { response: { 200: { $ref: 'studio-changes#' } } },
    handler: async (request) => app.studio.draftDiff(session(request)),
  });

  app.post<{ Body: { scope: string; path: string; at: (string | { id: string })[] } }>('/api/config-studio/draft/revert', {
    config: { access: ADMIN, operation: op('revertChange', "Take one change (a value of the draft's diff) back out of the caller's draft") },
    schema: { body: { $ref: 'studio-revert-request#' }, response: { 200: { $ref: 'studio-draft#' }, 400: invalid, 404: error } },
    handler: async (request) => app.studio.revertChange(session(request), request.body.scope, request.body.path, request.body.at),
  });

  app.post('/api/config-studio/draft/discard', {
    config: { access: ADMIN, operation: op('discardDraft', "Throw away the caller's draft") },
    schema: { response: { 200: { $ref: 'studio-draft#' } } },
    handler: async (request) => app.studio.discard(session(request)),
  });

  app.post('/api/config-studio/draft/rebase', {
    config: { access: ADMIN, operation: op('rebaseDraft', "Rebase the caller's draft on the newest published version") },
    schema: { response: { 200: { $ref: 'studio-draft#' }, 404: error } },
    handler: async (request) => app.studio.rebase(session(request)),
  });

  app.post<{ Body: { comment: string } }>('/api/config-studio/publish', {
    config: { access: ADMIN, operation: op('publish', "Publish the caller's draft: every server process serves it at once") },
    schema: { body: { $ref: 'studio-publish-request#' }, response: { 200: { $ref: 'studio-published#' }, 400: invalid, 404: error, 409: { $ref: 'studio-stale#' } } },
    handler: async (request) => app.studio.publish(session(request), request.body.comment, actorOf(request)),
  });

  app.get<{ Querystring: { scope?: string } }>('/api/config-studio/versions', {
    config: { access: ADMIN, operation: op('versions', 'The published versions, newest first (of one scope, numbered in it)') },
    schema: { querystring: { $ref: 'studio-versions-query#' }, response: { 200: { $ref: 'studio-versions#' } } },
    handler: async (request) => app.studio.versions(request.query.scope),
  });

  app.get<{ Querystring: { scope?: string } }>('/api/config-studio/versions/:id/diff', {
    config: { access: ADMIN, operation: op('versionDiff', 'What a version changed against the one before it (in one scope)') },
    schema: { params: idParams, querystring: { $ref: 'studio-versions-query#' }, response: { 200: { $ref: 'studio-changes#' }, 400: error, 404: error } },
    handler: async (request) => app.studio.versionDiff(id(request), request.query.scope),
  });

  app.post<{ Body: { comment?: string; scope?: string } }>('/api/config-studio/versions/:id/restore', {
    config: { access: ADMIN, operation: op('restoreVersion', 'Publish an earlier version again (rollback), of one scope or whole') },
    schema: {
      params: restoreParams, body: { $ref: 'studio-restore-request#' },
      response: { 200: { $ref: 'studio-published#' }, 400: invalid, 404: error, 409: error },
    },
    handler: async (request) => app.studio.restore(session(request), id(request), request.body?.comment, request.body?.scope, actorOf(request)),
  });

  app.get<{ Querystring: { source?: 'published' | 'draft' } }>('/api/config-studio/export', {
    config: { access: ADMIN, operation: op('export', 'The layer as configuration files to commit') },
    schema: { querystring: { $ref: 'studio-export-query#' }, response: { 200: { $ref: 'studio-files#' }, 400: error } },
    handler: async (request, reply) => {
      const source = request.query.source ?? 'published';
      reply.header('content-disposition', `attachment; filename="konfiguracja-${source}-${app.clock().toISOString().slice(0, 10)}.json"`);
      return app.studio.exportFiles(session(request), source);
    },
  });

  app.post<{ Body: { format: string; files: Record<string, Json> } }>('/api/config-studio/import', {
    config: { access: ADMIN, operation: op('import', "Take exported files into the caller's draft (it is replaced)") },
    schema: { body: { $ref: 'studio-files#' }, response: { 200: { $ref: 'studio-draft#' }, 400: invalid, 404: error } },
    handler: async (request) => app.studio.importFiles(session(request), request.body.files),
  });

  app.get('/api/config-studio/meta-schemas', {
    config: { access: ADMIN, operation: op('metaSchemas', "The configuration's meta-schemas by $id, for the JSON editor") },
    schema: { response: { 200: { $ref: 'studio-meta-schemas#' } } },
    handler: async (_request, reply) => {
      reply.header('cache-control', 'private, max-age=300');
      return app.studio.metaSchemas();
    },
  });

  app.get<{ Querystring: { variant: string; source?: 'published' | 'draft' } }>('/api/config-studio/preview', {
    config: { access: ADMIN, operation: op('preview', "A variant's configuration bundle with the caller's draft (preview)") },
    schema: { querystring: { $ref: 'studio-preview-query#' }, response: { 200: uiConfigResponse, 400: invalid, 404: error } },
    handler: async (request) => app.studio.preview(session(request), request.query.variant, request.query.source ?? 'draft'),
  });
}
