/** The day of an instant in a time zone, as YYYY-MM-DD: "today" for the reminders is the portal's day, not the server's. */
export function dayIn(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}
