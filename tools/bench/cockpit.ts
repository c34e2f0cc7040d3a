/**
 * The cockpit (issue 24) of an ADMIN (every row: 100 000 vehicles, a million orders) and of a
 * MANAGER (one client's third): what the Pulpit asks when it opens — the counts of every reminder
 * rule, and the first page of items, most urgent first. Targets of the issue: p95 ≤ 100 ms for the
 * ADMIN, ≤ 50 ms for the MANAGER, each within 2× the same SQL run directly.
 */
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

interface Summary {
  rules: { id: string; total: number }[];
}

export function cockpitMeasurements(api: Api, callers: { label: string; token: string; p95Ms: number }[]): Measurement[] {
  const out: Measurement[] = [];
  for (const { label, token, p95Ms } of callers) {
    const section = `Cockpit (reminders), ${label}`;
    const target = { p95Ms, maxRatio: 2 };
    out.push({
      section, name: 'counts of every rule by urgency (GET /reminders)', target,
      call: () => api.get<Summary>('/reminders', token),
      check: (answer: Summary) => {
        if (!answer.rules.length || answer.rules.every((r) => r.total === 0)) throw new Error('the cockpit counted nothing');
      },
      whenMissed: 'The counts run every rule over the caller\'s rows in one statement: the date rules by index range scans, the distance and projection rules over every vehicle with their values (joined to vehicle_mileage), so an administrator\'s count grows with the fleet.',
    });
    out.push({
      section, name: 'first page of items, most urgent first (GET /reminders/items)', target,
      call: () => api.get<{ items: unknown[] }>('/reminders/items?limit=20', token),
      check: (answer: { items: unknown[] }) => {
        if (answer.items.length === 0) throw new Error('no items on the first page');
      },
    });
  }
  return out;
}
