/**
 * Reports (issue 46): a month of the vehicle-cost report (cost lines, fuel transactions and the
 * kilometres interpolated from the readings, per vehicle) and a year of CO2 per month and fuel
 * type, for an ADMIN (every vehicle) and a MANAGER (one client). Not yet measured (docs/decisions.md
 * "Reports (issue 46)"): the targets are a first guess, p95 ≤ 500 ms for the ADMIN, ≤ 200 ms for the MANAGER.
 */
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

const MISS = 'A run reads invoice_line by (pojazdId, okres), fuel_transaction by (pojazdId, data) and two readings per vehicle and month end by (pojazdId, data) (migration 034); a miss over many vehicles means the kilometres need a per-vehicle-and-month aggregate kept by triggers (as vehicle_mileage is), see docs/decisions.md "Reports (issue 46)".';

interface Result { rows: unknown[]; totals: Record<string, number | null> }

export function reportMeasurements(api: Api, callers: { label: string; token: string; p95Ms: number }[], today = new Date()): Measurement[] {
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  const monthStart = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1));
  const monthEnd = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0));
  const yearStart = new Date(Date.UTC(today.getUTCFullYear(), 0, 1));
  const out: Measurement[] = [];
  for (const { label, token, p95Ms } of callers) {
    const section = `Reports, ${label}`;
    const target = { p95Ms, maxRatio: 2 };
    const capture = /\bfrom \(select l\."pojazdId"|\bfrom \(select t\."pojazdId"/;
    out.push({
      section, name: 'vehicle-cost of last month, per vehicle (POST /reports/vehicle-cost/run)', target, capture,
      call: () => api.post<Result>('/reports/vehicle-cost/run', { from: iso(monthStart), to: iso(monthEnd) }, token),
      check: (answer: Result) => { if (!Array.isArray(answer.rows)) throw new Error('no rows'); },
      whenMissed: MISS,
    });
    out.push({
      section, name: 'co2-emissions of the year, per month and fuel type (POST /reports/co2-emissions/run)', target, capture,
      call: () => api.post<Result>('/reports/co2-emissions/run', { from: iso(yearStart), to: iso(today) }, token),
      check: (answer: Result) => { if (!Array.isArray(answer.rows)) throw new Error('no rows'); },
      whenMissed: MISS,
    });
  }
  return out;
}
