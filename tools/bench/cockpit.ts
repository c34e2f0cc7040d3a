/**
 * The cockpit (issue 24) of an ADMIN (every row: 100 000 vehicles, a million orders) and of a
 * MANAGER (one client's third): what the Pulpit asks when it opens — the counts of every reminder
 * rule, and the first page of items, most urgent first. Targets of the issue: p95 ≤ 100 ms for the
 * ADMIN, ≤ 50 ms for the MANAGER, each within 2× the same SQL run directly.
 */
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

const COUNTS_MISS = 'The API adds nothing (ratio 1.0): the SQL is the cost. The counts compute every rule over every row of the caller\'s scope that could be due, at request time: at bench size half of the 125 000 active contracts are projected near or over their limit (each projection reads the vehicle and its readings\' summary), tens of thousands of orders await acceptance, every date rule scans the vehicles (a seq scan: 10–15 % of them fall in the window), and 17 rules add up. Meeting 100 ms / 50 ms needs the items kept rather than computed: a table of due items per rule and record, written with the record\'s own writes and by a nightly pass for the day\'s change (docs/decisions.md "Reminders", left for the next issue).';
const ITEMS_MISS = 'The first page sorts every due item of every rule by urgency and day (the same work as the counts, plus the sort and a second pass for the total). Kept due items (see the counts) would make it an index range scan.';

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
      whenMissed: COUNTS_MISS,
    });
    out.push({
      section, name: 'first page of items, most urgent first (GET /reminders/items)', target,
      call: () => api.get<{ items: unknown[] }>('/reminders/items?limit=20', token),
      check: (answer: { items: unknown[] }) => {
        if (answer.items.length === 0) throw new Error('no items on the first page');
      },
      whenMissed: ITEMS_MISS,
    });
  }
  return out;
}
