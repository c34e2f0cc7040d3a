/**
 * Attachments (spec §2 "Other dialogs", §3 Attachment, §5 Attachment, §6 ADMIN, §7 Attachments,
 * §8 Attachments): upload (one file per attachment, or several in the indexed variant), the list
 * of a record, title/description change, a one-time download link, and removal by ADMIN.
 *
 * Every call is checked against the record the attachment belongs to: its group names the parent
 * resource (schemas/resources/attachment.json parentScope), and the parent must be visible to
 * the caller through that resource's row scope (ACCESS.md "note, attachment: the parent record's
 * scope"). A record — or an attachment of a record — outside the scope is answered 404, as if absent.
 *
 * Uploads are parsed while they stream (server/attachments/receive-upload.ts) with the configured
 * limits (config.attachmentMaxSizeKb, config.attachmentExtensions); the content must match its
 * extension by its magic bytes; the request signature is checked over the streamed bytes.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { contentMimeType, extensionAllowed, extensionOf, KNOWN_MIME_TYPES, previewable } from '../attachments/content-check.ts';
import { receiveUpload, UploadRefused, type ReceivedFile } from '../attachments/receive-upload.ts';
import type { NewAttachment } from '../attachments/storage.ts';
import { streamedSignature } from '../attachments/streamed-signature.ts';
import type { Session } from '../auth/sessions.ts';
import { refuseDownload, sendDownload } from '../downloads/reply.ts';
import { issueDownloadToken, redeemDownloadToken } from '../downloads/tokens.ts';
import { HttpError } from '../http-error.ts';
import { actorOf } from '../audit/index.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';

const RESOURCE = 'attachment';
/** What an attachment token opens (download_token.kind); refId is the zalaczId. */
export const ATTACHMENT_TOKEN_KIND = 'attachment';
/** Title and description limits of spec §5 "Attachment" (also the entity's maxLength). */
const TITLE_MAX = 29;
const DESCRIPTION_MAX = 255;
/** A stored file name is cut to this many characters (the extension kept). */
const FILENAME_MAX = 200;

const errorResponse = { $ref: 'error-response#' };
const idQuery = { type: 'string', pattern: '^[1-9][0-9]{0,8}$' };

interface FieldError { field: string; message: string }

/** The name a file is stored and offered under: the last path segment, no control characters, bounded. Never a path. */
export function storedFileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}\p{Cf}]/gu, '').trim();
  if (base.length <= FILENAME_MAX) return base;
  const ext = extensionOf(base);
  const tail = ext && ext.length < 20 ? `.${ext}` : '';
  return base.slice(0, FILENAME_MAX - tail.length) + tail;
}

export default async function attachmentRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const notFound = () => new HttpError(404, t('errors:notFound'));

  // multipart/form-data in this scope only; limits are given per request from the configuration in use
  await app.register(multipart, { throwFileSizeLimit: true });

  const settings = () => {
    const config = app.config.bundle.config as { attachmentMaxSizeKb?: number; attachmentExtensions?: string[]; attachmentMaxFilesPerUpload?: number };
    return {
      maxFileBytes: (config.attachmentMaxSizeKb ?? 10240) * 1024,
      megabytes: Math.round(((config.attachmentMaxSizeKb ?? 10240) / 1024) * 100) / 100,
      extensions: config.attachmentExtensions ?? [],
      maxFiles: config.attachmentMaxFilesPerUpload ?? 1,
    };
  };
  /** The parent resource of each group, as the attachment resource declares it. */
  const parentResource = (group: string): string | undefined =>
    (app.config.bundle.resources[RESOURCE]?.parentScope?.parents as Record<string, string> | undefined)?.[group];

  /** Whether the caller sees the record; a role that reads no such records sees none of them. */
  async function parentVisible(session: Session, group: string, parentId: number): Promise<boolean> {
    const resource = parentResource(group);
    if (!resource) return false;
    try {
      return await app.tableQueries.isVisible(resource, session, parentId);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 403) return false;
      throw error;
    }
  }

  /** The attachment, when the caller sees its record; otherwise 404. */
  async function visibleAttachment(session: Session, zalaczId: number) {
    const attachment = await app.attachments.parentOf(zalaczId);
    if (!attachment || !(await parentVisible(session, attachment.grupa, attachment.parentId))) throw notFound();
    return attachment;
  }

  const validation = (errors: FieldError[], code = 'VALIDATION') =>
    new HttpError(400, errors.map((e) => e.message).join('; '), { code, errors });

  // ---------------------------------------------------------------- upload
  app.post('/api/attachment/upload', {
    // the signature is checked over the streamed body by the handler (streamed-signature.ts)
    config: {
      access: { resource: RESOURCE },
      // signed all the same: the signature is checked over the bytes as they stream in (streamedSignature below)
      signed: false,
      idempotent: true,
      bodyTypes: ['multipart/form-data'],
      operation: {
        ...op('upload', 'Upload attachments of a record (multipart/form-data)'),
        streamedBody: { mediaType: 'multipart/form-data', schema: 'attachment-upload-request', description: 'The form fields, and the file as the part named `file` (or `file[0]`, `file[1]` … in the multiple variant).' },
      },
    },
    schema: {
      description: 'multipart/form-data, signed like every POST (X-Nonce, X-Signature over the raw body). Fields: id (the record), group ' +
        '(SA_POJA, SA_PRZYDZ, SA_AUTO, SA_SZKODY), tytul (required, max 29), opis (required, max 255), file (exactly one). ' +
        'The multiple variant indexes them: tytul[0], opis[0], file[0], tytul[1] … with one id and group. ' +
        'The file\'s extension must be allowed by the configuration, its size within the limit, its content of the kind its extension names. All attachments are stored or none.',
      response: { 200: { $ref: 'attachment-upload-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse, 415: errorResponse },
    },
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const session = request.session!;
      if (!request.isMultipart()) throw new HttpError(415, t('errors:unsupportedMediaType'), { code: 'UNSUPPORTED_MEDIA_TYPE' });
      const limits = settings();
      let signature: ReturnType<typeof streamedSignature> | undefined;
      let received;
      try {
        received = await receiveUpload(request, { maxFileBytes: limits.maxFileBytes, maxFiles: Math.max(1, limits.maxFiles) }, () => {
          signature = streamedSignature(app, request);
        });
      } catch (error) {
        if (!(error instanceof UploadRefused)) throw error;
        // the rest of the body is not read: the connection closes after this answer
        reply.header('connection', 'close');
        const field = error.field;
        if (error.reason === 'tooLarge') throw validation([{ field, message: t('attachment:errors.tooLarge', { mb: limits.megabytes }) }], 'ATTACHMENT_TOO_LARGE');
        if (error.reason === 'secondFile') throw validation([{ field, message: t('attachment:errors.oneFile') }], 'ATTACHMENT_ONE_FILE');
        if (error.reason === 'tooManyFiles') {
          // a single upload (field "file") allows one; the indexed variant up to the configured number
          const message = /\[\d+\]$/.test(field) ? t('attachment:errors.tooManyFiles', { max: limits.maxFiles }) : t('attachment:errors.oneFile');
          throw validation([{ field, message }], 'ATTACHMENT_ONE_FILE');
        }
        throw validation([{ field, message: t('attachment:errors.failed') }], 'ATTACHMENT_MALFORMED');
      }
      await signature!.verify();

      const { fields, files } = received;
      const entries = uploadEntries(fields, files);
      if ('error' in entries) throw validation([{ field: entries.error.field, message: t(entries.error.message) }], 'ATTACHMENT_ONE_FILE');
      const errors: FieldError[] = [];
      const parentId = /^[1-9][0-9]{0,8}$/.test(fields.id ?? '') ? Number(fields.id) : NaN;
      if (!Number.isSafeInteger(parentId) || parentId > 2147483647) errors.push({ field: 'id', message: t('attachment:errors.parentRequired') });
      const group = fields.group ?? '';
      if (!parentResource(group)) errors.push({ field: 'group', message: t('validation:enum') });
      const ready: NewAttachment[] = [];
      for (const entry of entries.list) {
        const name = (f: string) => (entry.index === undefined ? f : `${f}[${entry.index}]`);
        const title = (entry.tytul ?? '').trim();
        const description = (entry.opis ?? '').trim();
        if (!title) errors.push({ field: name('tytul'), message: t('attachment:errors.titleRequired') });
        else if ([...title].length > TITLE_MAX || title.includes('\u0000')) errors.push({ field: name('tytul'), message: t('validation:maxLength', { limit: TITLE_MAX }) });
        if (!description) errors.push({ field: name('opis'), message: t('attachment:errors.descriptionRequired') });
        else if ([...description].length > DESCRIPTION_MAX || description.includes('\u0000')) errors.push({ field: name('opis'), message: t('validation:maxLength', { limit: DESCRIPTION_MAX }) });
        const file = entry.file;
        const filename = file ? storedFileName(file.filename) : '';
        if (!file || !filename) {
          errors.push({ field: name('file'), message: t('attachment:errors.fileRequired') });
          continue;
        }
        if (!extensionAllowed(filename, limits.extensions)) {
          errors.push({ field: name('file'), message: t('attachment:errors.wrongExtension', { extensions: limits.extensions.join(', ') }) });
          continue;
        }
        if (file.content.byteLength === 0) {
          errors.push({ field: name('file'), message: t('attachment:errors.emptyFile') });
          continue;
        }
        const mime = await contentMimeType(filename, file.content);
        if (!mime) {
          errors.push({ field: name('file'), message: t('attachment:errors.contentMismatch') });
          continue;
        }
        ready.push({ grupa: group, parentId, tytul: title, opis: description, filename, mime, content: file.content, userId: session.userId });
      }
      if (errors.length) throw validation(errors);
      // another client's record, or one the role does not read, is answered as if absent
      if (!(await parentVisible(session, group, parentId))) throw notFound();
      const zalaczIds = await app.attachments.addWithTrail(actorOf(request), ready);
      const message = zalaczIds.length === 1 ? t('attachment:messages.added') : t('attachment:messages.addedMany', { count: zalaczIds.length });
      return { message, zalaczIds };
    },
  });

  // ---------------------------------------------------------------- lists
  const listOf = async (session: Session, group: string, id: number) => {
    if (!(await parentVisible(session, group, id))) throw notFound();
    return app.attachments.ofParent(group, id);
  };

  app.get<{ Querystring: { group: string; id: string } }>('/api/attachment', {
    config: { access: { resource: RESOURCE }, operation: op('list', 'The attachments of one record, newest first') },
    schema: {
      description: 'The attachments of one record (group and its id), newest first.',
      querystring: {
        type: 'object',
        required: ['group', 'id'],
        additionalProperties: false,
        properties: { group: { type: 'string', enum: ['SA_PRZYDZ', 'SA_POJA', 'SA_AUTO', 'SA_SZKODY'] }, id: idQuery },
      },
      response: { 200: { $ref: 'attachment-list#' }, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => listOf(request.session!, request.query.group, Number(request.query.id)),
  });

  const parentList = (path: string, group: string, parent: string) =>
    app.post<{ Body: { id: number } }>(path, {
      config: { access: { resource: parent }, operation: { resource: parent, action: 'attachments', summary: `The attachments of one ${parent}, newest first` } },
      schema: {
        description: `The attachments of one ${parent} (group ${group}), newest first.`,
        body: { $ref: 'attachment-parent-request#' },
        response: { 200: { $ref: 'attachment-list#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
      },
      handler: async (request) => listOf(request.session!, group, request.body.id),
    });
  parentList('/api/assignment/attachments', 'SA_PRZYDZ', 'assignment');
  parentList('/api/damage/attachments', 'SA_SZKODY', 'damage');
  parentList('/api/car/details-attachments', 'SA_POJA', 'car');
  parentList('/api/order/order-attachments', 'SA_AUTO', 'order');

  // ---------------------------------------------------------------- update, delete
  app.post<{ Body: { zalaczId: number; tytul: string; opis: string } }>('/api/attachment/update', {
    config: { access: { resource: RESOURCE }, operation: op('update', 'Change the title and description of an attachment') },
    schema: {
      description: 'Changes the title and description of an attachment of a record the caller sees.',
      body: { $ref: 'attachment-update-request#' },
      response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const { zalaczId, tytul, opis } = request.body;
      await visibleAttachment(request.session!, zalaczId);
      const after = { tytul: tytul.trim(), opis: opis.trim() };
      if (!(await app.attachments.retitleWithTrail(actorOf(request), zalaczId, after, request.session!.userId))) throw notFound();
      return { message: t('attachment:messages.updated') };
    },
  });

  app.delete<{ Params: { id: string } }>('/api/attachment/:id', {
    // ACCESS.md "attachment delete: ADMIN"; spec §6
    config: { access: { roles: ['ADMIN'] }, operation: op('delete', 'Remove an attachment and its file') },
    schema: {
      description: 'Removes an attachment and its file (ADMIN).',
      params: { type: 'object', required: ['id'], properties: { id: idQuery } },
      response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const zalaczId = Number(request.params.id);
      await visibleAttachment(request.session!, zalaczId);
      if (!(await app.attachments.removeWithTrail(actorOf(request), zalaczId))) throw notFound();
      return { message: t('attachment:messages.deleted') };
    },
  });

  // ---------------------------------------------------------------- download
  app.post<{ Body: { zalaczId?: number; attachmentId?: number } }>('/api/attachment/download-link', {
    config: { access: { resource: RESOURCE }, operation: op('downloadLink', 'A one-time token to download the file of an attachment') },
    schema: {
      description: 'A one-time token for the file of one attachment the caller may see (once, for a few minutes, for this session).',
      body: { $ref: 'attachment-id-request#' },
      response: { 200: { $ref: 'download-link-response#' }, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const zalaczId = (request.body.zalaczId ?? request.body.attachmentId)!;
      await visibleAttachment(request.session!, zalaczId);
      const token = await issueDownloadToken(app.db, request.session!, { kind: ATTACHMENT_TOKEN_KIND, refId: String(zalaczId) });
      return { token };
    },
  });

  app.get<{ Querystring: { id: string; token?: string; preview?: string } }>('/api/attachment/download', {
    // opened in a new window: the one-time token in the URL is the credential
    config: { access: 'public', operation: { ...op('download', 'The file of an attachment, for a one-time token'), errorPages: true } },
    schema: {
      description: 'The file of an attachment for a one-time token. preview=true shows a PDF or an image in the window; anything else is saved under its name.',
      querystring: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { ...idQuery, description: 'zalaczId' },
          token: { type: 'string', maxLength: 200, pattern: NO_NUL_PATTERN, description: 'from POST /api/attachment/download-link' },
          preview: { type: 'string', enum: ['true', 'false', '1', '0', ''] },
        },
      },
      response: {
        200: binaryResponse('The file, as the media type its content was checked to be', KNOWN_MIME_TYPES, 'inline for a preview of a PDF or an image, attachment otherwise; with the file name'),
        400: errorResponse, 403: errorResponse, 404: errorResponse,
      },
    },
    handler: async (request, reply) => {
      const zalaczId = Number(request.query.id);
      const refuse = (status: number, detail: string, code: string) => refuseDownload(request, reply, status, detail, code);
      const expired = () => refuse(403, t('errors:download.expired'), 'DOWNLOAD_EXPIRED');
      const token = request.query.token;
      const redeemed = await redeemDownloadToken(app.db, token, ATTACHMENT_TOKEN_KIND, String(zalaczId));
      if (!redeemed) return expired();
      // the row check again, as the account and its session's vehicle are now
      const account = await app.users.asSession(redeemed.userId);
      if (!account) return expired();
      const user: Session = { ...account, pojazdId: await app.attachments.vehicleOfTokenSession(token!) };
      const attachment = await app.attachments.parentOf(zalaczId);
      if (!attachment || !(await parentVisible(user, attachment.grupa, attachment.parentId))) return refuse(404, t('errors:notFound'), 'NOT_FOUND');
      const file = await app.attachments.read(zalaczId);
      if (!file) return refuse(404, t('errors:notFound'), 'NOT_FOUND');
      const preview = request.query.preview === 'true' || request.query.preview === '1';
      return sendDownload(reply, { filename: file.filename, mime: file.mime, content: file.content, inline: preview && previewable(file.mime) });
    },
  });
}

interface UploadEntry { index?: number; tytul?: string; opis?: string; file?: ReceivedFile }

/**
 * The attachments a form carries: one (tytul, opis, file) or the indexed variant (tytul[0],
 * opis[0], file[0], …). Mixing both, or a file under another name, is refused as "one file per attachment".
 */
function uploadEntries(fields: Record<string, string>, files: ReceivedFile[]): { list: UploadEntry[] } | { error: FieldError } {
  const INDEXED = /^(tytul|opis|file)\[(\d{1,3})\]$/;
  const indexed = [...Object.keys(fields), ...files.map((f) => f.field)].some((name) => INDEXED.test(name));
  if (!indexed) {
    const stray = files.find((f) => f.field !== 'file');
    if (stray || files.length > 1) return { error: { field: stray?.field ?? 'file', message: 'attachment:errors.oneFile' } };
    return { list: [{ tytul: fields.tytul, opis: fields.opis, file: files[0] }] };
  }
  const byIndex = new Map<number, UploadEntry>();
  const entry = (i: number) => byIndex.get(i) ?? byIndex.set(i, { index: i }).get(i)!;
  for (const [name, value] of Object.entries(fields)) {
    const m = INDEXED.exec(name);
    if (m && m[1] !== 'file') entry(Number(m[2]))[m[1] as 'tytul' | 'opis'] = value;
  }
  for (const file of files) {
    const m = INDEXED.exec(file.field);
    if (!m || m[1] !== 'file') return { error: { field: file.field, message: 'attachment:errors.oneFile' } };
    entry(Number(m[2])).file = file;
  }
  return { list: [...byIndex.values()].sort((a, b) => a.index! - b.index!) };
}
