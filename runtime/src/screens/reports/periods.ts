/**
 * The periods the Raporty screen offers (issue 46), as the first and last day (YYYY-MM-DD) in the
 * portal's calendar: this month (to today), last month, this quarter (to today), this year (to
 * today). Pure: `today` is handed in.
 */
export type PeriodId = 'thisMonth' | 'lastMonth' | 'quarter' | 'year' | 'custom';

const iso = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
const lastDay = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

export function periodRange(period: Exclude<PeriodId, 'custom'>, today: string): { from: string; to: string } {
  const [y, m] = today.split('-').map(Number);
  switch (period) {
    case 'thisMonth': return { from: iso(y, m, 1), to: today };
    case 'lastMonth': {
      const [py, pm] = m === 1 ? [y - 1, 12] : [y, m - 1];
      return { from: iso(py, pm, 1), to: iso(py, pm, lastDay(py, pm)) };
    }
    case 'quarter': return { from: iso(y, Math.floor((m - 1) / 3) * 3 + 1, 1), to: today };
    case 'year': return { from: iso(y, 1, 1), to: today };
  }
}
