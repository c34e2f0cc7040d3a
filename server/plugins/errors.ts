/**
 * One error format for every failure: `{ statusCode, code?, detail, errors? }`, Polish texts from
 * locales/pl. Validation failures become a 400 naming each field with the spec's message; an
 * unexpected failure is logged and answered with a generic 500 that leaks nothing.
 *
 * This plugin knows only the errors every tier shares (HttpError, Fastify's validation and client
 * errors). A plugin that throws errors of its own maps them itself: it declares a dependency on
 * 'errors' and calls `app.mapErrors(mapper)` (the db plugin maps the database's data exceptions
 * and outages, the table-queries service its TableQueryError). So this module imports no tier
 * above it.
 */
import type { FastifyBaseLogger, FastifyError, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { fieldMessages, type Translate } from '../../runtime/core/validation-messages.ts';
import { HttpError } from '../http-error.ts';

/** An answer in the one error format. */
export interface ErrorAnswer {
  statusCode: number;
  body: { statusCode: number; code?: string; detail: string; errors?: { field: string; message: string }[] };
  headers?: Record<string, string>;
}

/**
 * Turns an error a plugin knows into an answer, or undefined for an error it does not know. Its
 * own logging (a warning with the error) is its business; `t` is the configuration's translator now.
 */
export type ErrorMapper = (error: unknown, context: { t: Translate; log: FastifyBaseLogger; request: FastifyRequest }) => ErrorAnswer | undefined;

declare module 'fastify' {
  interface FastifyInstance {
    /** Registers how a plugin's own errors are answered; asked in order of registration. */
    mapErrors(mapper: ErrorMapper): void;
  }
}

export default fp(
  async (app) => {
    const mappers: ErrorMapper[] = [];
    app.decorate('mapErrors', (mapper: ErrorMapper) => {
      mappers.push(mapper);
    });

    // what Fastify hands over (its own errors, a schema's, or whatever a handler threw): read by its optional fields
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const t = app.config.t;
      if (error instanceof HttpError) {
        return reply.status(error.statusCode).send({ statusCode: error.statusCode, detail: error.detail, ...error.extra });
      }
      if (error.validation) {
        const schema = (request.routeOptions.schema as Record<string, { $ref?: unknown } | undefined> | undefined)?.[error.validationContext ?? 'body'];
        const root = schema?.$ref ? app.config.bundle.schemas[String(schema.$ref).replace(/#$/, '')] : schema;
        const errors = fieldMessages(error.validation, (k, v) => t(k, v), root);
        const detail = errors.length ? errors.map((e) => `${e.field}: ${e.message}`).join('; ') : t('validation:invalid');
        return reply.status(400).send({ statusCode: 400, code: 'VALIDATION', detail, errors });
      }
      for (const mapper of mappers) {
        const answer = mapper(error, { t, log: request.log, request });
        if (answer) return reply.status(answer.statusCode).headers(answer.headers ?? {}).send(answer.body);
      }
      if (error.statusCode && error.statusCode < 500) {
        // Fastify's own client errors (bad JSON, body too large, unsupported media type)
        const detail = error.statusCode === 413 ? t('errors:payloadTooLarge') : t('errors:badRequest');
        return reply.status(error.statusCode).send({ statusCode: error.statusCode, code: error.code, detail });
      }
      request.log.error(error);
      return reply.status(500).send({ statusCode: 500, detail: t('errors:internal') });
    });
    app.setNotFoundHandler((request, reply) => {
      reply.status(404).send({ statusCode: 404, detail: app.config.t('errors:notFound') });
    });
  },
  { name: 'errors', dependencies: ['config'] },
);
