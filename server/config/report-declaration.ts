/**
 * Report declarations (issue 46): schemas/reports/<id>.json (meta-schema schemas/meta/report.schema.json)
 * and schemas/reporting/reporting.json (meta/reporting). The shapes come from the meta-schemas
 * (runtime/core/generated/meta.ts); this module adds what the meta-schema cannot say.
 */
import type { ReportFile, ReportingFile } from '../../runtime/core/generated/meta.ts';
import { ANOMALY_DIMENSIONS, ANOMALY_MEASURES, dimensionsOf, measuresOf } from '../../runtime/core/report-choices.ts';

export type ReportDecl = ReportFile;
export type ReportingDecl = ReportingFile;
export type Dimension = ReportDecl['dimensions'][number];
export type Measure = ReportDecl['measures'][number];

export { ANOMALY_DIMENSIONS, ANOMALY_MEASURES };

/** Problems beyond the meta-schema: defaults and filters must be among the report's dimensions. */
export function reportProblems(decl: ReportDecl): { pointer: string; reason: string }[] {
  const problems: { pointer: string; reason: string }[] = [];
  decl.defaults.groupBy.forEach((d, i) => {
    if (!decl.dimensions.includes(d)) problems.push({ pointer: `/defaults/groupBy/${i}`, reason: `"${d}" is not among /dimensions` });
  });
  (decl.filters ?? []).forEach((d, i) => {
    if (!decl.dimensions.includes(d)) problems.push({ pointer: `/filters/${i}`, reason: `"${d}" is not among /dimensions` });
  });
  if (decl.chart && !decl.measures.includes(decl.chart.measure)) problems.push({ pointer: '/chart/measure', reason: `"${decl.chart.measure}" is not among /measures` });
  if (decl.pivot && decl.source !== 'costs') problems.push({ pointer: '/pivot', reason: 'only a costs report has categories' });
  // an anomalies report counts anomalies by their own dimensions; the others have neither (runtime/core/report-choices.ts)
  const anomalies = decl.source === 'anomalies';
  const dimensions = dimensionsOf(decl.source);
  const measures = measuresOf(decl.source);
  decl.dimensions.forEach((d, i) => {
    if (!dimensions.includes(d)) problems.push({ pointer: `/dimensions/${i}`, reason: anomalies ? `an anomalies report has no "${d}"` : `"${d}" is of an anomalies report only` });
  });
  decl.measures.forEach((m, i) => {
    if (!measures.includes(m)) problems.push({ pointer: `/measures/${i}`, reason: anomalies ? `an anomalies report counts anomalies, not "${m}"` : `"${m}" is of an anomalies report only` });
  });
  if (anomalies && decl.range) problems.push({ pointer: '/range', reason: 'an anomalies report has no consumption range' });
  return problems;
}
