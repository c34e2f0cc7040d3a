/**
 * Reports declared in configuration (issue 46, schemas/reports/): the list the caller may run, a
 * run, HTTP only. Who: the report's `roles` (ACCESS.md "reports: list, run, export | all | client");
 * which rows: the vehicles of the car resource's row scope (access/row-scope.ts), so a manager's
 * report holds his client's vehicles only. Bad input is a 400 naming the field, in Polish.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LanguageState } from '../plugins/config.ts';
import type { Session } from '../auth/session.ts';
import { HttpError } from '../http-error.ts';
import { sortableColumns, type RunParams } from '../reports/engine.ts';
import { reportFile, runFor, type Reader } from '../reports/file.ts';
import type { Dimension, ReportDecl } from '../config/report-declaration.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { sendDownload } from '../downloads/reply.ts';
import { XLSX_MIME } from '../reports/export.ts';

const FLEET = ['ADMIN', 'MANAGER'] as const;
const MAX_DAYS = 5 * 366;

export interface ExportBody extends RunBody { format: 'xlsx' | 'pdf' }
export interface RunBody { from: string; to: string; groupBy?: Dimension[]; filters?: RunParams['filters'] }
/** A run's body: also a page of its rows, their order, and the chart's rows (schemas/api/report-run-request). */
export interface PagedRunBody extends RunBody {
  page?: { offset: number; limit: number };
  sort?: { column: string; direction?: 'asc' | 'desc' };
  top?: number;
}

/** The configuration a call is answered by: the served one, or a studio preview's (configFor). */
export type ReportConfig = Pick<LanguageState, 'bundle' | 't'>;

/**
 * The studio's preview frame (runtime config/preview.tsx) names what it shows in its calls to the
 * reports: `?studioPreview=<draft|published>:<variant>:<role>`. For an administrator (the studio's
 * own rule) the reports then answer by that configuration — a report made in the draft is listed
 * and runs before it is published — and list what that role may run; the rows stay the
 * administrator's (the real session's row scope), as every preview's data. Anyone else's is ignored.
 */
const PREVIEW = /^(draft|published):([A-Za-z0-9_-]{1,64}):([A-Z][A-Z0-9_]{0,31})$/;
export const previewQuerySchema = {
  type: 'object',
  properties: { studioPreview: { type: 'string', pattern: PREVIEW.source, description: "The studio's preview frame: the configuration it shows, source:variant:role (an administrator's only)" } },
} as const;

async function configFor(app: FastifyInstance, request: FastifyRequest): Promise<ReportConfig & { role: string }> {
  const caller = request.session as Session;
  const asked = (request.query as { studioPreview?: string } | undefined)?.studioPreview;
  const preview = asked && caller.role === 'ADMIN' ? PREVIEW.exec(asked) : null;
  if (!preview) return { bundle: app.config.bundle, t: app.config.t, role: caller.role };
  const [, source, variant, role] = preview;
  return { ...(await app.studio.previewConfig(caller, variant, source as 'draft' | 'published')), role };
}

export function reportFor(config: ReportConfig, id: string, role: string): ReportDecl {
  const report = config.bundle.reports[id];
  if (!report || !(report.roles as string[]).includes(role)) {
    // a report the caller may not run is answered as one that does not exist (ACCESS.md)
    throw new HttpError(404, config.t('reports:errors.unknownReport'));
  }
  return report;
}

export function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });
}

/** The body checked against the report: the period's order and length, groupings and filters it declares. */
export function paramsOf(config: ReportConfig, report: ReportDecl, body: RunBody): RunParams {
  const t = config.t;
  if (body.to < body.from) throw invalid('to', t('reports:errors.period'));
  if ((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000 > MAX_DAYS) throw invalid('to', t('reports:errors.periodTooLong'));
  return { from: body.from, to: body.to, ...selectionOf(config, report, body) };
}

/** A grouping and filters checked against the report (each one it does not declare is a 400 naming it); `prefix` leads the field's name. */
export function selectionOf(config: ReportConfig, report: ReportDecl, body: Pick<RunBody, 'groupBy' | 'filters'>, prefix = ''): Pick<RunParams, 'groupBy' | 'filters'> {
  const t = config.t;
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

/**
 * A run's page and order checked against the report: the column sorted by must be one the run
 * answers (a dimension of its grouping, a category column, a measure). A sort or the chart's rows
 * without a page are every row in that order.
 */
export function pagingOf(config: ReportConfig, report: ReportDecl, params: RunParams, body: PagedRunBody): RunParams {
  if (!body.page && !body.sort && !body.top) return params;
  const sort = body.sort;
  if (sort && !sortableColumns(report, config.bundle.reporting, params.groupBy).includes(sort.column)) {
    throw invalid('sort.column', config.t('reports:errors.sort', { value: sort.column }));
  }
  return {
    ...params,
    page: {
      offset: body.page?.offset ?? 0, limit: body.page?.limit ?? null,
      ...(sort ? { sort: { column: sort.column, direction: sort.direction ?? 'asc' } } : {}),
      ...(body.top ? { top: body.top } : {}),
    },
  };
}

/** The caller as the report's reader: his row scope, his language, his variant (server/reports/file.ts). */
export function readerOf(app: FastifyInstance, session: Session, config: ReportConfig = app.config): Reader {
  return { db: app.db, bundle: config.bundle, t: config.t, session, locale: app.config.language.locale, datePattern: app.config.language.datePattern, root: app.config.root };
}

export default async function reportRoutes(app: FastifyInstance) {
  const session = (request: FastifyRequest) => request.session as Session;

  app.get('/api/reports', {
    config: { access: { roles: [...FLEET] }, keys: 'reports', operation: { resource: 'reports', action: 'list', summary: 'The reports the caller may run, with their dimensions and measures' } },
    // 404: an administrator's studio preview of a variant that does not exist (studioPreview)
    schema: { querystring: previewQuerySchema, response: { 200: { $ref: 'report-list#' }, 404: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const { bundle, t, role } = await configFor(app, request);
      return Object.values(bundle.reports)
        .filter((r) => (r.roles as string[]).includes(role))
        .sort((a, b) => a.report.localeCompare(b.report))
        .map((r) => ({
          id: r.report, label: t(r.label), source: r.source,
          dimensions: r.dimensions.map((d) => ({ id: d, label: t(r.labels?.[d] ?? `reports:dimensions.${d}`) })),
          measures: r.measures.map((m) => ({ id: m, label: t(r.labels?.[m] ?? `reports:measures.${m}`) })),
          filters: r.filters ?? [], defaults: r.defaults, ...(r.chart ? { chart: r.chart } : {}),
        }));
    },
  });

  app.post<{ Params: { id: string }; Body: PagedRunBody }>('/api/reports/:id/run', {
    config: { access: { roles: [...FLEET] }, keys: 'reports', operation: { resource: 'reports', action: 'run', summary: 'Runs a report: its columns, its rows or a page of them, totals over all rows' } },
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
      querystring: previewQuerySchema,
      body: { $ref: 'report-run-request#' },
      response: { 200: { $ref: 'report-result#' }, 404: { $ref: 'error-response#' } },
    },
    // a row's values are keyed by the report's columns (declared as additionalProperties), which
    // fast-json-stringify writes two to six times slower than JSON.stringify: 33,333 rows of a
    // large client took it 0.3–0.8 s against 0.12 s. The answer is the engine's typed result; the
    // schema still documents it and the API tests check every answer against it.
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request) => {
      const config = await configFor(app, request);
      const report = reportFor(config, request.params.id, config.role);
      return runFor(readerOf(app, session(request), config), report, pagingOf(config, report, paramsOf(config, report, request.body), request.body));
    },
  });

  app.post<{ Params: { id: string }; Body: ExportBody }>('/api/reports/:id/export', {
    config: { access: { roles: [...FLEET] }, keys: 'reports', operation: { resource: 'reports', action: 'export', summary: 'A report\'s run as a file: xlsx or PDF' } },
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' } } },
      querystring: previewQuerySchema,
      body: { $ref: 'report-export-request#' },
      response: { 200: binaryResponse('The report as a file, with the report, period and filters in its header', [XLSX_MIME, 'application/pdf'], 'attachment, with the file name'), 404: { $ref: 'error-response#' } },
    },
    handler: async (request, reply) => {
      const config = await configFor(app, request);
      const report = reportFor(config, request.params.id, config.role);
      const params = paramsOf(config, report, request.body);
      const reader = readerOf(app, session(request), config);
      const result = await runFor(reader, report, params);
      return sendDownload(reply, await reportFile(reader, report, params, result, request.body.format, new Date(app.clock())));
    },
  });
}
