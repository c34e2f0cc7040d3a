/**
 * The charts of a dashboard: each reads its endpoint ({ rows }), draws on a canvas (chart.js, a
 * chunk loaded when the first chart draws: chart-setup.ts) and carries its data as a table, hidden
 * to the eye but read by screen readers, shown on request. No data: the empty state.
 */
import { useEffect, useId, useMemo, useRef, useState, type CSSProperties } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useTranslation } from '../../config/texts';
import type { ChartsSection as ChartsSectionDecl } from '../../../core/generated/meta';
import { useConfig } from '../../config/ConfigContext';
import { useConditionContext } from '../../config/useConditionContext';
import { useMediaQuery } from '../../shell/useMediaQuery';
import { axisLabel, chartConfig, chartLabels, chartTable, isPartial, lineLength, type ChartDecl, type ChartRow } from './charts';

/** The most lines a category name takes beside bars across on a phone (about 300 px of chart). */
const phoneLines = (decl: ChartDecl, rows: ChartRow[]) =>
  Math.max(1, ...chartLabels(decl, rows).map((label) => [axisLabel(label, lineLength(300, true))].flat().length));
import { DataState, Heading, type HeadingLevel, SectionFrame } from './parts';
import { useGet } from './useGet';

/** Draws the configured chart; chart.js arrives with the first chart drawn. */
function ChartCanvas({ decl, rows }: { decl: ChartDecl; rows: ChartRow[] }) {
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const canvas = useRef<HTMLCanvasElement>(null);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [failed, setFailed] = useState(false);
  const locale = typeof bundle.config.locale === 'string' ? bundle.config.locale : undefined;
  useEffect(() => {
    let chart: { destroy(): void } | undefined;
    let cancelled = false;
    import('./chart-setup')
      .then(({ Chart }) => {
        if (cancelled || !canvas.current) return;
        chart = new Chart(canvas.current, chartConfig(decl, rows, t, { reducedMotion, locale }));
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [decl, rows, t, reducedMotion, locale]);
  // the table beside it says the same to everyone; a canvas that could not be drawn leaves the table shown
  if (failed) return null;
  // bars across: the height grows with the categories and with the lines their names take on a phone
  const style = decl.horizontal ? ({ '--chart-rows': rows.length, '--chart-lines': phoneLines(decl, rows) } as CSSProperties) : undefined;
  return (
    <div className={`chart-canvas${decl.horizontal ? ' chart-canvas--tall' : ''}`} style={style}>
      <canvas ref={canvas} aria-hidden="true" />
    </div>
  );
}

function ChartCard({ decl, level, version }: { decl: ChartDecl; level: HeadingLevel; version: number }) {
  const { t } = useTranslation();
  const tableId = useId();
  const headingId = useId();
  const [tableShown, setTableShown] = useState(false);
  const state = useGet<{ rows: ChartRow[] }>(decl.endpoint, version);
  const rows = useMemo(() => state.data?.rows ?? [], [state.data]);
  const table = useMemo(() => chartTable(decl, rows, t), [decl, rows, t]);
  const title = t(decl.title);
  return (
    <figure className="chart-card dashboard-card mb-0" data-chart={decl.id} aria-labelledby={headingId}>
      <div className="chart-card-head">
        <Heading level={level} id={headingId} className="chart-title">{title}</Heading>
        {rows.length > 0 && (
          <Button variant="link" size="sm" className="p-0" aria-controls={tableId} aria-pressed={tableShown} onClick={() => setTableShown((v) => !v)}>
            {t(tableShown ? 'dashboard:charts.hideTable' : 'dashboard:charts.showTable')}
          </Button>
        )}
      </div>
      <div aria-busy={state.loading}>
        <DataState loading={state.loading} error={state.error} hasData={state.data !== null} empty={state.data !== null && rows.length === 0} emptyText={t('dashboard:charts.empty')} />
        {rows.length > 0 && <ChartCanvas decl={decl} rows={rows} />}
        {decl.partial?.note && rows.some((row) => isPartial(decl, row)) && <p className="chart-note">{t(decl.partial.note)}</p>}
        {rows.length > 0 && (
          <div id={tableId} className={tableShown ? 'chart-table' : 'visually-hidden'}>
            <Table size="sm" striped className="mb-0">
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  {table.head.map((h, i) => (
                    <th key={i} scope="col" className={i ? 'text-end' : undefined}>{h}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.body.map((cells, r) => (
                  <tr key={r}>
                    {cells.map((c, i) =>
                      i === 0 ? <th key={i} scope="row" className="fw-normal">{c}</th> : <td key={i} className="text-end text-nowrap">{c}</td>,
                    )}
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        )}
      </div>
    </figure>
  );
}

export function ChartsSection({ section, level, version }: { section: ChartsSectionDecl; level: HeadingLevel; version: number }) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  const charts = section.charts.filter((c) => conditions.isVisible(c, ctx));
  const title = section.title ? t(section.title) : undefined;
  if (!charts.length) return null;
  return (
    <SectionFrame id={section.id} kind="charts" title={title} level={level} headingId={`dashboard-${section.id}`} plain>
      <div className="chart-grid">
        {charts.map((chart) => (
          <ChartCard key={chart.id} decl={chart} level={(title ? Math.min(level + 1, 4) : level) as HeadingLevel} version={version} />
        ))}
      </div>
    </SectionFrame>
  );
}
