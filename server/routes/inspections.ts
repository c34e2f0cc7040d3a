/**
 * Vehicle inspections (issue 47), HTTP only: the checklists of a vehicle and which are due, an
 * inspection submitted, its photos one by one, the caller's inspections and one of them. Who and
 * which rows: ACCESS.md "inspections: submit | all | client | own vehicle | —" and "inspections:
 * read | all | client | own | own vehicle", judged by the service on the car and inspection
 * resources' row scopes (a vehicle or an inspection outside them: 404; an advisor submitting: 403).
 *
 * The submission and each photo take an Idempotency-Key (config.idempotent): the driver's phone
 * may send them again after a lost answer, and the first answer comes back, nothing written twice.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Session } from '../auth/session.ts';
import { actorOf } from '../audit/actor.ts';
import { contentMimeType, extensionAllowed } from '../attachments/content-check.ts';
import { receiveUpload, UploadRefused } from '../attachments/receive-upload.ts';
import { streamedSignature } from '../attachments/streamed-signature.ts';
import { HttpError } from '../http-error.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import type { SubmitInput } from '../inspections/service.ts';
import { storedFileName } from './attachments.ts';

const RESOURCE = 'inspections';
/** ACCESS.md "inspections: submit". */
const SUBMITTERS = ['ADMIN', 'MANAGER', 'USER'] as const;
/** ACCESS.md "inspections: read" (rows by the inspection resource's scope). */
const READERS = ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] as const;
const PAGE = 20;
const errorResponse = { $ref: 'error-response#' };
const idParam = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,9}$' } } };
/** A photo is an image: the extensions the portal's photos are taken and scaled to. */
const PHOTO_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp'];

type ListQuery = { offset?: string; limit?: string; pojazdId?: string; wynik?: 'ok' | 'failed' };

export default async function inspectionRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const session = (request: FastifyRequest) => request.session as Session;
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  // multipart/form-data (the photos) in this scope, as in the attachment routes'
  await app.register(multipart, { throwFileSizeLimit: true });

  app.get<{ Querystring: { pojazdId: string } }>('/api/inspections/templates', {
    config: { access: { roles: [...READERS] }, operation: op('templates', 'The checklists of a vehicle, and which are due') },
    schema: {
      description: 'The checklists of screens/inspections.json for one vehicle the caller sees: when each is used (handover, return, periodic, adhoc), whether a periodic one is due (its reminder rule lists the vehicle) and every group and item with its texts in the caller\'s language. A vehicle outside the caller\'s rows is answered as absent (404).',
      querystring: { $ref: 'inspection-templates-query#' },
      response: { 200: { $ref: 'inspection-templates#' }, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => app.inspections.templates(session(request), Number(request.query.pojazdId)),
  });

  app.post<{ Body: SubmitInput }>('/api/inspections', {
    config: { access: { roles: [...SUBMITTERS] }, idempotent: true, operation: op('submit', 'Submit a vehicle inspection walked from a checklist') },
    schema: {
      description: 'Every item of the checklist answered once (pass, fail, or n.a. where allowed; a tyre\'s tread depth; a note), the odometer when the checklist asks it (it becomes an odometer reading: lower than the vehicle\'s last one is refused, as POST /api/counter). Failed items open what the configuration says — a damage report or a service-order draft for the vehicle — and the client\'s fleet managers are notified; the webhook event inspection.submitted goes out. A bad answer is a 400 naming its field (`answers.3.wartosc`). The photos of failed items follow: POST /api/inspections/photos with the answer\'s kontrolaId.',
      body: { $ref: 'inspection-submit-request#' },
      response: { 200: { $ref: 'inspection-submitted#' }, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => withFailureMessage(app, request, 'inspection:messages.submitFailed',
      () => app.inspections.submit(session(request), request.body, actorOf(request))),
  });

  app.post('/api/inspections/photos', {
    config: {
      access: { roles: [...SUBMITTERS] },
      // signed all the same: the signature is checked over the bytes as they stream in
      signed: false,
      idempotent: true,
      bodyTypes: ['multipart/form-data'],
      operation: {
        ...op('photo', 'Add a photo of an item of an inspection (multipart/form-data)'),
        streamedBody: { mediaType: 'multipart/form-data', schema: 'inspection-photo-request', description: 'The fields id (the inspection) and pozycja (the item\'s id), and the photo as the part named `file`.' },
      },
    },
    schema: {
      description: 'multipart/form-data, signed like every POST. One photo (jpg, png or webp, within the attachment size limit, its content of the kind its extension names) of one item of an inspection the caller sees: stored as an attachment of the inspection (group SA_KONTROLA) and, when the item failed and opened a damage report or a service-order draft, as an attachment of that record too.',
      response: { 200: { $ref: 'attachment-upload-response#' }, 400: errorResponse, 404: errorResponse, 415: errorResponse },
    },
    handler: async (request, reply) => {
      if (!request.isMultipart()) throw new HttpError(415, t('errors:unsupportedMediaType'), { code: 'UNSUPPORTED_MEDIA_TYPE' });
      const config = app.config.bundle.config as { attachmentMaxSizeKb?: number };
      const maxKb = config.attachmentMaxSizeKb ?? 10240;
      const refuse = (field: string, message: string) => new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });
      let signature: ReturnType<typeof streamedSignature> | undefined;
      let received;
      try {
        received = await receiveUpload(request, { maxFileBytes: maxKb * 1024, maxFiles: 1 }, () => {
          signature = streamedSignature(app, request);
        });
      } catch (error) {
        if (!(error instanceof UploadRefused)) throw error;
        reply.header('connection', 'close');
        if (error.reason === 'tooLarge') throw refuse('file', t('attachment:errors.tooLarge', { mb: Math.round((maxKb / 1024) * 100) / 100 }));
        if (error.reason === 'secondFile' || error.reason === 'tooManyFiles') throw refuse('file', t('attachment:errors.oneFile'));
        throw refuse('file', t('attachment:errors.failed'));
      }
      await signature!.verify();
      const { fields, files } = received;
      const id = /^[1-9][0-9]{0,9}$/.test(fields.id ?? '') ? Number(fields.id) : NaN;
      if (!Number.isSafeInteger(id) || id > 2147483647) throw refuse('id', t('attachment:errors.parentRequired'));
      const pozycja = fields.pozycja ?? '';
      if (!/^[a-z][A-Za-z0-9]{0,49}$/.test(pozycja)) throw refuse('pozycja', t('inspection:errors.unknownItem', { item: pozycja }));
      const file = files.find((f) => f.field === 'file');
      if (!file || files.length !== 1) throw refuse('file', t('attachment:errors.fileRequired'));
      const filename = storedFileName(file.filename);
      if (!filename || !extensionAllowed(filename, PHOTO_EXTENSIONS)) throw refuse('file', t('inspection:errors.photoKind'));
      if (file.content.byteLength === 0) throw refuse('file', t('attachment:errors.emptyFile'));
      const mime = await contentMimeType(filename, file.content);
      if (!mime) throw refuse('file', t('attachment:errors.contentMismatch'));
      return app.inspections.addPhoto(session(request), id, pozycja, { filename, mime, content: file.content }, actorOf(request));
    },
  });

  app.get<{ Querystring: ListQuery }>('/api/inspections', {
    config: { access: { roles: [...READERS] }, operation: op('list', 'The caller\'s inspections, newest first, a page at a time') },
    schema: {
      description: 'The inspections of the caller\'s vehicles (ACCESS.md: an administrator every client\'s, a fleet manager his client\'s, a driver or an advisor their vehicle\'s), newest first, optionally of one vehicle or one result.',
      querystring: { $ref: 'inspection-query#' },
      response: { 200: { $ref: 'inspection-list#' }, 400: errorResponse },
    },
    handler: async (request) => {
      const q = request.query;
      return app.inspections.list(session(request), {
        offset: Number(q.offset ?? 0), limit: Number(q.limit ?? PAGE),
        ...(q.pojazdId ? { pojazdId: Number(q.pojazdId) } : {}), ...(q.wynik ? { wynik: q.wynik } : {}),
      });
    },
  });

  app.get<{ Params: { id: string } }>('/api/inspections/:id', {
    config: { access: { roles: [...READERS] }, operation: op('get', 'One inspection with its answers and photos') },
    schema: {
      description: 'One inspection the caller sees, each answer with its item\'s text in the caller\'s language, and the photos of each item (download them with POST /api/attachment/download-link). Another client\'s inspection is answered as absent (404).',
      params: idParam,
      response: { 200: { $ref: 'inspection-details#' }, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request) => app.inspections.details(session(request), Number(request.params.id)),
  });
}
