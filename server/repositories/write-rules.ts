/**
 * The refusals of the vehicle writes (damages, handovers and returns, readings, employees): a
 * repository finds that a rule is broken inside its transaction and throws a RuleViolation naming
 * the field and the message key; this plugin answers it (400/404/409 with the Polish message), so
 * the repositories need no HTTP and the routes no rule.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HttpError } from '../http-error.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { isDataException } from '../plugins/db.ts';
import type { ErrorMapper } from '../plugins/errors.ts';

export type ViolationStatus = 400 | 404 | 409;

export class RuleViolation extends Error {
  constructor(
    public readonly status: ViolationStatus,
    /** The request field the message is about (null: the record as a whole, e.g. a vehicle outside the scope). */
    public readonly field: string | null,
    /** A locales key, e.g. assignment:errors.alreadyIssued. */
    public readonly key: string,
    public readonly vars: Record<string, unknown> = {},
  ) {
    super(key);
  }
}

/** A record outside the caller's scope, or gone: answered as absent (ACCESS.md). */
export const absent = () => new RuleViolation(404, null, 'errors:notFound');

const CODES: Record<ViolationStatus, string> = { 400: 'VALIDATION', 404: 'NOT_FOUND', 409: 'CONFLICT' };

export const ruleViolations: ErrorMapper = (error, { t }) => {
  if (!(error instanceof RuleViolation)) return undefined;
  const detail = t(error.key, error.vars);
  const errors = error.field ? [{ field: error.field, message: detail }] : undefined;
  return { statusCode: error.status, body: { statusCode: error.status, code: CODES[error.status], detail, ...(errors ? { errors } : {}) } };
};

/** PostgreSQL's unique violation on the named index (PGlite and pg both report the constraint's name). */
export function isUniqueViolation(error: unknown, index: string): boolean {
  const e = error as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  return e?.code === '23505' && (e.constraint === index || String(e.message ?? '').includes(index));
}

/**
 * Runs a write and turns an unexpected failure into the spec's message for that write (§8:
 * 'Błąd podczas zgłaszania szkody.', 'Błąd podczas dodawania stanu licznika'): a value or
 * constraint the database refused is a 400, anything else a 500 with that detail (the runtime
 * shows a 500's detail as an error toast). The answers this tier chose (refusals, validation,
 * a database that is away) pass unchanged.
 */
export async function withFailureMessage<T>(app: FastifyInstance, request: FastifyRequest, key: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RuleViolation || error instanceof HttpError || isDatabaseUnavailable(error)) throw error;
    const code = String((error as { code?: unknown } | null)?.code ?? '');
    if (isDataException(error) || /^23[0-9A-Z]{3}$/.test(code)) {
      request.log.warn({ err: error, sqlState: code }, 'the database refused a vehicle write');
      throw new HttpError(400, app.config.t(key), { code: 'REFUSED' });
    }
    request.log.error({ err: error }, 'vehicle write failed');
    throw new HttpError(500, app.config.t(key));
  }
}

export default fp(async (app) => {
  app.mapErrors(ruleViolations);
}, { name: 'write-rules', dependencies: ['errors'] });
