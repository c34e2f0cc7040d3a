/**
 * Imports (issue 34, CONTRACTS.md "Import API"): the declarations of the caller's variant, the
 * remembered column mapping, the preview of a file's head, runs (created from a streamed upload
 * or JSON lines, dry or real), their state, progress, counts and errors (also as xlsx).
 *
 * ADMIN, and integration keys with the scope import:<declaration> (`keys: 'import'`). The upload
 * streams into the database in pieces (the job may run in another process) and is signed like
 * every POST, the signature checked over the bytes as they pass (streamed-signature.ts); a key's
 * call carries no signature.
 */
import { PassThrough, type Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { lazyModule } from '../lazy-module.ts';
import { streamedSignature } from '../attachments/streamed-signature.ts';
import { contentDisposition } from '../downloads/reply.ts';
import { HttpError } from '../http-error.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { fieldLabel, resolveFields, suggestMapping, type ImportDecl } from '../config/import-declaration.ts';
import { IMPORT_ROW_PREFIX } from '../imports/openapi.ts';
import { fieldColumns } from '../imports/engine.ts';
import { formatOf, ImportFileError, openRows, type Cell } from '../imports/read-file.ts';
import { importLimits } from '../imports/service.ts';
import { mayImport } from '../integration/scopes.ts';
import { fileFormatOf } from '../imports/files.ts';
import { approvedDryRun, runAnswerExtras, errorValue } from '../imports/approval.ts';
import { createHash } from 'node:crypto';
import { importRuns } from '../imports/runs.ts';
import { actorOf as auditActorOf } from '../audit/index.ts';

const errorResponse = { $ref: 'error-response#' };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' } } };
const ACCESS = { roles: ['ADMIN' as const] };
/** exceljs, loaded for the first file of errors (server/lazy-module.ts). */
const excelJs = lazyModule(async () => (await import('exceljs')).default);
const MODES = ['dryRun', 'import'];
const ON_ERROR = ['allOrNothing', 'validRows'];
const MISSING = ['keep', 'deactivate'];
/** Errors a run's answer lists (the rest are paged, and in the xlsx). */
const ERRORS_SHOWN = 200;
/** Rows of the xlsx of rows to fix. */
const ERROR_FILE_ROWS = 100_000;

/** The integration key of the call (CONTRACTS.md: request.integration, set by the auth plugin), or undefined for a person. */
const integrationOf = (request: FastifyRequest) => request.integration ?? undefined;

export default async function importRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: 'import', action, summary });
  const notFound = () => new HttpError(404, t('errors:notFound'));
  const invalid = (field: string, message: string, code = 'VALIDATION') => new HttpError(400, message, { code, errors: [{ field, message }] });

  // the run's and the mapping's rows: server/imports/runs.ts (issue 45: routes are HTTP only)
  const runs = importRuns(app.db);

  await app.register(multipart, { throwFileSizeLimit: false });
  app.addContentTypeParser(['application/x-ndjson', 'application/jsonl'], (_request, payload, done) => done(null, payload));

  /** The declaration by name, when the caller may import it (a key needs import:<name>); else 404/403. */
  function declarationFor(request: FastifyRequest, name: string | undefined): ImportDecl {
    const decl = name ? app.config.bundle.imports[name] : undefined;
    if (!decl) throw invalid('declaration', t('import:errors.unknownDeclaration'));
    const integration = integrationOf(request);
    if (integration && !mayImport(request, decl.import)) throw new HttpError(403, t('import:errors.notAllowed'), { code: 'FORBIDDEN' });
    return decl;
  }
  /** Runs the caller sees: an administrator all, a key those it created. */
  const actorOf = (request: FastifyRequest) => {
    const integration = integrationOf(request);
    return integration ? `key:${integration.keyId}` : `user:${request.session!.userId}`;
  };
  const visibleRuns = (request: FastifyRequest) => {
    const query = app.db.selectFrom('import_run').where('state', '!=', 'receiving');
    return integrationOf(request) ? query.where('actor', '=', actorOf(request)) : query;
  };

  const runAnswer = async (row: Selectable<DB['import_run']>, withErrors = true) => {
    const errors = withErrors
      ? await app.db.selectFrom('import_error').select(['rowNo', 'column', 'message', 'cells']).where('runId', '=', row.id).orderBy('rowNo').orderBy('seq').limit(ERRORS_SHOWN).execute()
      : [];
    return {
      id: Number(row.id), declaration: row.declaration, fileName: row.fileName, mode: row.mode, onError: row.onError, missing: row.missing,
      state: row.state, createdAt: new Date(row.createdAt).toISOString(),
      startedAt: row.startedAt ? new Date(row.startedAt).toISOString() : null, finishedAt: row.finishedAt ? new Date(row.finishedAt).toISOString() : null,
      createdBy: { name: row.createdByName },
      progress: { rows: row.progressRows, total: row.progressTotal },
      counts: { new: row.countNew, changed: row.countChanged, unchanged: row.countUnchanged, deactivated: row.countDeactivated, errors: row.countErrors },
      message: row.message,
      errors: errors.map((e) => ({ row: e.rowNo, column: e.column, message: e.message, ...errorValue(row.columns, e) })),
      unknownColumns: row.unknownColumns ?? [],
      ...runAnswerExtras(row, app.config.bundle.imports[row.declaration]),
    };
  };
  const tooLarge = (limit: string) => new HttpError(413, t('import:errors.tooLarge', { limit }), { code: 'IMPORT_TOO_LARGE' });
  const tooManyRows = (limit: number) => new HttpError(413, t('import:errors.tooManyRows', { limit: limit.toLocaleString(app.config.language.locale) }), { code: 'IMPORT_TOO_MANY_ROWS' });

  // ---------------------------------------------------------------- declarations
  app.get('/api/import/declarations', {
    config: { access: ACCESS, keys: 'import', operation: op('declarations', 'Importable resources of the caller\'s variant and their fields') },
    schema: { response: { 200: { $ref: 'import-declarations#' }, 401: errorResponse, 403: errorResponse } },
    handler: async (request) => {
      const bundle = app.config.bundle;
      const integration = integrationOf(request);
      const decls = Object.values(bundle.imports).filter((d) => !integration || mayImport(request, d.import));
      const remembered = await runs.mappings(bundle.variant);
      return decls.map((decl) => ({
        name: decl.import,
        label: t(decl.label ?? `${decl.entity}:title`),
        key: decl.key,
        fields: resolveFields(decl, bundle.schemas).map((f) => ({
          name: f.id, label: fieldLabel(decl, f, t), required: Boolean(f.required || (f.reference && decl.references?.[f.reference]?.required)),
          type: f.type, ...(f.blank ? { blank: f.blank } : {}), ...(f.reference ? { reference: f.reference } : {}), aliases: f.aliases ?? [],
        })),
        ...(decl.files ? { accept: ['.zip', '.pdf'] } : {}),
        missing: decl.missing?.deactivate && decl.client ? ['keep', 'deactivate'] : ['keep'],
        mapping: (remembered.find((r) => r.declaration === decl.import)?.mapping as Record<string, string | null> | undefined) ?? null,
      // in the order of their names, as the screen lists them (the files' order is no order a person reads)
      })).sort((a, b) => a.label.localeCompare(b.label, app.config.language.locale));
    },
  });

  app.put<{ Params: { name: string }; Body: { mapping: Record<string, string | null> } }>('/api/import/declarations/:name/mapping', {
    config: { access: ACCESS, keys: 'import', operation: op('saveMapping', 'Remember a column mapping of a declaration for this variant') },
    schema: {
      params: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 100 } } },
      body: { $ref: 'import-mapping-request#' },
      response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 401: errorResponse, 403: errorResponse },
    },
    handler: async (request) => {
      const decl = declarationFor(request, request.params.name);
      const known = new Set(decl.fields.map((f) => f.id));
      for (const [column, field] of Object.entries(request.body.mapping)) {
        if (field !== null && !known.has(field)) throw invalid(`mapping.${column}`, t('import:errors.badMapping'));
      }
      const variant = app.config.bundle.variant;
      await runs.saveMapping(app.writes, auditActorOf(request), decl.import, variant, request.body.mapping);
      return { message: t('import:messages.mappingSaved') };
    },
  });

  // ---------------------------------------------------------------- preview
  app.post('/api/import/preview', {
    config: {
      access: ACCESS, keys: 'import', signed: false, bodyTypes: ['multipart/form-data'],
      operation: { ...op('preview', 'Preview a file: columns, first rows, suggested mapping'), streamedBody: { mediaType: 'multipart/form-data', schema: 'import-run-request', description: 'Fields `declaration`, and the file as the part `file`; only the head of the file is read.' } },
    },
    schema: {
      description: 'multipart/form-data, signed like every POST (X-Nonce, X-Signature over the raw body). Reads the head of the file: encoding, delimiter, columns, up to 5 rows and the suggested mapping for the declaration.',
      response: { 200: { $ref: 'import-preview#' }, 400: errorResponse, 401: errorResponse, 403: errorResponse, 413: errorResponse, 415: errorResponse },
    },
    handler: async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, t('errors:unsupportedMediaType'), { code: 'UNSUPPORTED_MEDIA_TYPE' });
      const signature = integrationOf(request) ? undefined : streamedSignature(app, request);
      const fields: Record<string, string> = {};
      let answer: Record<string, unknown> | undefined;
      let refusal: Error | undefined;
      for await (const part of request.parts({ limits: { fields: 20, fieldSize: 64 * 1024, files: 1 } })) {
        if (part.type === 'field') {
          fields[part.fieldname] = String(part.value);
          continue;
        }
        if (answer || refusal) {
          part.file.resume();
          continue;
        }
        try {
          const decl = declarationFor(request, fields.declaration);
          if (decl.files) {
            // files are no table: the preview is the file's own name as the one column (files.ts)
            answer = filesPreview(decl, part.filename);
            part.file.resume();
            continue;
          }
          const format = formatOf(part.filename);
          if (!format) throw invalid('file', t('import:errors.format'));
          const { head, rows } = await openRows(part.file as AsyncIterable<Buffer>, format, part.filename);
          const sample: string[][] = [];
          for await (const row of rows) {
            sample.push(row.cells.map(cellText));
            if (sample.length >= 5) break;
          }
          const suggested = suggestMapping(decl, head.columns, t);
          answer = {
            format, encoding: head.encoding, delimiter: head.delimiter, columns: head.columns, sample, suggested,
            unknownColumns: fieldColumns(decl, head.columns, suggested).unknownColumns,
          };
        } catch (error) {
          refusal = error instanceof ImportFileError ? invalid('file', t(error.key, error.vars), 'IMPORT_FILE') : (error as Error);
        }
        part.file.resume();
      }
      await signature?.verify();
      if (refusal) throw refusal;
      if (!answer) throw invalid('file', t('import:errors.fileRequired'));
      return reply.send(answer);
    },
  });

  // ---------------------------------------------------------------- runs
  app.post<{ Querystring: Record<string, string | undefined> }>('/api/import/runs', {
    config: {
      access: ACCESS, keys: 'import', signed: false, bodyTypes: ['multipart/form-data', 'application/x-ndjson'],
      operation: { ...op('createRun', 'Create an import run (file or JSON lines), dry or real'), streamedBody: { mediaType: 'multipart/form-data', schema: 'import-run-request', description: 'Fields `declaration`, `mode`, `onError`, `missing`, `mapping`, `dryRun`, `confirmDeactivated` and the file as the part `file`. Alternatively `Content-Type: application/x-ndjson` with those fields as query parameters and one JSON object per line (its schema per declaration: import-row-<declaration>).', alternative: { mediaType: 'application/x-ndjson', schemasPrefix: IMPORT_ROW_PREFIX } } },
    },
    schema: {
      description: 'Streams the file into the database and queues the run (202). Signed like every POST (X-Nonce, X-Signature over the raw body), except for an integration key. ' +
        'Idempotency-Key: the same key from the same caller answers the same run. Over the configured rows or bytes: 413 with the limit in words.',
      querystring: { type: 'object', properties: { declaration: { type: 'string' }, mode: { type: 'string' }, onError: { type: 'string' }, missing: { type: 'string' }, mapping: { type: 'string' }, fileName: { type: 'string' }, dryRun: { type: 'string' }, confirmDeactivated: { type: 'string' } } },
      headers: { type: 'object', properties: { 'idempotency-key': { type: 'string', maxLength: 200 } } },
      response: { 202: { $ref: 'import-run-created#' }, 400: errorResponse, 401: errorResponse, 403: errorResponse, 413: errorResponse, 415: errorResponse },
    },
    handler: async (request, reply) => createRun(request, reply),
  });

  async function createRun(request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>, reply: FastifyReply) {
    const session = request.session!;
    const integration = integrationOf(request);
    const actor = actorOf(request);
    const idempotencyKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
    const isNdjson = /ndjson|jsonl/.test(String(request.headers['content-type'] ?? ''));
    if (!isNdjson && !request.isMultipart()) throw new HttpError(415, t('errors:unsupportedMediaType'), { code: 'UNSUPPORTED_MEDIA_TYPE' });
    if (idempotencyKey) {
      const known = await runs.known(actor, idempotencyKey);
      if (known) {
        request.raw.resume();
        return reply.status(202).send({ id: Number(known.id), state: known.state });
      }
    }
    const limits = importLimits(app.config.bundle.config);
    // piped before the signature's listener sees the bytes: that listener would set the body flowing
    // while the run's row is still being written, and its first bytes would pass unread
    const ndjsonBody = isNdjson ? (request.body as Readable).pipe(new PassThrough()) : undefined;
    const signature = integration ? undefined : streamedSignature(app, request);
    const fields: Record<string, string> = isNdjson ? Object.fromEntries(Object.entries(request.query).filter(([, v]) => typeof v === 'string')) as Record<string, string> : {};
    let runId: number | undefined;
    let refusal: Error | undefined;

    /** Stores the stream in pieces of 1 MB under a new run; counts the rows of a text file on the way. */
    const receive = async (stream: AsyncIterable<Buffer> & { truncated?: boolean }, fileName: string, format: 'csv' | 'xlsx' | 'ndjson' | 'zip' | 'pdf') => {
      runId = await runs.open({
        declaration: fields.declaration ?? '', variant: app.config.bundle.variant, fileName, format, mode: 'dryRun', onError: 'allOrNothing', missing: 'keep',
        state: 'receiving', actor, userId: integration ? null : session.userId, integrationKeyId: integration?.keyId ?? null,
        createdByName: session.login, clients: integration && integration.clients !== 'all' ? JSON.stringify(integration.clients) : null,
        // the run is checked on a job: its row errors and message come in this request's caller's language (issue 48)
        language: app.config.language.id,
      });
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let seq = 0;
      let bytes = 0;
      let lines = 0;
      // the file's fingerprint: an import naming its dry run must carry the very file it read (issue 49)
      const sha256 = createHash('sha256');
      const flush = async () => {
        if (!pendingBytes) return;
        await runs.addChunk(runId!, seq++, Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of stream) {
        bytes += chunk.length;
        sha256.update(chunk);
        if (bytes > limits.maxBytes) throw tooLarge(`${limits.megabytes} MB`);
        if (format === 'csv' || format === 'ndjson') {
          for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
          // the heading and the rows; one more line than that is over the limit
          if (lines > limits.maxRows + 1) throw tooManyRows(limits.maxRows);
        }
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= app.imports.CHUNK_BYTES) await flush();
      }
      if (stream.truncated) throw tooLarge(`${limits.megabytes} MB`);
      await flush();
      await runs.received(runId, bytes, sha256.digest('hex'));
    };

    try {
      if (isNdjson) {
        await receive(ndjsonBody!, fields.fileName || 'api.jsonl', 'ndjson');
      } else {
        for await (const part of request.parts({ limits: { fields: 20, fieldSize: 64 * 1024, files: 1, fileSize: limits.maxBytes } })) {
          if (part.type === 'field') {
            fields[part.fieldname] = String(part.value);
            continue;
          }
          if (runId !== undefined || refusal) {
            part.file.resume();
            continue;
          }
          const format = formatOf(part.filename) ?? fileFormatOf(part.filename);
          if (!format) {
            refusal = invalid('file', t('import:errors.format'));
            part.file.resume();
            continue;
          }
          await receive(part.file as AsyncIterable<Buffer> & { truncated?: boolean }, part.filename, format);
        }
      }
      await signature?.verify();
      if (refusal) throw refusal;
      if (runId === undefined) throw invalid('file', t('import:errors.fileRequired'));
      const decl = declarationFor(request, fields.declaration);
      // an import of files takes a zip or a PDF, an import of rows never (files.ts)
      const received = await runs.format(runId);
      const isFile = received === 'zip' || received === 'pdf';
      if (decl.files && !isFile) throw invalid('file', t('import:errors.filesOnly'));
      if (!decl.files && isFile) throw invalid('file', t('import:errors.format'));
      const mode = fields.mode ?? 'dryRun';
      const onError = fields.onError ?? 'allOrNothing';
      const missing = fields.missing ?? 'keep';
      if (!MODES.includes(mode)) throw invalid('mode', t('validation:enum'));
      if (!ON_ERROR.includes(onError)) throw invalid('onError', t('validation:enum'));
      if (!MISSING.includes(missing)) throw invalid('missing', t('validation:enum'));
      if (missing === 'deactivate' && !(decl.missing?.deactivate && decl.client)) throw invalid('missing', t('import:errors.noDeactivate'));
      let mapping: Record<string, string | null> | null = null;
      if (fields.mapping) {
        try {
          mapping = JSON.parse(fields.mapping);
        } catch {
          throw invalid('mapping', t('import:errors.badMapping'));
        }
        const known = new Set(decl.fields.map((f) => f.id));
        if (!mapping || typeof mapping !== 'object' || Array.isArray(mapping) || Object.values(mapping).some((f) => f !== null && !known.has(String(f)))) {
          throw invalid('mapping', t('import:errors.badMapping'));
        }
      }
      const fileSha256 = await runs.fileSha256(runId);
      const dryRunId = await approvedDryRun(app.db, { actor, decl, mode, onError, missing, mapping, fileSha256, dryRun: fields.dryRun, confirmDeactivated: fields.confirmDeactivated, locale: app.config.language.locale }, t);
      try {
        await runs.queue(runId, {
          declaration: decl.import, mode, onError, missing, mapping: mapping ? JSON.stringify(mapping) : null, idempotencyKey, dryRunId,
        });
      } catch (error) {
        // the same Idempotency-Key raced in twice: the first one's run is the answer
        if ((error as { code?: string }).code !== '23505') throw error;
        await runs.drop(runId);
        const known = (await runs.known(actor, idempotencyKey!, false))!;
        return reply.status(202).send({ id: Number(known.id), state: known.state });
      }
      await app.imports.dispatch(runId);
      return reply.status(202).send({ id: runId, state: 'queued' });
    } catch (error) {
      if (runId !== undefined) await runs.drop(runId, true).catch(() => undefined);
      if (error instanceof HttpError && error.statusCode === 413) reply.header('connection', 'close');
      throw error;
    }
  }

  app.get<{ Querystring: { page?: string; size?: string; mode?: 'dryRun' | 'import' } }>('/api/import/runs', {
    config: { access: ACCESS, keys: 'import', operation: op('runs', 'The import runs, newest first (only dry runs or only imports with mode)') },
    schema: { querystring: { $ref: 'import-runs-query#' }, response: { 200: { $ref: 'import-run-list#' }, 400: errorResponse, 401: errorResponse, 403: errorResponse } },
    handler: async (request) => {
      const page = Number(request.query.page ?? 1);
      const size = Number(request.query.size ?? 20);
      const { mode } = request.query;
      const runs = () => (mode ? visibleRuns(request).where('mode', '=', mode) : visibleRuns(request));
      const [rows, total] = await Promise.all([
        runs().selectAll().orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute(),
        runs().select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows: await Promise.all(rows.map((r) => runAnswer(r, false))), total: Number(total.n) };
    },
  });

  const runOf = async (request: FastifyRequest, id: string) => {
    const row = await visibleRuns(request).selectAll().where('id', '=', id as never).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  app.get<{ Params: { id: string } }>('/api/import/runs/:id', {
    config: { access: ACCESS, keys: 'import', operation: op('run', 'One import run: state, progress, counts, first errors') },
    schema: { params: idParams, response: { 200: { $ref: 'import-run#' }, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (request) => runAnswer(await runOf(request, request.params.id)),
  });

  app.get<{ Params: { id: string }; Querystring: { page?: string; size?: string } }>('/api/import/runs/:id/errors', {
    config: { access: ACCESS, keys: 'import', operation: op('runErrors', 'The errors of an import run, a page at a time') },
    schema: { params: idParams, querystring: { $ref: 'import-page-query#' }, response: { 200: { $ref: 'import-error-list#' }, 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse } },
    handler: async (request) => {
      const run = await runOf(request, request.params.id);
      const page = Number(request.query.page ?? 1);
      const size = Number(request.query.size ?? 50);
      const [rows, total] = await Promise.all([
        app.db.selectFrom('import_error').select(['rowNo', 'column', 'message', 'cells']).where('runId', '=', run.id).orderBy('rowNo').orderBy('seq').limit(size).offset((page - 1) * size).execute(),
        app.db.selectFrom('import_error').select((eb) => eb.fn.countAll<string>().as('n')).where('runId', '=', run.id).executeTakeFirstOrThrow(),
      ]);
      return { rows: rows.map((e) => ({ row: e.rowNo, column: e.column, message: e.message, ...errorValue(run.columns, e) })), total: Number(total.n) };
    },
  });

  app.get<{ Params: { id: string } }>('/api/import/runs/:id/errors.xlsx', {
    config: { access: ACCESS, keys: 'import', operation: op('runErrorsXlsx', 'The rows in error of an import run as xlsx, with an error column') },
    schema: {
      params: idParams,
      response: { 200: binaryResponse('The rows in error as the file had them, and the column "Błąd"', ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], 'attachment, with the file name'), 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const run = await runOf(request, request.params.id);
      const errors = await app.db.selectFrom('import_error').select(['rowNo', 'column', 'message', 'cells']).where('runId', '=', run.id).orderBy('rowNo').orderBy('seq').limit(ERROR_FILE_ROWS).execute();
      const ExcelJS = await excelJs();
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet(t('import:errorColumn'));
      const columns = (run.columns as string[] | null) ?? [];
      sheet.addRow([t('import:rowLabel'), ...columns, t('import:errorColumn')]);
      // one line per row: its cells as they were, its messages together
      const byRow = new Map<number, { cells: string[]; messages: string[] }>();
      for (const e of errors) {
        const entry = byRow.get(e.rowNo) ?? { cells: (e.cells as string[] | null) ?? [], messages: [] };
        entry.messages.push(e.column ? `${e.column}: ${e.message}` : e.message);
        byRow.set(e.rowNo, entry);
      }
      // cells are written as text: a value of the file is never turned into a formula
      for (const [rowNo, entry] of byRow) sheet.addRow([rowNo, ...entry.cells.map((c) => String(c ?? '')), entry.messages.join('; ')]);
      const content = Buffer.from(await workbook.xlsx.writeBuffer());
      const base = run.fileName.replace(/\.[^.]*$/, '');
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', contentDisposition(`${base}-bledy.xlsx`))
        .header('Cache-Control', 'no-store')
        .send(content);
    },
  });
}

/** What the mapping step shows for an import of files: one column, the file's name, standing for the number it carries. */
function filesPreview(decl: ImportDecl, fileName: string) {
  const column = decl.fields[0].aliases?.[0] ?? decl.fields[0].id;
  return { format: fileFormatOf(fileName) ?? 'zip', encoding: null, delimiter: null, columns: [column], sample: [[fileName]], suggested: { [column]: decl.fields[0].id }, unknownColumns: [] };
}

function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (typeof cell === 'object') return '';
  return String(cell);
}
