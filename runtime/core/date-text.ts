/**
 * The portal's one way of writing a date and an instant (spec §9): DD.MM.RRRR and DD.MM.RRRR GG:MM,
 * an instant on the wall clock of the configured time zone. The screens write them so
 * (runtime/src/format.ts); the server's e-mails, trail details and exports use these, so a date
 * reads the same in a mail as on the screen it links to — never Intl's locale-dependent short style
 * ("1.12.2026, 10:20").
 */
const clocks = new Map<string, Intl.DateTimeFormat>();

/** Calendar and clock parts of an instant in a time zone (en-CA: numeric, 24-hour). */
function wallClock(at: Date, timeZone: string): Record<string, string> {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    clocks.set(timeZone, clock);
  }
  return Object.fromEntries(clock.formatToParts(at).map((p) => [p.type, p.value]));
}

/** An instant as DD.MM.RRRR GG:MM in the zone; '' for an invalid date. */
export function dateTimeText(at: Date, timeZone: string): string {
  if (Number.isNaN(at.getTime())) return '';
  const p = wallClock(at, timeZone);
  return `${p.day}.${p.month}.${p.year} ${p.hour}:${p.minute}`;
}

/** The calendar day of an instant in the zone as DD.MM.RRRR; '' for an invalid date. */
export function dateText(at: Date, timeZone: string): string {
  if (Number.isNaN(at.getTime())) return '';
  const p = wallClock(at, timeZone);
  return `${p.day}.${p.month}.${p.year}`;
}
