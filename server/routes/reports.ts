/**
 * Reports declared in configuration (issue 46, schemas/reports/): the list the caller may run, a
 * run, HTTP only. Who: the report's `roles` (ACCESS.md "reports: list, run, export | all | client");
 * which rows: the vehicles of the car resource's row scope (access/row-scope.ts), so a manager's
 * report holds his client's vehicles only. Bad input is a 400 naming the field, in Polish.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Session } from '../auth/session.ts';
import { HttpError } from '../http-error.ts';
import type { RunParams } from '../reports/engine.ts';
import { reportFile, runFor, type Reader } from '../reports/file.ts';
import type { Dimension, ReportDecl } from '../config/report-declaration.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { sendDownload } from '../downloads/reply.ts';
import { XLSX_MIME } from '../reports/export.ts';

const FLEET = ['ADMIN', 'MANAGER'] as const;
const MAX_DAYS = 5 * 366;

export interface ExportBody extends RunBody { format: 'xlsx' | 'pdf' }
export interface RunBody { from: string; to: string; groupBy?: Dimension[]; filters?: RunParams['filters'] }

export function reportFor(app: FastifyInstance, id: string, session: Session): ReportDecl {
  const report = app.config.bundle.reports[id];
  if (!report || !(report.roles as string[]).includes(session.role)) {
    // a report the caller may not run is answered as one that does not exist (ACCESS.md)
    throw new HttpError(404, app.config.t('reports:errors.unknownReport'));
  }
  return report;
}

export function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });
}

/** The body checked against the report: the period's order and length, groupings and filters it declares. */
export function paramsOf(app: FastifyInstance, report: ReportDecl, body: RunBody): RunParams {
  const t = app.config.t;
  if (body.to < body.from) throw invalid('to', t('reports:errors.period'));
  if ((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000 > MAX_DAYS) throw invalid('to', t('reports:errors.periodTooLong'));
  return { from: body.from, to: body.to, ...selectionOf(app, report, body) };
}

/** A grouping and filters checked against the report (each one it does not declare is a 400 naming it); `prefix` leads the field's name. */
export function selectionOf(app: FastifyInstance, report: ReportDecl, body: Pick<RunBody, 'groupBy' | 'filters'>, prefix = ''): Pick<RunParams, 'groupBy' | 'filters'> {
  const t = app.config.t;
  const groupBy = body.groupBy ?? report.defaults.groupBy;
  groupBy.forEach((d, i) => {
    if (!report.dimensions.includes(d)) throw invalid(`${prefix}groupBy/${i}`, t('reports:errors.groupBy', { value: t(`reports:dimensions.${d}`) }));
  });
  const filters = body.filters ?? {};
  for (const d of Object.keys(filters) as Dimension[]) {
    if (!report.dimensions.includes(d)) throw invalid(`${prefix}filters/${d}`, t('reports:errors.filter', { value: t(`reports:dimensions.${d}`) }));
  }
  return { groupBy, filters };
}

/** The caller as the report's reader: his row scope, his language, his variant (server/reports/file.ts). */
export function readerOf(app: FastifyInstance, session: Session): Reader {
  return { db: app.db, bundle: app.config.bundle, t: app.config.t, session, locale: app.config.language.locale, root: app.config.root };
}

export default async function reportRoutes(app: FastifyInstance) {
  const session = (request: FastifyRequest) => request.session as Session;

  app.get('/api/reports', {
    config: { access: { roles: [...FLEET] }, keys: 'reports', operation: { resource: 'reports', action: 'list', summary: 'The reports the caller may run, with their dimensions and measures' } },
    schema: { response: { 200: { $ref: 'report-list#' } } },
    handler: async (request) => {
      const t = app.config.t;
      return Object.values(app.config.bundle.reports)
        .filter((r) => (r.roles as string[]).includes(session(request).role))
        .sort((a, b) => a.report.localeCompare(b.report))
        .map((r) => ({
          id: r.report, label: t(r.label), source: r.source,
          dimensions: r.dimensions.map((d) => ({ id: d, label: t(r.labels?.[d] ?? `reports:dimensions.${d}`) })),
          measures: r.measures.map((m) => ({ id: m, label: t(r.labels?.[m] ?? `reports:measures.${m}`) })),
          filters: r.filters ?? [], defaults: r.defaults, ...(r.chart ? { chart: r.chart } : {}),
        }));
    },
  });

  app.post<{ Params: { id: string }; Body: RunBody }>('/api/reports/:id/run', {
    config: { access: { roles: [...FLEET] }, keys: 'reports', operation: { resource: 'reports', action: 'run', summary: 'Runs a report over a period, grouped and filtered: its columns, rows and totals' } },
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
      body: { $ref: 'report-run-request#' },
      response: { 200: { $ref: 'report-result#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const report = reportFor(app, request.params.id, session(request));
      return runFor(readerOf(app, session(request)), report, paramsOf(app, report, request.body));
    },
  });

  app.post<{ Params: { id: string }; Body: ExportBody }>('/api/reports/:id/export', {
    config: { access: { roles: [...FLEET] }, keys: 'reports', operation: { resource: 'reports', action: 'export', summary: 'A report\'s run as a file: xlsx or PDF' } },
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
      body: { $ref: 'report-export-request#' },
      response: { 200: binaryResponse('The report as a file, with the report, period and filters in its header', [XLSX_MIME, 'application/pdf'], 'attachment, with the file name'), 404: { $ref: 'error-response#' } },
    },
    handler: async (request, reply) => {
      const report = reportFor(app, request.params.id, session(request));
      const params = paramsOf(app, report, request.body);
      const reader = readerOf(app, session(request));
      const result = await runFor(reader, report, params);
      return sendDownload(reply, await reportFile(reader, report, params, result, request.body.format, new Date(app.clock())));
    },
  });
}
