/**
 * A formatter per zone, made once: `new Intl.DateTimeFormat` loads the zone's rules and costs
 * ~0.1 ms, and "today" is asked on every table call (the reminders' colour columns) — 3.3 s of
 * the server's main thread over the imports bench's 2,500 table calls (CPU profile, 4 December 2026).
 */
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const hourFormats = new Map<string, Intl.DateTimeFormat>();

function formatOf(cache: Map<string, Intl.DateTimeFormat>, timeZone: string, make: (timeZone: string) => Intl.DateTimeFormat): Intl.DateTimeFormat {
  let format = cache.get(timeZone);
  if (!format) cache.set(timeZone, (format = make(timeZone)));
  return format;
}

/** The day of an instant in a time zone, as YYYY-MM-DD: "today" for the reminders is the portal's day, not the server's. */
export function dayIn(now: Date, timeZone: string): string {
  return formatOf(dayFormats, timeZone, (zone) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })).format(now);
}

/** The hour (0–23) of an instant in a time zone: a digest at 7 goes at 7 in the portal's zone. */
export function hourIn(now: Date, timeZone: string): number {
  return Number(formatOf(hourFormats, timeZone, (zone) => new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' })).format(now));
}
