/**
 * What a report of each source may declare (issue 46, schemas/meta/report.schema.json): its
 * dimensions and measures, periods and chart types (the roles are the meta-schema's, read by the
 * studio from it: roles are configuration, not code). One place for the check of the
 * declarations (server/config/report-declaration.ts) and for the studio's Raporty tab, which
 * offers only these.
 */
import type { ReportFile } from './generated/meta.ts';

export type ReportSource = ReportFile['source'];
export type ReportDimension = ReportFile['dimensions'][number];
export type ReportMeasure = ReportFile['measures'][number];
export type ReportPeriod = ReportFile['defaults']['period'];
export type ChartType = NonNullable<ReportFile['chart']>['type'];

/** Every value of the meta-schema's enums, in the order the studio offers them (a missing one fails to compile). */
const every = <T extends string>() => <const L extends readonly T[]>(list: L & ([T] extends [L[number]] ? unknown : never)) => list;
export const DIMENSIONS = every<ReportDimension>()(['vehicle', 'client', 'mpk', 'unit', 'month', 'category', 'fuelType', 'driver', 'rule', 'explained']);
export const MEASURES = every<ReportMeasure>()(['costNet', 'costGross', 'km', 'costPerKm', 'litres', 'l100', 'co2', 'anomalies', 'anomaliesOpen', 'anomaliesExplained']);
export const PERIODS = every<ReportPeriod>()(['thisMonth', 'lastMonth', 'quarter', 'year']);
export const CHART_TYPES = every<ChartType>()(['bar', 'line', 'doughnut']);

/** The dimensions and measures of an anomalies report only. */
export const ANOMALY_DIMENSIONS: readonly ReportDimension[] = ['rule', 'explained'];
export const ANOMALY_MEASURES: readonly ReportMeasure[] = ['anomalies', 'anomaliesOpen', 'anomaliesExplained'];
/** What an anomalies report does not have (it counts anomalies, not costs by category or fuel). */
const NOT_OF_ANOMALIES: readonly ReportDimension[] = ['category', 'fuelType'];

/** The dimensions a report of a source may be grouped and filtered by. */
export function dimensionsOf(source: ReportSource): ReportDimension[] {
  return source === 'anomalies'
    ? DIMENSIONS.filter((d) => !NOT_OF_ANOMALIES.includes(d))
    : DIMENSIONS.filter((d) => !ANOMALY_DIMENSIONS.includes(d));
}

/** The measures a report of a source may show. */
export function measuresOf(source: ReportSource): ReportMeasure[] {
  return MEASURES.filter((m) => (source === 'anomalies') === ANOMALY_MEASURES.includes(m));
}
