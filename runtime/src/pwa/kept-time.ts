/**
 * When the answers shown offline came (issue 47): "12:04" on the day they came, "02.12.2026 12:04"
 * after it — in the portal's configured zone and format (format.ts), never the phone's.
 */
import { formatDate, formatDateTime } from '../format';

export function keptTime(at: number, now: number = Date.now()): string {
  const when = new Date(at);
  const full = formatDateTime(when) ?? '';
  return formatDate(when) === formatDate(new Date(now)) ? full.slice(full.indexOf(' ') + 1) : full;
}
