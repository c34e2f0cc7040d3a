/**
 * One error format for every failure: `{ statusCode, code?, detail, errors? }`, Polish texts from
 * locales/pl. Validation failures become a 400 naming each field with the spec's message; an
 * unexpected failure is logged and answered with a generic 500 that leaks nothing. A database that
 * cannot be reached (restart, lost connection, time-out, full pool) is a 503 "try again".
 */
import fp from 'fastify-plugin';
import { fieldMessages } from '../../runtime/core/validation-messages.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { HttpError } from '../http-error.ts';
import { TableQueryError } from '../resources/table-query.ts';

/** PostgreSQL's class 22 "data exception" (22001 too long, 22003 out of range, 22021 NUL, 22P02 bad number, 22007/22008 bad date …). */
export function isDataException(error: unknown): error is { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

export default fp(
  async (app) => {
    app.setErrorHandler((error: any, request, reply) => {
      const t = app.config.t;
      if (error instanceof HttpError) {
        return reply.status(error.statusCode).send({ statusCode: error.statusCode, detail: error.detail, ...error.extra });
      }
      if (error instanceof TableQueryError) {
        const message = t(`errors:table.${error.code}`, { field: error.field });
        return reply.status(400).send({ statusCode: 400, code: error.code, detail: message, errors: [{ field: error.field, message }] });
      }
      if (error.validation) {
        const schema = (request.routeOptions.schema as any)?.[error.validationContext ?? 'body'];
        const root = schema?.$ref ? app.config.bundle.schemas[String(schema.$ref).replace(/#$/, '')] : schema;
        const errors = fieldMessages(error.validation, (k, v) => t(k, v as any), root);
        const detail = errors.length ? errors.map((e) => `${e.field}: ${e.message}`).join('; ') : t('validation:invalid');
        return reply.status(400).send({ statusCode: 400, code: 'VALIDATION', detail, errors });
      }
      if (isDataException(error)) {
        // Last line of defence: a value the database cannot take (NUL in text, a number out of the
        // column's range, a malformed date …) is the caller's mistake. The schemas should have
        // refused it first; the SQL and the database's own text stay in the log.
        request.log.warn({ err: error, sqlState: error.code }, 'database refused a value: a schema limit is missing');
        return reply.status(400).send({ statusCode: 400, code: 'BAD_VALUE', detail: t('errors:badValue') });
      }
      if (error.statusCode && error.statusCode < 500) {
        // Fastify's own client errors (bad JSON, body too large, unsupported media type)
        return reply.status(error.statusCode).send({ statusCode: error.statusCode, code: error.code, detail: t('errors:badRequest') });
      }
      if (isDatabaseUnavailable(error)) {
        // the database is away (restart, lost connection, time-out, full pool): only this request
        // fails, the process stays up and the client may retry
        request.log.warn({ err: error }, 'database unavailable');
        return reply.status(503).header('retry-after', '5').send({ statusCode: 503, code: 'DATABASE_UNAVAILABLE', detail: t('errors:databaseUnavailable') });
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
