/**
 * Raporty (issue 46): the reports the caller may run (GET /api/reports), a period, a grouping and
 * the filters a drill-down set; a chart (chart.js, the dashboard's chunk) and a table with totals.
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
import { formatKm, formatLitres, formatMoney, formatNumber } from '../../format';
import { formatSettings } from '../../format-settings';
import { useGet } from '../dashboard/useGet';
import type { ScreenProps } from '../types';
import { periodRange, type PeriodId } from './periods';
import { SubscribeDialog, SubscriptionList, type SubscriptionsDecl } from './Subscriptions';
import './reports.css';

interface ReportInfo {
  id: string; label: string;
  dimensions: { id: string; label: string }[];
  measures: { id: string; label: string }[];
  filters: string[];
  defaults: { period: string; groupBy: string[] };
  chart?: { type: 'bar' | 'line' | 'doughnut'; measure: string; stacked?: boolean };
}
interface Column { id: string; label: string; kind: 'dimension' | 'measure' | 'range'; format?: string }
interface Result { columns: Column[]; rows: { keys: Record<string, string | number | null>; values: Record<string, string | number | null> }[]; totals: Record<string, number | null> }
type Filters = Record<string, (string | number)[]>;

/** Today in the configured zone (format-settings.ts), as YYYY-MM-DD. */
function todayIn(timeZone: string = formatSettings().timeZone): string {
  return new Date().toLocaleDateString('sv-SE', { timeZone });
}

function shown(value: unknown, format: string | undefined): string {
  if (value === null || value === undefined) return '–';
  if (format === 'money') return formatMoney(value) ?? '';
  if (format === 'km') return formatKm(value) ?? '';
  if (format === 'litres') return formatLitres(value) ?? '';
  if (format === 'ratio' || format === 'kg') return formatNumber(value) ?? '';
  return String(value);
}

function ReportChart({ info, result }: { info: ReportInfo; result: Result }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const chartDecl = info.chart;
    if (!chartDecl || !canvas.current) return;
    let chart: { destroy(): void } | undefined;
    let cancelled = false;
    const dims = result.columns.filter((c) => c.kind === 'dimension');
    const measure = result.columns.find((c) => c.id === chartDecl.measure);
    if (!measure || dims.length === 0) return;
    const [first, second] = dims;
    const labels = [...new Set(result.rows.map((r) => String(r.values[first.id] ?? '')))];
    const series = second ? [...new Set(result.rows.map((r) => String(r.values[second.id] ?? '')))] : [measure.label];
    const palette = ['#0d6efd', '#198754', '#fd7e14', '#6f42c1', '#d63384', '#20c997', '#ffc107', '#6c757d'];
    const datasets = series.map((s, i) => ({
      label: s, backgroundColor: palette[i % palette.length], borderColor: palette[i % palette.length],
      data: labels.map((l) => {
        const row = result.rows.find((r) => String(r.values[first.id] ?? '') === l && (!second || String(r.values[second.id] ?? '') === s));
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
  }, [info, result]);
  if (!info.chart) return null;
  return <div className="report-chart"><canvas ref={canvas} aria-hidden="true" /></div>;
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
  const subscriptions = screen.subscriptions as SubscriptionsDecl | undefined;
  const [subscribing, setSubscribing] = useState(false);
  const [subscribed, setSubscribed] = useState(0);

  const chosenPeriod = period ?? ((info?.defaults.period as PeriodId) || periods[0]);
  const range = chosenPeriod === 'custom' ? custom : periodRange(chosenPeriod, today);
  const grouping = groupBy ? [groupBy] : info?.defaults.groupBy ?? [];

  useEffect(() => {
    if (!info) return;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    api.post<Result>(`/reports/${info.id}/run${asked}`, { from: range.from, to: range.to, groupBy: grouping, filters }, { signal: controller.signal })
      .then((r) => { setResult(r); setLoading(false); })
      .catch((e) => { if (!controller.signal.aborted) { setError(errorText(e)); setResult(null); setLoading(false); } });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [info?.id, range.from, range.to, grouping.join(','), JSON.stringify(filters)]);

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
      const blob = await api.post<Blob>(`/reports/${info.id}/export${asked}`, { from: range.from, to: range.to, groupBy: grouping, filters, format }, { responseType: 'blob' });
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

  return (
    <section className="reports-screen" aria-labelledby={`${ids.report}-title`}>
      <h1 id={`${ids.report}-title`} className="h3">{t(screen.title)}</h1>
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
                <Form.Control type="date" value={custom.from} onChange={(e) => setCustom((c) => ({ ...c, from: e.target.value }))} />
              </Form.Group>
              <Form.Group controlId={ids.to}>
                <Form.Label>{t('reports:screen.to')}</Form.Label>
                <Form.Control type="date" value={custom.to} onChange={(e) => setCustom((c) => ({ ...c, to: e.target.value }))} />
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
                  <tr>{result.columns.map((c) => <th key={c.id} scope="col" className={c.kind === 'measure' ? 'text-end' : undefined}>{c.label}</th>)}</tr>
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
                              ? <Button variant="link" size="sm" className="p-0 text-start" title={t('reports:screen.behind')} onClick={() => behind(row.keys)}>{String(value ?? '')}</Button>
                              : String(value ?? '')}
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
                            ? t('reports:screen.total')
                            : <Button variant="link" size="sm" className="p-0 fw-bold" title={t('reports:screen.behind')} onClick={() => behind({})}>{t('reports:screen.total')}</Button>)
                          : c.kind === 'measure' ? shown(result.totals[c.id], c.format) : ''}
                      </td>
                    ))}
                  </tr>
                </tfoot>
              </Table>
            </div>
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
