/**
 * Raporty (issue 46): the reports the caller may run (GET /api/reports), a period, a grouping and
 * the filters a drill-down set; a chart (chart.js, the dashboard's chunk) and a table with totals.
 * The table is a page of the rows (pageSize), sorted by a header's column in the database; the totals
 * row is over all rows. The chart shows every row when they fit on one page, else, grouped by one
 * dimension, the chartTop rows by its measure and the rest (a ratio: the figure of all rows).
 * A row's value opens the rows behind it (its keys become filters, grouped by vehicle); the total
 * opens the rows behind the whole table; a vehicle opens its record. What is declared (reports,
 * dimensions, measures, chart) comes from the server; this screen draws it.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { useConfig } from '../../config/ConfigContext';
import { useTranslation } from '../../config/texts';
import { Link } from 'react-router';
import { api, errorText } from '../../api/client';
import { formatDecimal2, formatKm, formatLitres2, formatMoney, formatMonth, formatNumber } from '../../format';
import { formatSettings } from '../../format-settings';
import { useGet } from '../dashboard/useGet';
import { Pager } from '../dashboard/parts';
import type { ScreenProps } from '../types';
import { periodRange, type PeriodId } from './periods';
import { SubscribeDialog, SubscriptionList, type SubscriptionsDecl } from './Subscriptions';
import { DayInput } from './DayInput';
import { chartRows, type Column, type Result } from './chart-rows';
import './reports.css';

interface ReportInfo {
  id: string; label: string;
  dimensions: { id: string; label: string }[];
  measures: { id: string; label: string }[];
  filters: string[];
  defaults: { period: string; groupBy: string[] };
  chart?: { type: 'bar' | 'line' | 'doughnut'; measure: string; stacked?: boolean };
}
type Filters = Record<string, (string | number)[]>;
type Sort = { column: string; direction: 'asc' | 'desc' };

/** Rows a page of the table, and the chart's largest rows when there are more: screens/reports.json's pageSize and chartTop, else these. */
const PAGE = 100;
const TOP = 10;

/** Today in the configured zone (format-settings.ts), as YYYY-MM-DD. */
function todayIn(timeZone: string = formatSettings().timeZone): string {
  return new Date().toLocaleDateString('sv-SE', { timeZone });
}

function shown(value: unknown, format: string | undefined): string {
  if (value === null || value === undefined) return '–';
  if (format === 'money') return formatMoney(value) ?? '';
  if (format === 'km') return formatKm(value) ?? '';
  // every row with the same decimals, as the report's Excel and PDF files (runtime/src/format.ts decimal2)
  if (format === 'litres') return formatLitres2(value) ?? '';
  if (format === 'ratio' || format === 'kg') return formatDecimal2(value) ?? '';
  return String(value);
}

/** A dimension's value as the row shows it: a month (YYYY-MM) by its name in the reader's language, anything else as the server wrote it. */
function dimensionText(value: unknown, format: string | undefined): string {
  return (format === 'month' ? formatMonth(value) : null) ?? String(value ?? '');
}

function ReportChart({ info, result }: { info: ReportInfo; result: Result }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const measureColumn = info.chart ? result.columns.find((c) => c.id === info.chart!.measure) : undefined;
  const drawn = useMemo(() => (measureColumn
    ? chartRows(result, measureColumn, (count) => t('reports:screen.chartRest', { count: formatNumber(count) }), (count) => t('reports:screen.chartAll', { count: formatNumber(count) }))
    : null), [result, measureColumn, t]);
  useEffect(() => {
    const chartDecl = info.chart;
    if (!chartDecl || !canvas.current) return;
    let chart: { destroy(): void } | undefined;
    let cancelled = false;
    const dims = result.columns.filter((c) => c.kind === 'dimension');
    const measure = result.columns.find((c) => c.id === chartDecl.measure);
    if (!measure || dims.length === 0 || !drawn) return;
    const rows = drawn.rows;
    const [first, second] = dims;
    const labels = [...new Set(rows.map((r) => dimensionText(r.values[first.id], first.format)))];
    const series = second ? [...new Set(rows.map((r) => dimensionText(r.values[second.id], second.format)))] : [measure.label];
    const palette = ['#0d6efd', '#198754', '#fd7e14', '#6f42c1', '#d63384', '#20c997', '#ffc107', '#6c757d'];
    const datasets = series.map((s, i) => ({
      label: s, backgroundColor: palette[i % palette.length], borderColor: palette[i % palette.length],
      data: labels.map((l) => {
        const row = rows.find((r) => dimensionText(r.values[first.id], first.format) === l && (!second || dimensionText(r.values[second.id], second.format) === s));
        return row ? Number(row.values[measure.id] ?? 0) : 0;
      }),
    }));
    import('../dashboard/chart-setup').then(({ Chart }) => {
      if (cancelled || !canvas.current) return;
      chart = new Chart(canvas.current, {
        type: chartDecl.type === 'line' ? 'line' : 'bar',
        data: { labels, datasets },
        options: { responsive: true, maintainAspectRatio: false, animation: false,
          scales: { x: { stacked: !!chartDecl.stacked }, y: { stacked: !!chartDecl.stacked, beginAtZero: true } },
          plugins: { legend: { display: !!second } } },
      });
    }).catch(() => {});
    return () => { cancelled = true; chart?.destroy(); };
  }, [info, result, drawn]);
  if (!info.chart) return null;
  return (
    <>
      <div className="report-chart"><canvas ref={canvas} aria-hidden="true" /></div>
      {drawn?.topOnly && measureColumn && (
        <p className="report-chart-note">{t('reports:screen.chartTop', { count: formatNumber(result.top?.length ?? 0), measure: measureColumn.label, total: formatNumber(result.rowCount) })}</p>
      )}
    </>
  );
}

export default function ReportsScreen({ screen }: ScreenProps<any>) {
  const { t } = useTranslation();
  const ids = { report: useId(), period: useId(), group: useId(), from: useId(), to: useId() };
  // in the studio's preview the reports answer by the configuration shown (a draft's new report too)
  const preview = useConfig().preview?.query;
  const asked = preview ? `?${new URLSearchParams({ studioPreview: preview })}` : '';
  const list = useGet<ReportInfo[]>(`/reports${asked}`);
  const reports = useMemo(() => list.data ?? [], [list.data]);
  const [reportId, setReportId] = useState<string>('');
  const info = reports.find((r) => r.id === reportId) ?? reports[0];
  const today = todayIn();
  const periods = (screen.periods ?? ['lastMonth']) as PeriodId[];
  const [period, setPeriod] = useState<PeriodId | null>(null);
  const [custom, setCustom] = useState(() => periodRange('lastMonth', today));
  const [groupBy, setGroupBy] = useState<string | null>(null);
  const [filters, setFilters] = useState<Filters>({});
  const [result, setResult] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const pageSize = typeof screen.pageSize === 'number' ? screen.pageSize : PAGE;
  const chartTop = typeof screen.chartTop === 'number' ? screen.chartTop : TOP;
  // the page and the order belong to one report, period, grouping and filters: another starts at the first page
  const [pageAt, setPageAt] = useState<{ query: string; offset: number }>({ query: '', offset: 0 });
  const [sortAt, setSortAt] = useState<{ query: string; sort: Sort | null }>({ query: '', sort: null });
  const subscriptions = screen.subscriptions as SubscriptionsDecl | undefined;
  const [subscribing, setSubscribing] = useState(false);
  const [subscribed, setSubscribed] = useState(0);

  const chosenPeriod = period ?? ((info?.defaults.period as PeriodId) || periods[0]);
  const range = chosenPeriod === 'custom' ? custom : periodRange(chosenPeriod, today);
  const grouping = groupBy ? [groupBy] : info?.defaults.groupBy ?? [];
  // an order is kept while the report and its grouping stay (a column of another grouping may not be there)
  const sortQuery = JSON.stringify([info?.id, grouping]);
  const sort = sortAt.query === sortQuery ? sortAt.sort : null;
  const query = JSON.stringify([info?.id, range.from, range.to, grouping, filters, sort]);
  const offset = pageAt.query === query ? pageAt.offset : 0;
  const sortBy = (column: string) => setSortAt({
    query: sortQuery,
    sort: sort?.column === column ? { column, direction: sort.direction === 'asc' ? 'desc' : 'asc' } : { column, direction: 'asc' },
  });

  useEffect(() => {
    if (!info) return;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    const body = { from: range.from, to: range.to, groupBy: grouping, filters, page: { offset, limit: pageSize }, ...(sort ? { sort } : {}), ...(info.chart ? { top: chartTop } : {}) };
    api.post<Result>(`/reports/${info.id}/run${asked}`, body, { signal: controller.signal, reads: true })
      .then((r) => { setResult(r); setLoading(false); })
      .catch((e) => { if (!controller.signal.aborted) { setError(errorText(e)); setResult(null); setLoading(false); } });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info?.id, range.from, range.to, grouping.join(','), JSON.stringify(filters), offset, JSON.stringify(sort)]);

  const choose = (id: string) => { setReportId(id); setGroupBy(null); setFilters({}); setPeriod(null); };
  const behind = (keys: Record<string, string | number | null>) => {
    const next: Filters = { ...filters };
    for (const [d, k] of Object.entries(keys)) if (k !== null && info?.dimensions.some((x) => x.id === d)) next[d] = [k];
    setFilters(next);
    if (info?.dimensions.some((d) => d.id === 'vehicle')) setGroupBy('vehicle');
  };
  const download = async (format: 'xlsx' | 'pdf') => {
    if (!info) return;
    try {
      const blob = await api.post<Blob>(`/reports/${info.id}/export${asked}`, { from: range.from, to: range.to, groupBy: grouping, filters, format }, { responseType: 'blob', reads: true });
      const url = URL.createObjectURL(blob);
      const a = document.createElement('a');
      a.href = url;
      a.download = `${info.label} ${range.from} ${range.to}.${format}`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const filterLabel = (d: string) => info?.dimensions.find((x) => x.id === d)?.label ?? d;
  const dimensionLabel = (report: string, d: string) => reports.find((r) => r.id === report)?.dimensions.find((x) => x.id === d)?.label ?? d;
  const vehicleRoute = typeof screen.vehicleRoute === 'string' ? screen.vehicleRoute : null;
  // the totals row is over all rows: with more than a page, it says so
  const totalLabel = result && result.rowCount > result.rows.length ? t('reports:screen.totalAll', { count: formatNumber(result.rowCount) }) : t('reports:screen.total');

  return (
    <section className="reports-screen" aria-labelledby={`${ids.report}-title`}>
      <h1 id={`${ids.report}-title`} className="page-title">{t(screen.title)}</h1>
      {screen.intro && <p>{t(screen.intro)}</p>}
      {list.error ? <Alert variant="danger">{errorText(list.error)}</Alert> : null}
      {info && (
        <Form className="reports-form" onSubmit={(e) => e.preventDefault()}>
          <Form.Group controlId={ids.report}>
            <Form.Label>{t('reports:screen.choose')}</Form.Label>
            <Form.Select value={info.id} onChange={(e) => choose(e.target.value)}>
              {reports.map((r) => <option key={r.id} value={r.id}>{r.label}</option>)}
            </Form.Select>
          </Form.Group>
          <Form.Group controlId={ids.period}>
            <Form.Label>{t('reports:screen.period')}</Form.Label>
            <Form.Select value={chosenPeriod} onChange={(e) => setPeriod(e.target.value as PeriodId)}>
              {periods.map((p) => <option key={p} value={p}>{t(`reports:periods.${p}`)}</option>)}
            </Form.Select>
          </Form.Group>
          {chosenPeriod === 'custom' && (
            <>
              <Form.Group controlId={ids.from}>
                <Form.Label>{t('reports:screen.from')}</Form.Label>
                <DayInput day={custom.from} onDay={(from) => setCustom((c) => ({ ...c, from }))} />
              </Form.Group>
              <Form.Group controlId={ids.to}>
                <Form.Label>{t('reports:screen.to')}</Form.Label>
                <DayInput day={custom.to} onDay={(to) => setCustom((c) => ({ ...c, to }))} />
              </Form.Group>
            </>
          )}
          <Form.Group controlId={ids.group}>
            <Form.Label>{t('reports:screen.groupBy')}</Form.Label>
            <Form.Select value={grouping[0] ?? ''} onChange={(e) => setGroupBy(e.target.value)}>
              {!groupBy && grouping.length > 1 && <option value={grouping[0]}>{grouping.map(filterLabel).join(', ')}</option>}
              {info.dimensions.map((d) => <option key={d.id} value={d.id}>{d.label}</option>)}
            </Form.Select>
          </Form.Group>
        </Form>
      )}
      {Object.keys(filters).length > 0 && (
        <p className="reports-filters">
          {t('reports:screen.filtersOn')}{' '}
          {Object.keys(filters).map((d) => <span key={d} className="badge text-bg-secondary me-1">{filterLabel(d)}</span>)}
          <Button variant="link" size="sm" onClick={() => { setFilters({}); setGroupBy(null); }}>{t('reports:screen.clearFilters')}</Button>
        </p>
      )}
      {error && <Alert variant="danger" role="alert">{error}</Alert>}
      <div aria-busy={loading} aria-live="polite">
        {result && info && result.rows.length === 0 && <p>{t('reports:screen.empty')}</p>}
        {info && (subscriptions || (result && result.rows.length > 0)) && (
          <div className="reports-actions">
            {result && result.rows.length > 0 && (
              <>
                <Button variant="primary" size="sm" onClick={() => download('xlsx')}>{t('reports:export.xlsx')}</Button>
                <Button variant="primary" size="sm" onClick={() => download('pdf')}>{t('reports:export.pdf')}</Button>
              </>
            )}
            {subscriptions && <Button variant="primary" size="sm" onClick={() => setSubscribing(true)}>{t('reports:subscriptions.subscribe')}</Button>}
          </div>
        )}
        {result && info && result.rows.length > 0 && (
          <>
            <ReportChart info={info} result={result} />
            <div className="table-responsive reports-table">
              <Table size="sm" striped hover className="mb-0">
                <caption className="visually-hidden">{info.label}</caption>
                <thead>
                  <tr>
                    {result.columns.map((c) => {
                      const sorted = sort?.column === c.id ? sort.direction : null;
                      return (
                        <th key={c.id} scope="col" className={c.kind === 'measure' ? 'text-end' : undefined}
                          aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}>
                          {c.kind === 'range' ? c.label : (
                            <Button variant="link" size="sm" className="p-0 fw-bold text-reset text-decoration-none report-sort" title={t('reports:screen.sortBy', { column: c.label })} onClick={() => sortBy(c.id)}>
                              {c.label}
                              {sorted && <i className={`bi bi-arrow-${sorted === 'asc' ? 'up' : 'down'} ms-1`} aria-hidden="true" />}
                            </Button>
                          )}
                        </th>
                      );
                    })}
                  </tr>
                </thead>
                <tbody>
                  {result.rows.map((row, i) => (
                    <tr key={i}>
                      {result.columns.map((c, ci) => {
                        const value = row.values[c.id];
                        if (c.kind !== 'dimension') return <td key={c.id} className={c.kind === 'measure' ? 'text-end' : undefined}>{shown(value, c.format)}</td>;
                        if (c.id === 'vehicle' && vehicleRoute && row.keys.vehicle !== null) {
                          return <td key={c.id}><Link to={`${vehicleRoute}?open=${row.keys.vehicle}`} title={t('reports:screen.openVehicle')}>{String(value ?? '')}</Link></td>;
                        }
                        return (
                          <td key={c.id}>
                            {ci === 0 && !(grouping.length === 1 && grouping[0] === 'vehicle')
                              ? <Button variant="link" size="sm" className="p-0 text-start" title={t('reports:screen.behind')} onClick={() => behind(row.keys)}>{dimensionText(value, c.format)}</Button>
                              : dimensionText(value, c.format)}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr className="fw-bold">
                    {result.columns.map((c, ci) => (
                      <td key={c.id} className={c.kind === 'measure' ? 'text-end' : undefined}>
                        {ci === 0
                          ? (grouping.length === 1 && grouping[0] === 'vehicle'
                            ? totalLabel
                            : <Button variant="link" size="sm" className="p-0 fw-bold" title={t('reports:screen.behind')} onClick={() => behind({})}>{totalLabel}</Button>)
                          : c.kind === 'measure' ? shown(result.totals[c.id], c.format) : ''}
                      </td>
                    ))}
                  </tr>
                </tfoot>
              </Table>
            </div>
            <Pager offset={offset} limit={pageSize} shown={result.rows.length} total={result.rowCount} busy={loading} onPage={(next) => setPageAt({ query, offset: next })} />
          </>
        )}
      </div>
      {subscriptions && info && subscribing && (
        <SubscribeDialog decl={subscriptions} report={info} groupBy={grouping} filters={filters}
          onClose={(saved) => { setSubscribing(false); if (saved) setSubscribed((n) => n + 1); }} />
      )}
      {subscriptions && <SubscriptionList decl={subscriptions} version={subscribed} dimensionLabel={dimensionLabel} />}
    </section>
  );
}
