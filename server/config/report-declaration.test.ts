/**
 * What a report of each source may declare (issue 46): the check of the declarations and the
 * studio's Raporty tab use the same lists (runtime/core/report-choices.ts).
 */
import { describe, expect, it } from 'vitest';
import vehicleCost from '../../schemas/reports/vehicle-cost.json' with { type: 'json' };
import anomalies from '../../schemas/reports/fuel-anomalies.json' with { type: 'json' };
import { dimensionsOf, measuresOf } from '../../runtime/core/report-choices.ts';
import { reportProblems, type ReportDecl } from './report-declaration.ts';

describe('report declarations by source', () => {
  it('offers an anomalies report its own dimensions and measures, and the others theirs', () => {
    expect(dimensionsOf('anomalies')).toContain('rule');
    expect(dimensionsOf('anomalies')).not.toContain('fuelType');
    expect(dimensionsOf('costs')).not.toContain('explained');
    expect(measuresOf('anomalies')).toEqual(['anomalies', 'anomaliesOpen', 'anomaliesExplained']);
    expect(measuresOf('fuel')).not.toContain('anomaliesOpen');
    expect(measuresOf('costs')).toContain('costPerKm');
  });

  it('passes what its source allows and names each measure or dimension it does not', () => {
    const costs = vehicleCost as unknown as ReportDecl;
    expect(reportProblems(costs)).toEqual([]);
    expect(reportProblems(anomalies as unknown as ReportDecl)).toEqual([]);
    const wrong = { ...costs, measures: [...costs.measures, 'anomaliesOpen'], dimensions: [...costs.dimensions, 'rule'] } as ReportDecl;
    expect(reportProblems(wrong).map((p) => p.pointer)).toEqual([`/dimensions/${costs.dimensions.length}`, `/measures/${costs.measures.length}`]);
  });
});
