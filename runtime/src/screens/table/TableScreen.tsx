/**
 * The `table` screen type: ag-grid with the infinite row model (block 30, 10 blocks, 2 concurrent
 * requests, row height 48 — spec §9), server-side multi-column sort (shift-click) and filters, a
 * row count under the title, the layout kept per table, a row action (dialog, navigation or call), and
 * an export of the current list when the screen declares one (xlsx on the server, csv in the browser).
 * Embedded in a dialog tab it is given the parent's id as `srcId`. As a page it applies a filter
 * given in its address (`?filter=`, url-filter.ts: a reminder tile opens a table this way), and
 * opens the record its address names (`?open=`, routing/open-param.ts: a notification's link).
 */
import { themeQuartz, type GridApi, type GridState, type RowClickedEvent, type RowDoubleClickedEvent } from 'ag-grid-community';
import { AgGridReact } from 'ag-grid-react';
import './grid-modules';
import { hiddenColumnsOf } from '../../../core/hidden-columns';
import { fieldLabelKey } from '../../../core/labels';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import { useSearchParams } from 'react-router';
import { runAction, type DialogOpening } from '../../actions/run-action';
import { useConfig } from '../../config/ConfigContext';
import type { ActionDecl, TableScreenDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { formatNumber } from '../../format';
import { EmptyState } from '../EmptyState';
import { Loading } from '../Loading';
import { useNavigateTo } from '../../routing/useNavigateTo';
import { ScreenView } from '../ScreenView';
import { isFromCellControl, pressCellControl } from './cells/interactive';
import { cellComponents } from './cells/registry';
import ChoiceFilter from './ChoiceFilter';
import type { OptionsFilterProps } from './OptionsFilter';
import { buildColumnDefs, CHOICE_FILTER, fieldOf, filterFieldOf, OPTIONS_FILTER } from './columns';
import { narrowColumnDef, narrowRowHeight, useNarrow } from './narrow';
import { NarrowRowCell } from './NarrowRowCell';
import { makeDatasource, roundEstimate, type RowCount } from './datasource';
import { ExportButton } from './ExportButton';
import { gridLocaleText } from './locale';
import { DateInput } from './DateInput';
import { measureText } from './measure';
import { PresetFilterChoice } from './PresetFilterChoice';
import { TableActions } from './TableActions';
import { FILTER_PARAM, OPEN_PARAM, parseUrlFilter } from '../../routing/filter-param';
import { gridOnlyFilter, splitUrlFilter } from './url-filter';
// The saved filters and views menus come a moment after the grid: they carry the dropdown and its
// positioning library (popper), which the first rows do not need (tools/size-budget.ts).
const SavedSettingsToolbar = lazy(() => import('./SavedSettingsToolbar').then((m) => ({ default: m.SavedSettingsToolbar })));
// a `call` (an endpoint with Tak/Nie and a toast) is loaded when a table runs one
const TableCall = lazy(() => import('./TableCall'));
import { clearTableState, loadPreset, loadTableState, savePreset, saveTableState } from './state';
import type { ScreenProps } from '../types';

const gridTheme = themeQuartz.withParams({
  fontFamily: 'inherit',
  headerFontWeight: 600,
  accentColor: 'var(--bs-primary)',
  rowHoverColor: 'rgba(13, 110, 253, 0.06)',
});

/** Spec §9: table cache block size / max blocks / concurrent requests / row height. */
const BLOCK_SIZE = 30;
const MAX_BLOCKS = 10;
const CONCURRENT_REQUESTS = 2;
const ROW_HEIGHT = 48;
/** Declared widths up to this much wider than the grid are fitted to it instead of scrolling. */
const FIT_SLACK = 1.35;

/** `{field}` placeholders of a navigation target, filled from the row. */

/** The loading overlay of the grid (the spinner and "Ładowanie..." every screen uses). */
function TableLoading() {
  return (
    <div className="table-loading" data-testid="table-loading">
      <Loading />
    </div>
  );
}

/** Cell renderers and the choice filters, by the names column definitions use; the date filters' day input in the reader's pattern. */
/**
 * The server-listed choice filter, loaded when a column's filter is first opened: few tables
 * declare one (Dziennik zmian's "Kto"), and the table screen's bytes are budgeted. Its model lives
 * in the grid (reactive filter: `model`, `onModelChange`), so nothing is lost while its code loads.
 */
const OptionsFilterCode = lazy(() => import('./OptionsFilter'));
const OptionsFilter = (props: OptionsFilterProps) => (
  <Suspense fallback={<Loading />}>
    <OptionsFilterCode {...props} />
  </Suspense>
);
const gridComponents = { ...cellComponents, [CHOICE_FILTER]: ChoiceFilter, [OPTIONS_FILTER]: OptionsFilter, narrowRow: NarrowRowCell, agDateInput: DateInput };

export default function TableScreen({ screen, screenId, presentation, srcId }: ScreenProps<TableScreenDecl>) {
  const { t, i18n } = useTranslation();
  const { bundle, conditions } = useConfig();
  const ctx = useConditionContext();
  const navigateTo = useNavigateTo();
  const gridApi = useRef<GridApi | null>(null);
  // the last count stays on screen while a new query loads (marked busy), so the page does not jump
  const [count, setCount] = useState<RowCount | null>(null);
  const [loading, setLoading] = useState(true);
  const onCount = useCallback((next: RowCount | null) => {
    if (next === null) setLoading(true);
    else {
      setCount(next);
      setLoading(false);
    }
  }, []);
  const onFailed = useCallback(() => setLoading(false), []);
  const [dialog, setDialog] = useState<{ screen: string; id: unknown; opening?: DialogOpening } | null>(null);
  const [call, setCall] = useState<{ action: ActionDecl; row: Record<string, unknown> | null } | null>(null);
  // with toolbar actions a click selects the row they act on (the last clicked), marked by a class
  const selectable = Boolean(screen.toolbarActions?.length);
  const [selected, setSelected] = useState<Record<string, unknown> | null>(null);
  const selectedRef = useRef<Record<string, unknown> | null>(null);
  const select = (row: Record<string, unknown> | null) => {
    selectedRef.current = row;
    setSelected(row);
    gridApi.current?.redrawRows();
  };
  const rowClassRules = useMemo(() => ({ 'row-selected': (p: { data?: unknown }) => p.data !== undefined && p.data === selectedRef.current }), []);
  const embedded = presentation === 'embedded';
  // an embedded table keeps its own layout, apart from the same table shown as a page
  const stateKey = screen.stateKey ? `${screen.stateKey}${embedded ? '.embedded' : ''}` : undefined;

  const entity = bundle.schemas[screen.entity];
  // a client's configuration may hide some columns of this table (core/hidden-columns.ts)
  const shown = useMemo(() => {
    const hidden = hiddenColumnsOf(bundle.config, screenId);
    return hidden.size ? { ...screen, columns: screen.columns.filter((c) => !hidden.has(c.id)) } : screen;
  }, [screen, screenId, bundle.config]);
  // on a phone a table that declares its narrow lines shows each row as those lines (narrow.ts)
  const narrow = useNarrow() && Boolean(shown.narrow?.lines.length);
  const wideColumnDefs = useMemo(() => buildColumnDefs(shown, entity, t, conditions, ctx, measureText), [shown, entity, t, conditions, ctx]);
  const narrowDefs = useMemo(() => (narrow ? [narrowColumnDef(shown, entity, t, conditions, ctx)] : null), [narrow, shown, entity, t, conditions, ctx]);
  const columnDefs = narrowDefs ?? wideColumnDefs;
  // a filter in the page's address: on the columns that can show it, the rest sent beside them (until dropped)
  const [searchParams, setSearchParams] = useSearchParams();
  const urlFilterText = embedded ? null : searchParams.get(FILTER_PARAM);
  const urlFilter = useMemo(() => {
    const model = parseUrlFilter(urlFilterText);
    return model ? splitUrlFilter(model, columnDefs) : null;
    // the columns' filters are known at once; later rebuilds of the definitions (texts, context) do not move an entry
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [urlFilterText]);
  const extraFilter = urlFilter && Object.keys(urlFilter.extra).length ? urlFilter.extra : undefined;
  const dropExtraFilter = () => {
    const kept = urlFilter ? gridOnlyFilter(urlFilter, columnDefs) : {};
    setSearchParams((params) => {
      const next = new URLSearchParams(params);
      if (Object.keys(kept).length) next.set(FILTER_PARAM, JSON.stringify(kept));
      else next.delete(FILTER_PARAM);
      return next;
    }, { replace: true });
  };
  const presetDecl = screen.presetFilter;
  const [preset, setPreset] = useState(() => {
    const kept = stateKey ? loadPreset(stateKey) : undefined;
    return presetDecl?.options.some((o) => o.id === kept) ? kept! : presetDecl?.default;
  });
  const choosePreset = (id: string) => {
    setPreset(id);
    if (stateKey) savePreset(stateKey, id);
  };
  const keptState = useMemo(() => (stateKey ? loadTableState(stateKey) : undefined), [stateKey]);
  // a filter in the address replaces the kept one: the table shows what the link promised
  const initialState = useMemo(() => (urlFilter ? { ...keptState, filter: { filterModel: urlFilter.grid } } : keptState), [keptState, urlFilter]);
  // The wide grid's state as the user left it. A phone's one column has no filters or sorting, and
  // the grid is made anew when the window crosses the phone's width (a phone turned, a window
  // narrowed): the rows keep the user's filter and sort there (the query carries them), and the wide
  // grid comes back with them, not with the state it was opened with.
  const wideState = useRef<GridState | undefined>(initialState);
  // a saved filter chosen on the phone changes the state carried: asked again
  const [carriedChanges, carriedChanged] = useState(0);
  const carried = useMemo(
    () => (narrow ? { filterModel: wideState.current?.filter?.filterModel, sortModel: wideState.current?.sort?.sortModel } : undefined),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [narrow, carriedChanges],
  );
  const query = useMemo(
    () => ({
      srcId,
      group: screen.group,
      fields: new Map(screen.columns.map((c) => [c.id, fieldOf(c)])),
      filterFields: new Map(screen.columns.map((c) => [c.id, filterFieldOf(c)])),
      presetFilter: extraFilter
        ? { ...(presetDecl?.options.find((o) => o.id === preset)?.filterModel ?? {}), ...extraFilter }
        : presetDecl?.options.find((o) => o.id === preset)?.filterModel,
      carried,
    }),
    [srcId, screen.group, screen.columns, presetDecl, preset, extraFilter, carried],
  );
  const datasource = useMemo(() => makeDatasource(screen.resource, query, onCount, onFailed), [screen.resource, query, onCount, onFailed]);
  const localeText = useMemo(() => gridLocaleText(i18n), [i18n]);
  // the state a wide grid starts with (read once, when it is made): as kept, or as the user left it before the phone's layout
  const wideInitialState = useMemo(() => (narrow ? undefined : wideState.current), [narrow]);

  const onAction = useCallback(
    (action: ActionDecl | undefined, row: Record<string, unknown> | undefined | null, withoutRow = false) => {
      if (!action || (!row && !withoutRow)) return;
      if (action.kind === 'call') return setCall({ action, row: row ?? null });
      // a dialog learns which record's list opened it (a new attachment belongs to the embedding record)
      const opener = { srcId, group: screen.group };
      runAction(action, row, {
        navigate: navigateTo,
        openDialog: (dialogScreen, id, opening) => setDialog({ screen: dialogScreen, id, opening: opening && { ...opening, opener } }),
        // choose: a row click that depends on the row (a damage row opens another dialog than an order row)
        matches: (condition, r) => conditions.matches(condition as never, { ...ctx, record: r ?? null }),
      });
    },
    [navigateTo, conditions, ctx, srcId, screen.group],
  );

  // a record named by the address (?open=) opens as a click on its row would; closing its dialog drops the name
  const openText = embedded ? null : searchParams.get(OPEN_PARAM);
  const rowAction = screen.onRowClick ?? screen.onRowDoubleClick;
  useEffect(() => {
    if (!openText || !rowAction) return;
    let live = true;
    void import('./open-record')
      .then((m) => m.findRecord(screen.resource, entity, rowAction, openText))
      .then((row) => live && (row ? onAction(rowAction, row) : dropOpen()));
    return () => {
      live = false;
    };
    // asked once per record named; the table's other changes do not open it again
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openText]);
  const dropOpen = () =>
    setSearchParams((params) => {
      const next = new URLSearchParams(params);
      next.delete(OPEN_PARAM);
      return next;
    }, { replace: true });

  /**
   * The declared widths are for a wide window: when they add up to a little more than the grid has
   * (up to FIT_SLACK), or to less, the columns are fitted to it — never below their minimum — so a
   * column is not left half under the pinned ones. Far wider tables scroll. A layout the user kept wins.
   */
  const fitColumns = useCallback((api: GridApi) => {
    if (initialState?.columnSizing) return;
    const available = document.querySelector<HTMLElement>(`[data-screen="${screenId}"] .ag-body-viewport`)?.clientWidth ?? 0;
    const total = api.getAllDisplayedColumns().reduce((sum, c) => sum + c.getActualWidth(), 0);
    if (available > 0 && total <= available * FIT_SLACK) api.sizeColumnsToFit();
  }, [initialState, screenId]);

  // a link's filter is the view of this visit: the table goes on remembering the filter it had before
  const onStateUpdated = useCallback(
    // the phone's one column is not the user's layout: the wide one stays as it was kept
    (e: { state: GridState }) => {
      if (narrow) return;
      wideState.current = e.state;
      if (stateKey) saveTableState(stateKey, urlFilter ? { ...e.state, filter: keptState?.filter } : e.state);
    },
    [stateKey, urlFilter, keptState, narrow],
  );
  // the filter the saved filters read and set: the grid's own, or on a phone the one carried for it
  const filter = {
    get: () => (narrow ? carried?.filterModel : gridApi.current?.getFilterModel()) ?? {},
    set: (filterModel: Record<string, unknown>) => {
      if (!narrow) return gridApi.current?.setFilterModel(filterModel);
      wideState.current = { ...wideState.current, filter: { filterModel } };
      if (stateKey) saveTableState(stateKey, wideState.current);
      carriedChanged((n) => n + 1);
    },
  };
  const resetLayout = () => {
    if (stateKey) clearTableState(stateKey);
    wideState.current = undefined;
    carriedChanged((n) => n + 1);
    gridApi.current?.resetColumnState();
    gridApi.current?.setFilterModel(null);
  };

  const TitleTag = embedded ? 'h3' : 'h1';
  return (
    <section className={`table-screen${embedded ? ' table-screen--embedded' : ''}`} data-screen={screenId}>
      <div className="table-screen-head">
        <div>
          {screen.title && !embedded && <TitleTag className="page-title">{t(screen.title)}</TitleTag>}
          {extraFilter && (
            <p className="url-filter mb-1" data-testid="url-filter">
              <i className="bi bi-funnel me-1" aria-hidden="true" />
              {t('table:urlFilter', { fields: Object.keys(extraFilter).map((f) => t(fieldLabelKey(screen.entity, f), { defaultValue: f })).join(', ') })}
              <Button variant="link" size="sm" className="ms-2 p-0 align-baseline" onClick={dropExtraFilter}>
                {t('table:urlFilterDrop')}
              </Button>
            </p>
          )}
          {screen.help && (
            <p className="table-help mb-1">
              <i className="bi bi-info-circle me-1" aria-hidden="true" />
              {t(screen.help)}
            </p>
          )}
          <p className="row-count text-secondary mb-0" aria-live="polite" aria-busy={loading} data-loading={loading || undefined} data-testid="row-count">
            {count === null
              ? '\u00a0'
              : count.estimated
                ? t('table:rowCountEstimated', { count: formatNumber(roundEstimate(count.count)) as unknown as number })
                : t('table:rowCount', { count: formatNumber(count.count) as unknown as number })}
          </p>
        </div>
        <div className="table-toolbar">
          {presetDecl && preset && <PresetFilterChoice preset={presetDecl} value={preset} onChange={choosePreset} />}
          {screen.stateKey && screen.savedSettings !== false && (
            <Suspense fallback={null}>
              <SavedSettingsToolbar tableName={screen.stateKey} gridApi={() => gridApi.current} filter={filter} views={!narrow} />
            </Suspense>
          )}
          {screen.export && <ExportButton kind={screen.export} screen={screen} query={query} gridApi={() => gridApi.current} />}
          {screen.toolbarActions && (
            <TableActions items={screen.toolbarActions} selected={selected} conditions={conditions} ctx={ctx} onRun={(action, row) => onAction(action, row, true)} hasScreen={(id) => Object.hasOwn(bundle.screens, id)} />
          )}
          {stateKey && (
            <Button variant="outline-secondary" size="sm" onClick={resetLayout}>
              <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
              {t('table:resetState')}
            </Button>
          )}
        </div>
      </div>
      <div className="table-grid" aria-busy={loading}>
        {!loading && count?.count === 0 && (
          <div className="table-overlay" aria-live="polite">
            <EmptyState text={t('table:noRows')} />
          </div>
        )}
        <AgGridReact
          // a new grid when the phone's layout comes or goes: the kept layout applies to the wide one only
          key={narrow ? 'narrow' : 'wide'}
          theme={gridTheme}
          columnDefs={columnDefs}
          components={gridComponents}
          maintainColumnOrder
          tooltipShowDelay={300}
          tooltipShowMode="whenTruncated"
          suppressNoRowsOverlay
          // the grid's own overlay lies over the rows, below the header, while a block loads
          loading={loading}
          loadingOverlayComponent={TableLoading}
          defaultColDef={{ resizable: true, wrapHeaderText: true, autoHeaderHeight: true }}
          rowModelType="infinite"
          datasource={datasource}
          cacheBlockSize={BLOCK_SIZE}
          maxBlocksInCache={MAX_BLOCKS}
          maxConcurrentDatasourceRequests={CONCURRENT_REQUESTS}
          rowHeight={narrow ? narrowRowHeight(shown) : ROW_HEIGHT}
          initialState={wideInitialState}
          onStateUpdated={onStateUpdated}
          localeText={localeText}
          onGridReady={(e) => {
            gridApi.current = e.api;
            requestAnimationFrame(() => !e.api.isDestroyed() && fitColumns(e.api));
          }}
          onRowClicked={(e: RowClickedEvent) => {
            // a button inside a cell (a file download) is not a click on the row
            if (isFromCellControl(e.event)) return;
            if (selectable) select(e.data ?? null);
            onAction(screen.onRowClick, e.data);
          }}
          onRowDoubleClicked={(e: RowDoubleClickedEvent) => {
            if (!isFromCellControl(e.event)) onAction(screen.onRowDoubleClick, e.data);
          }}
          onCellKeyDown={(e) => {
            const event = e.event as KeyboardEvent | undefined;
            const row = (e.data ?? null) as Record<string, unknown> | null;
            if (selectable && event?.key === ' ') select(row);
            // keyboard users open the row the same way a click does, unless Enter pressed a cell's button
            if (event?.key === 'Enter' && !pressCellControl(event)) {
              if (selectable) select(row);
              onAction(screen.onRowClick ?? screen.onRowDoubleClick, row);
            }
          }}
          rowClass={screen.onRowClick || screen.onRowDoubleClick || selectable ? 'clickable-row' : undefined}
          rowClassRules={selectable ? rowClassRules : undefined}
        />
      </div>
      {call && (
        <Suspense fallback={null}>
          <TableCall
            {...call}
            onDone={(changed) => {
              setCall(null);
              if (changed) gridApi.current?.refreshInfiniteCache();
            }}
          />
        </Suspense>
      )}
      {dialog && (
        <ScreenView
          screenId={dialog.screen}
          presentation="dialog"
          params={{ id: dialog.id }}
          opening={dialog.opening}
          onClose={() => {
            setDialog(null);
            if (openText) dropOpen();
          }}
          onChanged={() => {
            // the rows changed (added, edited, deleted): read them again, the old selection is gone
            select(null);
            gridApi.current?.refreshInfiniteCache();
          }}
        />
      )}
    </section>
  );
}
