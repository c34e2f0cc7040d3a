/**
 * Reports declared in configuration (issue 46, schemas/reports/): the list the caller may run, a
 * run, HTTP only. Who: the report's `roles` (ACCESS.md "reports: list, run, export | all | client");
 * which rows: the vehicles of the car resource's row scope (access/row-scope.ts), so a manager's
 * report holds his client's vehicles only. Bad input is a 400 naming the field, in Polish.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Session } from '../auth/session.ts';
import { HttpError } from '../http-error.ts';
import { runReport, type RunParams } from '../reports/engine.ts';
import type { Dimension, ReportDecl } from '../config/report-declaration.ts';
import { scopeOfResource } from './scopes.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { sendDownload } from '../downloads/reply.ts';
import { reportPdf, reportXlsx, XLSX_MIME, type ExportHead } from '../reports/export.ts';
import type { ReportResult } from '../reports/engine.ts';
import { configuredBuilder } from '../db/configured-tables.ts';

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

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });
}

/** The body checked against the report: the period's order and length, groupings and filters it declares. */
export function paramsOf(app: FastifyInstance, report: ReportDecl, body: RunBody): RunParams {
  const t = app.config.t;
  if (body.to < body.from) throw invalid('to', t('reports:errors.period'));
  if ((Date.parse(body.to) - Date.parse(body.from)) / 86_400_000 > MAX_DAYS) throw invalid('to', t('reports:errors.periodTooLong'));
  const groupBy = body.groupBy ?? report.defaults.groupBy;
  groupBy.forEach((d, i) => {
    if (!report.dimensions.includes(d)) throw invalid(`groupBy/${i}`, t('reports:errors.groupBy', { value: t(`reports:dimensions.${d}`) }));
  });
  const filters = body.filters ?? {};
  for (const d of Object.keys(filters) as Dimension[]) {
    if (!report.dimensions.includes(d)) throw invalid(`filters/${d}`, t('reports:errors.filter', { value: t(`reports:dimensions.${d}`) }));
  }
  return { from: body.from, to: body.to, groupBy, filters };
}

export async function runFor(app: FastifyInstance, report: ReportDecl, params: RunParams, session: Session) {
  const reporting = app.config.bundle.reporting;
  if (!reporting) throw new Error('schemas/reporting/reporting.json is missing');
  const scope = scopeOfResource(app, 'car', session);
  const vehicles = app.db.selectFrom('car').select('car.pojazdId').where((eb) => scope(configuredBuilder(eb)));
  return runReport(app.db, report, reporting, params, vehicles, (key) => app.config.t(key));
}

const polishDate = (iso: string) => iso.split('-').reverse().join('.');

/** The file of a run: its header names the report, the period and the filters (with the values' labels as the rows show them). */
export async function reportFile(app: FastifyInstance, report: ReportDecl, params: RunParams, result: ReportResult, format: 'xlsx' | 'pdf') {
  const t = app.config.t;
  const bundle = app.config.bundle;
  const filters = Object.entries(params.filters).filter(([, v]) => v?.length)
    .map(([d, v]) => `${t(`reports:dimensions.${d}`)}: ${v!.join(', ')}`).join('; ');
  const brand = String((bundle.app as { branding?: { name?: string } }).branding?.name ?? bundle.variant);
  const head: ExportHead = {
    title: t(report.label),
    period: t('reports:export.period', { from: polishDate(params.from), to: polishDate(params.to) }),
    filters: filters ? t('reports:export.filters', { filters }) : '',
    brand, total: t('reports:screen.total'),
    generatedAt: new Date(app.clock()).toLocaleString('pl-PL', { timeZone: 'Europe/Warsaw' }),
  };
  const name = `${t(report.label)} ${params.from} ${params.to}`;
  if (format === 'xlsx') return { filename: `${name}.xlsx`, mime: XLSX_MIME, content: await reportXlsx(result, head) };
  const money = new Intl.NumberFormat('pl-PL', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const shown = (v: unknown, f?: string) => {
    if (v === null || v === undefined) return '–';
    if (typeof v !== 'number') return String(v);
    const unit = f === 'money' ? ' zł' : f === 'km' ? ' km' : f === 'litres' ? ' l' : f === 'kg' ? ' kg' : '';
    return `${f === 'km' ? Math.round(v).toLocaleString('pl-PL') : money.format(v)}${unit}`;
  };
  return { filename: `${name}.pdf`, mime: 'application/pdf', content: await reportPdf(result, head, shown) };
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
      return runFor(app, report, paramsOf(app, report, request.body), session(request));
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
      const result = await runFor(app, report, params, session(request));
      return sendDownload(reply, await reportFile(app, report, params, result, request.body.format));
    },
  });
}
