/**
 * What the bell says, as pure functions: the badge (99+ beyond 99) and when a notification came,
 * relative while it is recent ("5 min temu", "2 godz. temu") and the Polish date-time after a day.
 * The words are the locales' (notifications:bell.*); the clock is handed in, so tests fix it.
 */
import { formatDateTime, type Translate } from '../../format';

/** The badge's text; null hides the badge (nothing unread, or the count not known yet). */
export function badgeText(unread: number | null | undefined): string | null {
  if (!unread || unread < 0) return null;
  return unread > 99 ? '99+' : String(unread);
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** When it came: "przed chwilą", "N min temu", "N godz. temu", then DD.MM.YYYY HH:mm. */
export function whenText(createdAt: string, now: number, t: Translate): string {
  const at = Date.parse(createdAt);
  if (Number.isNaN(at)) return '';
  const ago = Math.max(0, now - at);
  if (ago < MINUTE) return t('notifications:bell.justNow');
  if (ago < HOUR) return t('notifications:bell.minutesAgo', { count: Math.floor(ago / MINUTE) });
  if (ago < DAY) return t('notifications:bell.hoursAgo', { count: Math.floor(ago / HOUR) });
  return formatDateTime(createdAt) ?? '';
}
