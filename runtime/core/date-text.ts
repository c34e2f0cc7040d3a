/**
 * The portal's one way of writing and reading a date and an instant (spec §9, issue 48): by the
 * reader's language's date pattern, `config.languages[].datePattern` of screens/app.json — DD, MM
 * and YYYY in the language's order with its separators (DD.MM.YYYY in Polish and Ukrainian,
 * DD/MM/YYYY in English) — and HH:mm after it for an instant, on the wall clock of the configured
 * time zone. The screens write them so (runtime/src/format.ts), the forms read them so
 * (forms/input-formats.ts); the server's e-mails, trail details and exports use these, so a date
 * reads the same in a mail as on the screen it links to — never Intl's locale-dependent short style
 * ("1.12.2026, 10:20"). No pattern is named here: each caller passes the one in force.
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

const pad = (n: number | string) => String(n).padStart(2, '0');

/** A calendar day written by the pattern (DD, MM, YYYY replaced by the day, month and year). */
export function dayText(y: number | string, m: number | string, d: number | string, pattern: string): string {
  return pattern.replace('YYYY', String(y).padStart(4, '0')).replace('MM', pad(m)).replace('DD', pad(d));
}

/** An instant as the pattern's day and HH:mm in the zone; '' for an invalid date. */
export function dateTimeText(at: Date, timeZone: string, pattern: string): string {
  if (Number.isNaN(at.getTime())) return '';
  const p = wallClock(at, timeZone);
  return `${dayText(p.year, p.month, p.day, pattern)} ${p.hour}:${p.minute}`;
}

/** The calendar day of an instant in the zone, by the pattern; '' for an invalid date. */
export function dateText(at: Date, timeZone: string, pattern: string): string {
  if (Number.isNaN(at.getTime())) return '';
  const p = wallClock(at, timeZone);
  return dayText(p.year, p.month, p.day, pattern);
}

/** A stored calendar day (YYYY-MM-DD, or an instant's first ten characters) by the pattern; other text as it is. */
export const isoDayText = (iso: string, pattern: string): string => {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? dayText(m[1], m[2], m[3], pattern) : iso;
};

/**
 * A day typed by the pattern (one-digit day and month allowed, 5/3/2026), as YYYY-MM-DD, with the
 * rest of the text after it (a time, for the caller to read); null when the text does not follow the
 * pattern or names no real day (31/02/2026).
 */
export function readDay(text: string, pattern: string): { day: string; rest: string } | null {
  const order: string[] = [];
  const source = pattern.replace(/YYYY|MM|DD|[^YMD]/g, (token) => {
    if (token.length === 1) return token.replace(/[.*+?^${}()|[\]\\/]/, '\\$&');
    order.push(token);
    return token === 'YYYY' ? '(\\d{4})' : '(\\d{1,2})';
  });
  const match = new RegExp(`^${source}`).exec(text.trim());
  if (!match || order.length !== 3) return null;
  const part = (token: string) => +match[order.indexOf(token) + 1];
  const [y, m, d] = [part('YYYY'), part('MM'), part('DD')];
  const at = new Date(Date.UTC(y, m - 1, d));
  if (at.getUTCFullYear() !== y || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== d) return null;
  return { day: `${y}-${pad(m)}-${pad(d)}`, rest: text.trim().slice(match[0].length) };
}

/**
 * The pattern as a reader of the language reads it in a placeholder or a message: each part by the
 * language's letters (`app:datePattern.*`: DD.MM.RRRR in Polish, ДД.ММ.РРРР in Ukrainian), with
 * GG:MM after it for an instant.
 */
export function patternText(pattern: string, t: (key: string) => string, withTime = false): string {
  const day = pattern.replace(/YYYY|MM|DD/g, (token) => t(`app:datePattern.${token === 'YYYY' ? 'year' : token === 'MM' ? 'month' : 'day'}`));
  return withTime ? `${day} ${t('app:datePattern.hour')}:${t('app:datePattern.minute')}` : day;
}
