/** The day of an instant in a time zone, as YYYY-MM-DD: "today" for the reminders is the portal's day, not the server's. */
export function dayIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The hour (0–23) of an instant in a time zone: a digest at 7 goes at 7 in the portal's zone. */
export function hourIn(now: Date, timeZone: string): number {
  return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(now));
}
