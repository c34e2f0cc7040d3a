/**
 * The cockpit (issue 24) of an ADMIN (every row: 100 000 vehicles, a million orders) and of a
 * MANAGER (one client's third): what the Pulpit asks when it opens — the counts of every reminder
 * rule, and the first page of items, most urgent first. Targets of the issue: p95 ≤ 100 ms for the
 * ADMIN, ≤ 50 ms for the MANAGER, each within 2× the same SQL run directly.
 */
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

const COUNTS_MISS = 'The counts add up reminder_count\'s sums per rule, client and days (an ADMIN\'s and a MANAGER\'s scopes); a miss means those sums grew (many distinct due days) or the read had vehicles to refresh first (reminder_dirty after a bulk write): see docs/decisions.md "Reminders".';
const ITEMS_MISS = 'The first page reads each urgency in due-day order from reminder_due\'s order index and stops at the page; a miss means the planner sorted the urgency instead (check the plan of the page query) or the read refreshed vehicles first.';

interface Summary {
  rules: { id: string; total: number }[];
}

export function cockpitMeasurements(api: Api, callers: { label: string; token: string; p95Ms: number }[]): Measurement[] {
  const out: Measurement[] = [];
  for (const { label, token, p95Ms } of callers) {
    const section = `Cockpit (reminders), ${label}`;
    const target = { p95Ms, maxRatio: 2 };
    // the SQL of a cockpit read: the refresh check, the counts from the sums, the page from the rows
    const capture = /\bfrom "reminder_(dirty|count|due)"/;
    out.push({
      section, name: 'counts of every rule by urgency (GET /reminders)', target, capture,
      call: () => api.get<Summary>('/reminders', token),
      check: (answer: Summary) => {
        if (!answer.rules.length || answer.rules.every((r) => r.total === 0)) throw new Error('the cockpit counted nothing');
      },
      whenMissed: COUNTS_MISS,
    });
    out.push({
      section, name: 'first page of items, most urgent first (GET /reminders/items)', target, capture,
      call: () => api.get<{ items: unknown[] }>('/reminders/items?limit=20', token),
      check: (answer: { items: unknown[] }) => {
        if (answer.items.length === 0) throw new Error('no items on the first page');
      },
      whenMissed: ITEMS_MISS,
    });
  }
  return out;
}
