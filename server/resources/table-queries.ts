/**
 * The table-query service (DESIGN.md §3): reads a table resource's rows, blocks, counts and single
 * rows within the caller's row scope. One instance per application, decorated as
 * `app.tableQueries` by this plugin; the table routes, the Excel export and the domain routes
 * (routes/car.ts …) call it instead of building queries of their own. Every call reads the
 * resource's declaration from the bundle in use, so a configuration reload applies at once.
 * Its own errors (TableQueryError: a bad column, filter, sort or cursor) are answered here as a
 * 400 naming the field.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Expression, type Kysely } from 'kysely';
import type { EntitySchema, ResourceDecl } from '../config/bundle.ts';
import type { RowParams, TablePage } from '../../runtime/core/generated/api.ts';
import type { Session } from '../auth/sessions.ts';
import type { ErrorMapper } from '../plugins/errors.ts';
import { HttpError } from '../http-error.ts';
import { normaliseRow } from '../db/rows.ts';
import { scopeExpression, type Resources } from '../access/row-scope.ts';
import { readBlock } from './table-block.ts';
import { countRows, type RowCount } from './table-count.ts';
import { cursorKeyLoader, decodeCursor, encodeCursor, queryFingerprint, type CursorPayload } from './table-cursor.ts';
import { blockWindow, columnsFromSchema, filterExpression, sortKeyIdentity, sortKeys, TableQueryError, type Columns } from '../db/table-query.ts';
import { byConfiguration } from '../db/configured-tables.ts';
import type { RemindersFile } from '../../runtime/core/generated/meta.ts';
import { timeZoneOf } from '../config/locale.ts';
import { colorColumns } from '../reminders/colors.ts';
import { dayIn } from '../reminders/today.ts';

/** Largest block a client may ask for in one call (ag-grid asks for 30). */
export const MAX_BLOCK = 1000;
/** Counts are exact up to this many rows unless screens/app.json sets `tables.countCap`. */
export const DEFAULT_COUNT_CAP = 100_000;

/**
 * Fields of a resource's rows that no view holds, filled after a block is read (their entity
 * properties say `"x-computed": true` and `"x-filter": false`): "Rekord" of Dziennik zmian names each
 * entry's record as users know it (server/audit/record-names.ts). `needs` are the view's columns the
 * extension reads, selected whenever it runs (an export of the computed column alone).
 */
export interface RowExtension {
  needs: readonly string[];
  extend(rows: Record<string, unknown>[], session: Session): Promise<void>;
  /**
   * Some columns as the current request's caller reads them, when that is not the stored column
   * (the fields named in the reader's language): by column id, an expression of the resource's
   * source row (`source` is its table or view, to qualify the row's columns in a subquery), which
   * the column's text filter compares and its sort orders by. Read anew for every query.
   */
  shownValues?(source: string): Record<string, Expression<string | null>>;
}

/** The request's rowParams and a block as /table2 answers it (`count`/`estimated` only for the first block, `cursor` when more rows may follow): schemas/api/row-params and table-page. */
export type { RowParams, TablePage };

function createTableQueries(app: FastifyInstance) {
  /** Resources are read from the bundle in use on every call: tables and columns by the configuration's names. */
  const db = byConfiguration(app.db);
  const t = (k: string) => app.config.t(k);
  const cursorKey = cursorKeyLoader(app.db);
  const countCap = () => (app.config.bundle.app.tables?.countCap as number | undefined) ?? DEFAULT_COUNT_CAP;

  const resolve = (name: string) => {
    // one bundle for the whole call: a reload in between cannot mix two configurations
    const { resources, schemas } = app.config.bundle;
    const resource = resources[name];
    if (!resource) throw new HttpError(404, t('errors:notFound'));
    const entity = schemas[resource.entity];
    return { resources, resource, entity, columns: withShownValues(name, resource.source, columnsFromSchema(entity)) };
  };

  const extensions = new Map<string, RowExtension>();

  /** The columns with what the resource's extension says this caller reads in them (filtered and sorted by that). */
  const withShownValues = (name: string, source: string, columns: Columns): Columns => {
    const values = Object.entries(extensions.get(name)?.shownValues?.(source) ?? {}).filter(([id]) => columns.has(id));
    if (!values.length) return columns;
    const out = new Map(columns);
    for (const [id, shownValue] of values) out.set(id, { ...columns.get(id)!, shownValue });
    return out;
  };

  /**
   * The columns a block reads: every entity property, or only those a caller needs (an export's
   * columns); a column its reader sees otherwise than stored is read as he sees it (`shownValues`).
   */
  const selection = (name: string, entity: EntitySchema, columns: Columns, fields?: readonly string[]) => {
    // a colour field of a reminder rule is computed from the rule, never read as stored (server/reminders/colors.ts)
    const { bundle } = app.config;
    const computed = colorColumns(bundle.screens.reminders as unknown as RemindersFile | undefined, name, dayIn(app.clock(), timeZoneOf(bundle.config)));
    const properties = entity.properties ?? {};
    const wanted = [...(fields ?? Object.keys(properties)), ...(extensions.get(name)?.needs ?? [])];
    return [...new Set(wanted)]
      .filter((p) => Object.hasOwn(properties, p) && properties[p]?.['x-computed'] !== true)
      .map((p) => {
        const shown = columns.get(p)?.shownValue;
        return (computed.get(p) ?? (shown ? sql`${shown}` : sql.ref(p))).as(p);
      });
  };
  /** Fills the computed fields of a resource's rows, when an extension is registered for it. */
  const extended = async (name: string, rows: Record<string, unknown>[], session: Session) => {
    const extension = extensions.get(name);
    if (extension && rows.length) await extension.extend(rows, session);
    return rows;
  };

  /**
   * A request value compared with a column (srcId, group) as the column's type: a number column
   * takes a whole number in the range of PostgreSQL's integer (also written as digits); a text
   * column takes text. Anything else is a 400 naming the request field, never a database error.
   */
  const columnValue = (entity: EntitySchema, column: string, value: string | number, field: string): string | number => {
    const type = entity.properties?.[column]?.type;
    const types: unknown[] = Array.isArray(type) ? type : [type];
    const bad = () => {
      const message = t('validation:type');
      return new HttpError(400, `${field}: ${message}`, { code: 'VALIDATION', errors: [{ field, message }] });
    };
    if (types.includes('integer') || types.includes('number')) {
      const n = typeof value === 'number' ? value : /^-?\d{1,10}$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < -2147483648 || n > 2147483647) throw bad();
      return n;
    }
    const text = String(value);
    if (text.includes('\u0000')) throw bad();
    return text;
  };

  const baseQuery = (resources: Resources, resource: ResourceDecl, entity: EntitySchema, columns: Columns, session: Session, params: Partial<RowParams>) => {
    let q = db.selectFrom(resource.source).where((eb) => scopeExpression(eb, resources, resource, session, t('errors:forbidden')));
    q = q.where((eb) => filterExpression(eb, columns, params.filterModel) ?? sql<boolean>`true`);
    if (params.srcId !== undefined && params.srcId !== null && params.srcId !== '') {
      if (!resource.srcColumn) throw new HttpError(400, t('errors:badRequest'), { code: 'NO_SRC' });
      q = q.where(sql.ref(resource.srcColumn), '=', columnValue(entity, resource.srcColumn, params.srcId, 'srcId'));
    }
    if (params.group !== undefined && params.group !== null && params.group !== '') {
      if (!resource.groupColumn) throw new HttpError(400, t('errors:badRequest'), { code: 'NO_GROUP' });
      q = q.where(sql.ref(resource.groupColumn), '=', columnValue(entity, resource.groupColumn, params.group, 'group'));
    }
    return q;
  };

  /**
   * A block of rows. With `count` (table2), the first block also counts the query, so the grid
   * knows its length from the start; with `cursor` (table2, or a server-side loop over blocks such
   * as an export), a block after which more rows may follow carries a cursor for the next one. A cursor that fits this query (same resource, order, filter,
   * parent and caller) lets the block be read by keyset, or, with the count it carries, from the
   * end; one that does not fit is ignored (OFFSET), one the server did not issue is a 400.
   */
  async function page(
    name: string,
    session: Session,
    params: RowParams,
    answer: { count?: boolean; cursor?: boolean; fields?: readonly string[] } = { count: true, cursor: true },
  ): Promise<TablePage> {
    const { resources, resource, entity, columns } = resolve(name);
    const { offset, limit } = blockWindow(params, MAX_BLOCK);
    const sortModel = Array.isArray(params.sortModel) && params.sortModel.length ? params.sortModel : resource.defaultSort ?? [];
    const keys = sortKeys(columns, sortModel, resource.key);
    const base = baseQuery(resources, resource, entity, columns, session, params);
    const fingerprint = queryFingerprint({
      resource: name, keys: keys.map(sortKeyIdentity), filter: params.filterModel ?? null, srcId: params.srcId ?? null, group: params.group ?? null,
      caller: [session.role, session.userId, session.klientSymbol, session.stacjaSerw, session.pojazdId, session.integration?.clients ?? null],
    });
    let fit: CursorPayload | undefined;
    if (typeof params.cursor === 'string' && params.cursor !== '') {
      const cursor = decodeCursor(await cursorKey(), params.cursor);
      if (cursor.q === fingerprint) fit = cursor;
    }

    // The first block's count runs beside its rows (on PostgreSQL a second pooled connection), so
    // the first block costs the slower of the two rather than both; a short block does not need it.
    const counting = answer.count && offset === 0 ? countRows(db, base, countCap()) : undefined;
    counting?.catch(() => undefined); // not awaited when the block is short

    const block = await readBlock({
      base, selection: selection(name, entity, columns, answer.fields), keys, offset, limit,
      after: fit && fit.p === offset && fit.k !== undefined ? { s: fit.s, k: fit.k } : undefined,
      total: fit?.n,
    });
    const rows = await extended(name, block.rows.map((r) => normaliseRow(r, entity)), session);

    let total = fit?.n;
    let counted: RowCount | undefined;
    let lastRow: number;
    if (rows.length < limit) lastRow = total = offset + rows.length;
    else if (counting) {
      counted = await counting;
      if (!counted.estimated) total = counted.count;
      lastRow = counted.estimated ? -1 : counted.count;
    } else lastRow = total ?? -1;

    let cursor: string | undefined;
    if (answer.cursor && rows.length === limit && (block.last || total !== undefined)) {
      cursor = encodeCursor(await cursorKey(), { q: fingerprint, p: offset + limit, ...(total !== undefined ? { n: total } : {}), ...block.last });
    }
    return { rows, lastRow, ...(cursor ? { cursor } : {}), ...(counted ?? {}) };
  }

  async function rows(name: string, session: Session, params: RowParams) {
    return (await page(name, session, params, {})).rows;
  }

  async function count(name: string, session: Session, params: Partial<RowParams>): Promise<RowCount> {
    const { resources, resource, entity, columns } = resolve(name);
    return countRows(db, baseQuery(resources, resource, entity, columns, session, params), countCap());
  }

  async function byId(name: string, session: Session, id: string) {
    const { resources, resource, entity, columns } = resolve(name);
    const keyType = entity.properties?.[resource.key]?.type;
    const isInteger = keyType === 'integer' || (Array.isArray(keyType) && keyType.includes('integer'));
    if (isInteger && !/^\d{1,15}$/.test(id)) throw new HttpError(404, t('errors:notFound'));
    const row = await db
      .selectFrom(resource.source)
      .select(selection(name, entity, columns))
      .where((eb) => scopeExpression(eb, resources, resource, session, t('errors:forbidden')))
      .where(sql.ref(resource.key), '=', isInteger ? Number(id) : id)
      .executeTakeFirst();
    // Outside the caller's scope is answered as if the row did not exist (ACCESS.md).
    if (!row) throw new HttpError(404, t('errors:notFound'));
    return (await extended(name, [normaliseRow(row, entity)], session))[0]!;
  }

  /**
   * Whether the caller sees the row of a resource with this key (a file of an invoice follows its
   * row). A role the resource does not name is a 403; a row outside the scope is simply false.
   */
  async function isVisible(name: string, session: Session, key: string | number): Promise<boolean> {
    const { resources, resource } = resolve(name);
    const row = await db
      .selectFrom(resource.source)
      .select(sql`1`.as('one'))
      .where((eb) => scopeExpression(eb, resources, resource, session, t('errors:forbidden')))
      .where(sql.ref(resource.key), '=', key)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Registers the extension that fills a resource's computed fields (one per resource). */
  function extendRows(name: string, extension: RowExtension): void {
    extensions.set(name, extension);
  }

  return { page, rows, count, byId, isVisible, extendRows };
}

export type TableQueries = ReturnType<typeof createTableQueries>;

declare module 'fastify' {
  interface FastifyInstance {
    /** The one table-query service of the application. */
    tableQueries: TableQueries;
  }
}

/** A bad column, filter, sort or cursor of a table request: 400 naming the field (errors:table.<code>). */
export const tableQueryErrors: ErrorMapper = (error, { t }) => {
  if (!(error instanceof TableQueryError)) return undefined;
  const message = t(`errors:table.${error.code}`, { field: error.field });
  return { statusCode: 400, body: { statusCode: 400, code: error.code, detail: message, errors: [{ field: error.field, message }] } };
};

export default fp(
  async (app) => {
    app.decorate('tableQueries', createTableQueries(app));
    app.mapErrors(tableQueryErrors);
  },
  { name: 'table-queries', dependencies: ['config', 'db', 'errors'] },
);

