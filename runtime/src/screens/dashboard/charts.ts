/**
 * Pure parts of a dashboard chart: its categories and values from the endpoint's rows, the values
 * as text (axis, tooltip, the table beside the chart) and the chart.js configuration. chart.js
 * itself is not imported here (types only), so the screen's chunk does not carry it: the canvas
 * loads it when it draws (chart-setup.ts).
 */
import type { ChartConfiguration } from 'chart.js';
import type { Chart as ChartDecl } from '../../../core/generated/meta';
import { formatKm, formatMoney, formatMoneyShort, formatMonth, formatNumber, type Translate } from '../../format';

export type { ChartDecl };
export type ChartRow = Record<string, unknown>;
export type ValueFormat = NonNullable<ChartDecl['format']>;

/**
 * Series colours, each at least 3:1 against the white card (WCAG 1.4.11, graphics) and told apart
 * by the legend and the table as well as by colour.
 */
export const SERIES_COLOURS = ['#0a58ca', '#b35900', '#198754', '#6f42c1', '#ab296a'] as const;

const toNumber = (v: unknown): number | null => {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

/** The category of each row, as shown: a month as "sty 2026", anything else as it is. */
export function chartLabels(decl: Pick<ChartDecl, 'x' | 'xFormat'>, rows: readonly ChartRow[]): string[] {
  return rows.map((row) => {
    const value = row[decl.x];
    return (decl.xFormat === 'month' ? formatMonth(value) : null) ?? (value === null || value === undefined ? '' : String(value));
  });
}

/** A value as the tooltip and the table write it: money with grosze, km, a number; an empty value as a dash. */
export function valueText(format: ValueFormat | undefined, value: unknown): string {
  const text = format === 'money' ? formatMoney(value) : format === 'km' ? formatKm(value) : formatNumber(value);
  return text ?? '—';
}

/** A value on the axis: money without trailing zeros (12 000 zł, 1,25 zł: the axis has no room for ,00). */
export function tickText(format: ValueFormat | undefined, value: unknown): string {
  const n = toNumber(value);
  if (n === null) return '';
  if (format === 'money') return formatMoneyShort(n) ?? '';
  return format === 'km' ? (formatKm(n) ?? '') : (formatNumber(n) ?? '');
}

/** Longest category name written on an axis; the tooltip and the table give it whole. */
export const AXIS_LABEL_MAX = 22;

/** A category name short enough for the axis: cut with an ellipsis. */
export function axisLabel(label: unknown, max = AXIS_LABEL_MAX): string {
  const text = label === null || label === undefined ? '' : String(label);
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** The chart's data as a table: a row per category, a column per series (the screen-reader alternative). */
export function chartTable(decl: ChartDecl, rows: readonly ChartRow[], t: Translate): { head: string[]; body: string[][] } {
  const labels = chartLabels(decl, rows);
  return {
    head: [t(decl.xLabel), ...decl.series.map((s) => t(s.label))],
    body: rows.map((row, i) => [labels[i], ...decl.series.map((s) => valueText(decl.format, row[s.field]))]),
  };
}

export interface ChartOptions {
  /** prefers-reduced-motion: no animation. */
  reducedMotion?: boolean;
  /** The locale chart.js formats with where we do not (config.locale). */
  locale?: string;
}

/** The chart.js configuration of a declared chart over its rows. */
export function chartConfig(decl: ChartDecl, rows: readonly ChartRow[], t: Translate, options: ChartOptions = {}): ChartConfiguration<'bar' | 'line'> {
  const horizontal = decl.chart === 'bar' && decl.horizontal === true;
  const valueAxis = horizontal ? 'x' : 'y';
  const categoryAxis = horizontal ? 'y' : 'x';
  return {
    type: decl.chart,
    data: {
      labels: chartLabels(decl, rows),
      datasets: decl.series.map((series, i) => {
        const colour = SERIES_COLOURS[i % SERIES_COLOURS.length];
        return {
          label: t(series.label),
          data: rows.map((row) => toNumber(row[series.field])),
          backgroundColor: colour,
          borderColor: colour,
          borderWidth: decl.chart === 'line' ? 2 : 0,
          pointRadius: 3,
          tension: 0.2,
          maxBarThickness: 40,
        };
      }),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: options.reducedMotion ? false : undefined,
      locale: options.locale,
      indexAxis: horizontal ? 'y' : 'x',
      interaction: { mode: 'index', intersect: false },
      plugins: {
        legend: { display: decl.series.length > 1, position: 'bottom' },
        tooltip: {
          callbacks: {
            label: (item) => `${item.dataset.label ?? ''}: ${valueText(decl.format, (item.parsed as unknown as Record<string, unknown>)[valueAxis])}`,
          },
        },
      },
      scales: {
        [valueAxis]: { beginAtZero: true, ticks: { callback: (value: unknown) => tickText(decl.format, value) } },
        [categoryAxis]: {
          ticks: {
            autoSkip: true,
            maxRotation: 0,
            callback(this: { getLabelForValue(value: number): string }, value: unknown) {
              return axisLabel(this.getLabelForValue(Number(value)));
            },
          },
        },
      },
    },
  } as ChartConfiguration<'bar' | 'line'>;
}
