import { describe, expect, it } from 'vitest';
import { axisLabel, chartConfig, chartLabels, chartTable, SERIES_COLOURS, tickText, valueText, type ChartDecl } from './charts';

const texts: Record<string, string> = { 'dashboard:charts.month': 'Miesiąc', 'dashboard:charts.netto': 'Netto', 'dashboard:charts.brutto': 'Brutto' };
const t = (key: string) => texts[key] ?? key;
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

const costs: ChartDecl = {
  id: 'costs', title: 'dashboard:charts.costsPerMonth', endpoint: '/cockpit/costs-per-month', chart: 'bar',
  x: 'month', xFormat: 'month', xLabel: 'dashboard:charts.month', format: 'money',
  series: [{ field: 'netto', label: 'dashboard:charts.netto' }, { field: 'brutto', label: 'dashboard:charts.brutto' }],
};
const rows = [
  { month: '2026-01', netto: 12000.5, brutto: 14760.62 },
  { month: '2026-02', netto: 0, brutto: null },
];

describe('a dashboard chart', () => {
  it('names months the Polish way and other categories as they are', () => {
    expect(chartLabels(costs, rows)).toEqual(['sty 2026', 'lut 2026']);
    expect(chartLabels({ x: 'label' }, [{ label: 'Zaakceptowane' }, { label: null }])).toEqual(['Zaakceptowane', '']);
    expect(chartLabels({ x: 'month', xFormat: 'month' }, [{ month: 'bad' }])).toEqual(['bad']);
  });

  it('writes values in Polish notation: money, km, numbers; an empty value as a dash', () => {
    expect(plain(valueText('money', 12000.5))).toBe('12 000,50 zł');
    expect(plain(valueText('km', 15300))).toBe('15 300 km');
    expect(valueText('number', 7)).toBe('7');
    expect(valueText('money', null)).toBe('—');
    expect(plain(tickText('money', 12000))).toBe('12 000 zł');
    expect(plain(tickText('money', 1.25))).toBe('1,25 zł');
    expect(tickText('number', 'x')).toBe('');
  });

  it('never cuts a category name on the axis: a long one is broken into lines at spaces, fewer on a wider chart', () => {
    expect(axisLabel('Oczekuje na akceptację Fleet Managera', 17)).toEqual(['Oczekuje na', 'akceptację Fleet', 'Managera']);
    expect(axisLabel('Oczekuje na akceptację Fleet Managera', 28)).toEqual(['Oczekuje na akceptację Fleet', 'Managera']);
    expect(axisLabel('Zamknięte')).toBe('Zamknięte');
    expect(axisLabel('Bardzodługiesłowobezspacji', 10)).toBe('Bardzodługiesłowobezspacji');
    expect(axisLabel(null)).toBe('');
    const perStatus: ChartDecl = { ...costs, id: 'st', chart: 'bar', horizontal: true, x: 'label', xFormat: 'text' };
    const options = chartConfig(perStatus, [{ label: 'Oczekuje na akceptację Fleet Managera' }], t).options as any;
    const at = (width: number) => ({ chart: { width }, getLabelForValue: (i: number) => ['Oczekuje na akceptację Fleet Managera'][i] });
    const narrow = options.scales.y.ticks.callback.call(at(300), 0);
    const wide = options.scales.y.ticks.callback.call(at(520), 0);
    expect(narrow.join(' ')).toBe('Oczekuje na akceptację Fleet Managera');
    expect(wide.join(' ')).toBe('Oczekuje na akceptację Fleet Managera');
    expect(narrow.length).toBeGreaterThan(wide.length);
  });

  it('names and draws the month not over yet as partial: its label everywhere, a paler bar, a dashed line to a hollow point', () => {
    const partialTexts: Record<string, string> = { ...texts, 'dashboard:charts.partialMonth': '{{label}} (do dziś)' };
    const tp = (key: string, vars: Record<string, unknown> = {}) => (partialTexts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k] ?? ''));
    const marked: ChartDecl = { ...costs, partial: { field: 'partial', label: 'dashboard:charts.partialMonth' } };
    const months = [{ month: '2026-10', netto: 100, brutto: 123, partial: false }, { month: '2026-11', netto: 20, brutto: 24.6, partial: true }];
    expect(chartLabels(marked, months, tp)).toEqual(['paź 2026', 'lis 2026 (do dziś)']);
    expect(chartTable(marked, months, tp).body.map((r) => r[0])).toEqual(['paź 2026', 'lis 2026 (do dziś)']);
    const bars = chartConfig(marked, months, tp).data.datasets[0] as any;
    expect(bars.backgroundColor).toEqual([SERIES_COLOURS[0], `${SERIES_COLOURS[0]}33`]);
    expect(bars.borderWidth).toEqual([0, 2]);
    const line = chartConfig({ ...marked, chart: 'line', series: [{ field: 'netto', label: 'x:km' }] }, months, tp).data.datasets[0] as any;
    expect(line.pointBackgroundColor).toEqual([SERIES_COLOURS[0], '#fff']);
    expect(line.segment.borderDash({ p1DataIndex: 1 })).toEqual([6, 4]);
    expect(line.segment.borderDash({ p1DataIndex: 0 })).toBeUndefined();
    // a chart without partial rows is drawn as before
    expect((chartConfig(costs, rows, t).data.datasets[0] as any).backgroundColor).toBe(SERIES_COLOURS[0]);
  });

  it('gives its data as a table: a row per category, a column per series', () => {
    const table = chartTable(costs, rows, t);
    expect(table.head).toEqual(['Miesiąc', 'Netto', 'Brutto']);
    expect(table.body.map((r) => r.map(plain))).toEqual([
      ['sty 2026', '12 000,50 zł', '14 760,62 zł'],
      ['lut 2026', '0,00 zł', '—'],
    ]);
  });

  it('configures chart.js: one dataset per series in its colour, a legend only for several, Polish ticks and tooltips', () => {
    const config = chartConfig(costs, rows, t, { reducedMotion: true, locale: 'pl-PL' });
    expect(config.type).toBe('bar');
    expect(config.data.labels).toEqual(['sty 2026', 'lut 2026']);
    expect(config.data.datasets.map((d) => [d.label, d.data, d.backgroundColor])).toEqual([
      ['Netto', [12000.5, 0], SERIES_COLOURS[0]],
      ['Brutto', [14760.62, null], SERIES_COLOURS[1]],
    ]);
    const options = config.options as any;
    expect(options.animation).toBe(false);
    expect(options.plugins.legend.display).toBe(true);
    expect(plain(options.scales.y.ticks.callback(2500))).toBe('2500 zł');
    expect(plain(options.plugins.tooltip.callbacks.label({ dataset: { label: 'Netto' }, parsed: { x: 0, y: 12000.5 } }))).toBe('Netto: 12 000,50 zł');
  });

  it('draws bars across for long labels, with the values on the x axis', () => {
    const perKm: ChartDecl = {
      id: 'perKm', title: 'x:y', endpoint: '/cockpit/cost-per-km', chart: 'bar', horizontal: true, x: 'rejestr', xLabel: 'x:v', format: 'money',
      series: [{ field: 'costPerKm', label: 'x:s' }],
    };
    const options = chartConfig(perKm, [{ rejestr: 'WX 1', costPerKm: 1.25 }], t).options as any;
    expect(options.indexAxis).toBe('y');
    expect(options.plugins.legend.display).toBe(false);
    expect(options.scales.x.beginAtZero).toBe(true);
    // the values' labels keep a gap: on a narrow chart some are left out, none run together
    expect(options.scales.x.ticks).toMatchObject({ autoSkipPadding: 16, maxRotation: 0 });
    expect(options.plugins.tooltip.callbacks.label({ dataset: { label: 'Koszt' }, parsed: { x: 1.25, y: 0 } })).toMatch(/^Koszt: 1,25/);
  });
});
