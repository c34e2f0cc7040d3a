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

/** Whether a row is a partial one (the current month, not over yet: the chart's `partial.field`). */
export const isPartial = (decl: Pick<ChartDecl, 'partial'>, row: ChartRow | undefined) => Boolean(decl.partial && row?.[decl.partial.field] === true);

/**
 * The category of each row, as shown: a month as "sty 2026", anything else as it is; a partial
 * row named as the chart declares ("lis 2026 (do dziś)").
 */
export function chartLabels(decl: Pick<ChartDecl, 'x' | 'xFormat' | 'partial'>, rows: readonly ChartRow[], t?: Translate): string[] {
  return rows.map((row) => {
    const value = row[decl.x];
    const label = (decl.xFormat === 'month' ? formatMonth(value) : null) ?? (value === null || value === undefined ? '' : String(value));
    return t && decl.partial && isPartial(decl, row) ? t(decl.partial.label, { label }) : label;
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

/** Characters of a category name a line holds: about a third of the chart's width beside horizontal bars, a short line under columns. */
export function lineLength(chartWidth: number, horizontal: boolean): number {
  if (!horizontal) return 12;
  return Math.min(28, Math.max(10, Math.round((chartWidth * 0.36) / 6.5)));
}

/**
 * A category name on the axis, whole: broken into lines at spaces so that no line is much longer
 * than `max` (a word longer than a line keeps its own line); never cut, so "Oczekuje na akceptację
 * Fleet Managera" reads in full at every width.
 */
export function axisLabel(label: unknown, max = 22): string | string[] {
  const text = label === null || label === undefined ? '' : String(label);
  if (text.length <= max) return text;
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last].length + 1 + word.length <= max) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length > 1 ? lines : text;
}

/** The chart's data as a table: a row per category, a column per series (the screen-reader alternative). */
export function chartTable(decl: ChartDecl, rows: readonly ChartRow[], t: Translate): { head: string[]; body: string[][] } {
  const labels = chartLabels(decl, rows, t);
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
      labels: chartLabels(decl, rows, t),
      datasets: decl.series.map((series, i) => {
        const colour = SERIES_COLOURS[i % SERIES_COLOURS.length];
        // a partial row (the month so far) is drawn lighter: an outlined bar, a dashed line to a hollow point
        const partial = rows.map((row) => isPartial(decl, row));
        const any = partial.some(Boolean);
        return {
          label: t(series.label),
          data: rows.map((row) => toNumber(row[series.field])),
          backgroundColor: decl.chart === 'bar' && any ? partial.map((p) => (p ? `${colour}33` : colour)) : colour,
          borderColor: colour,
          borderWidth: decl.chart === 'line' ? 2 : any ? partial.map((p) => (p ? 2 : 0)) : 0,
          ...(decl.chart === 'line' && any
            ? {
                pointBackgroundColor: partial.map((p) => (p ? '#fff' : colour)),
                segment: { borderDash: (ctx: { p1DataIndex: number }) => (partial[ctx.p1DataIndex] ? [6, 4] : undefined) },
              }
            : {}),
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
        // values with their unit ("0,04 zł") need room between them: on a phone's narrow chart every
        // other one is left out rather than the labels run together (chart.js's own gap is 3 px)
        [valueAxis]: { beginAtZero: true, ticks: { autoSkipPadding: 16, maxRotation: 0, callback: (value: unknown) => tickText(decl.format, value) } },
        [categoryAxis]: {
          ticks: {
            // beside bars across every category keeps its name (the height grows with them: ChartsSection);
            // under columns the months thin out on a narrow chart
            autoSkip: !horizontal,
            maxRotation: 0,
            callback(this: { getLabelForValue(value: number): string; chart?: { width: number } }, value: unknown) {
              return axisLabel(this.getLabelForValue(Number(value)), lineLength(this.chart?.width ?? 600, horizontal));
            },
          },
        },
      },
    },
  } as ChartConfiguration<'bar' | 'line'>;
}
