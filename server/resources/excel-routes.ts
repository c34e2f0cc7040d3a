/**
 * Excel export of the table resources (spec §7, DESIGN.md §3, issue 4), for every resource that
 * declares `"excelExport": true` in schemas/resources/<name>.json:
 *
 * - POST /api/<resource>/excel/prepare with the visible columns (fieldNames, columnNames) and the
 *   table's current rowParams: same role check and row scope as /table (the queries of
 *   table-routes.ts are reused, not rebuilt); counted first, refused over the configured limit
 *   (screens/app.json config.excelExportLimit, which a client variant may change); otherwise the
 *   rows are read block by block into the sheet, and the file is stored in export_file together
 *   with a one-time download token (one transaction), answering `{ data: <download link> }`.
 * - GET /api/<resource>/excel/download?token=…: the link a new browser window opens, so it carries
 *   no bearer header; the token is the credential (single use, minutes, bound to the session, the
 *   resource and the file — server/downloads/tokens.ts). The file is taken out of export_file as it
 *   is sent: nothing of an export outlives its download.
 *
 * Files live in PostgreSQL, not in a process, so any server process may answer the download.
 */
import type { FastifyInstance } from 'fastify';
import type { Session } from '../auth/sessions.ts';
import type { EntitySchema, ResourceDecl } from '../config/bundle.ts';
import { EXPORT_LIMIT_CODE, exportLimitOf } from '../../runtime/core/export-limits.ts';
import { formatKindFor } from '../../runtime/core/format-kind.ts';
import { timeZoneOf } from '../config/locale.ts';
import { dateText } from '../../runtime/core/date-text.ts';
import type { ExcelExportRequest } from '../../runtime/core/generated/api.ts';
import { refuseDownload, sendDownload } from '../downloads/reply.ts';
import { DOWNLOAD_TOKEN_TTL_MS, issueDownloadToken, redeemDownloadToken } from '../downloads/tokens.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { HttpError } from '../http-error.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { scopeOf } from '../access/row-scope.ts';
import { createSheetBuilder, XLSX_MIME, type ExportColumn } from '../downloads/excel-sheet.ts';
import { MAX_BLOCK, type TableQueries } from './table-queries.ts';
import { TableQueryError } from '../db/table-query.ts';

type RowParams = ExcelExportRequest['rowParams'];

/** The token kind of a resource's exports: a token for one resource never opens another's file. */
export const excelTokenKind = (resource: string) => `excel:${resource}`;

/**
 * The export's rows in the table's order, one block at a time, until `max` rows or the end. Each
 * block hands the next one its cursor, so a deep export reads by keyset (table-block.ts) instead
 * of skipping ever more rows by OFFSET, where the order allows it.
 */
export async function* exportBlocks(queries: TableQueries, name: string, session: Session, params: RowParams, max: number, fields?: readonly string[]) {
  const start = params.startRow ?? 0;
  const end = Math.min(params.endRow, start + max);
  let cursor: string | undefined;
  for (let from = start; from < end; from += MAX_BLOCK) {
    const to = Math.min(from + MAX_BLOCK, end);
    const block = await queries.page(name, session, { ...params, startRow: from, endRow: to, cursor }, { cursor: true, fields });
    if (block.rows.length) yield block.rows;
    if (block.rows.length < to - from) return;
    // an order the keyset cannot follow (several sort columns) answers no cursor: the next block is read by OFFSET
    cursor = block.cursor;
  }
}

/**
 * The calendar day in the configured zone by the reader's date pattern, for the file name (the
 * user's day, not the server's); a slash, which no file name may hold, as a hyphen (04-12-2026).
 */
function dayIn(timeZone: string, datePattern: string, now = new Date()): string {
  return dateText(now, timeZone, datePattern).replaceAll('/', '-');
}

const linkResponse = { $ref: 'excel-export-link#' };
const errorResponse = { $ref: 'error-response#' };
const xlsxResponse = binaryResponse('The Excel file (.xlsx), saved under the table\'s title and the day', [XLSX_MIME], 'attachment, with the file name');

export default async function excelRoutes(app: FastifyInstance) {
  const queries = app.tableQueries;
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);

  /** The declaration as it is now (a configuration reload may switch the export off). */
  const offering = (name: string) => {
    const resource = app.config.bundle.resources[name];
    if (!resource?.excelExport) throw new HttpError(404, t('errors:notFound'));
    return resource;
  };

  /** The visible columns of the request, checked against the entity: an unknown field is a 400 naming it. */
  const columnsOf = (resource: ResourceDecl, body: ExcelExportRequest): ExportColumn[] => {
    const properties: Record<string, EntitySchema> = app.config.bundle.schemas[resource.entity]?.properties ?? {};
    const { fieldNames, columnNames, columnFormats = [], valueLabels = [] } = body;
    if (columnNames.length !== fieldNames.length) {
      const message = t('errors:excel.columnMismatch');
      throw new HttpError(400, message, { code: 'VALIDATION', errors: [{ field: 'columnNames', message }] });
    }
    return fieldNames.map((field, i) => {
      if (!Object.hasOwn(properties, field)) throw new TableQueryError('unknownColumn', field);
      return { field, header: columnNames[i], format: formatKindFor(properties[field], columnFormats[i]), labels: valueLabels[i] ?? null };
    });
  };

  async function prepare(name: string, session: Session, body: ExcelExportRequest) {
    const resource = offering(name);
    // a role without access is refused before anything about its request is looked at
    scopeOf(app.config.bundle.resources, resource, session, t('errors:forbidden'));
    const columns = columnsOf(resource, body);
    const params = { ...body.rowParams, startRow: body.rowParams.startRow ?? 0 };

    const limit = exportLimitOf(app.config.bundle.config);
    const { count, estimated } = await queries.count(name, session, params);
    const wanted = Math.min(count, params.endRow) - params.startRow;
    if (estimated || wanted > limit) {
      throw new HttpError(400, t('errors:excel.dataSizeLimit', { limit }), { code: EXPORT_LIMIT_CODE });
    }

    const timeZone = timeZoneOf(app.config.bundle.config);
    const sheet = createSheetBuilder(columns, {
      yes: t('app:yes'),
      no: t('app:no'),
      units: { money: t('app:excel.units.money'), km: t('app:excel.units.km'), litres: t('app:excel.units.litres'), mm: t('app:excel.units.mm') },
      defaultSheetName: t('app:excel.defaultSheetName'),
      timeZone,
      datePattern: app.config.language.datePattern,
    });
    // at most `limit` rows even if rows were added since the count
    // only the exported columns are read: a block's rows are garbage as soon as the sheet has them
    const fields = columns.map((c) => c.field);
    for await (const block of exportBlocks(queries, name, session, params, limit, fields)) sheet.addRows(block);
    const title = t(`${resource.entity}:title`);
    const content = await sheet.finish(title);

    const expiresAt = new Date(Date.now() + DOWNLOAD_TOKEN_TTL_MS);
    const token = await app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('export_file').where('expiresAt', '<', new Date()).execute();
      const file = await trx
        .insertInto('export_file')
        .values({ userId: session.userId, filename: `${title} ${dayIn(timeZone, app.config.language.datePattern)}.xlsx`, mime: XLSX_MIME, content, expiresAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      return issueDownloadToken(trx, session, { kind: excelTokenKind(name), refId: String(file.id) });
    });
    return { data: `/api/${name}/excel/download?token=${encodeURIComponent(token)}` };
  }

  for (const [name, resource] of Object.entries(app.config.bundle.resources)) {
    if (!resource.excelExport) continue;

    app.post<{ Body: ExcelExportRequest }>(`/api/${name}/excel/prepare`, {
      // the roles of the resource's declaration (schemas/resources/<name>.json), as for its table
      config: { access: { resource: name }, operation: { resource: name, action: 'excelPrepare', summary: `Prepare an Excel file of the ${name} rows` } },
      schema: {
        description: 'Builds an Excel file of the table rows for the current filter and sort, with the given columns in order; answers a one-time download link.',
        body: { $ref: 'excel-export-request#' },
        response: { 200: linkResponse, 400: errorResponse, 403: errorResponse, 404: errorResponse },
      },
      handler: async (request) => prepare(name, request.session!, request.body),
    });

    app.get<{ Querystring: { token?: string } }>(`/api/${name}/excel/download`, {
      // the link opens in a new window without the bearer header: the token is the credential
      config: { access: 'public', operation: { resource: name, action: 'excelDownload', summary: `Download a prepared Excel file of ${name} rows`, errorPages: true } },
      schema: {
        description: 'The prepared Excel file, once, for the session that prepared it.',
        querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 200, pattern: NO_NUL_PATTERN } } },
        response: { 200: xlsxResponse, 403: errorResponse },
      },
      handler: async (request, reply) => {
        const refuse = () => refuseDownload(request, reply, 403, t('errors:download.expired'), 'DOWNLOAD_REFUSED');
        const redeemed = await redeemDownloadToken(app.db, request.query.token, excelTokenKind(name));
        if (!redeemed) return refuse();
        // taken out as it is sent: the token is spent already, so the file has no further use
        const file = await app.db
          .deleteFrom('export_file')
          .where('id', '=', Number(redeemed.refId))
          .where('userId', '=', redeemed.userId)
          .where('expiresAt', '>', new Date())
          .returning(['filename', 'mime', 'content'])
          .executeTakeFirst();
        if (!file) return refuse();
        return sendDownload(reply, { filename: file.filename, mime: file.mime, content: file.content });
      },
    });
  }
}
