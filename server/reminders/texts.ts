/**
 * An item's text in the reader's language: the rule's message key (locales/<language>/reminders.json)
 * filled with its dates and distances in his language's formats (its date pattern, DD.MM.YYYY or
 * DD/MM/YYYY; thousands grouped as its locale does).
 * Made on the server, so that the cockpit, the driver's "Do zrobienia" and the e-mails of the
 * notifications say the same thing.
 */
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import type { RuleRow } from './rule-sql.ts';
import { isoDayText } from '../../runtime/core/date-text.ts';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** What a text is made of: an item's figures as the rule's query answers them. */
type ItemValues = Pick<RuleRow, 'dueDate' | 'daysLeft' | 'kmLeft' | 'projectedKm' | 'limitKm' | 'excessKm' | 'excessCost'> & { tooFewReadings?: boolean };

/** 'YYYY-MM-DD' → the reader's pattern, 'DD.MM.YYYY' or 'DD/MM/YYYY' (dates are days, no time zone to apply). */
export function shownDate(day: string | null, datePattern: string): string {
  return day ? isoDayText(day, datePattern) : '';
}

/** The day `days` before or after a 'YYYY-MM-DD' day. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day.slice(0, 10)}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function itemText(t: Translate, rule: ReminderRule, item: ItemValues, recordLabel: string | null, locale: string, datePattern: string): string {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const money = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const afterDays = rule.due.kind === 'date' ? rule.due.afterDays ?? 0 : 0;
  const vars: Record<string, unknown> = {
    recordLabel: recordLabel ?? '',
    date: shownDate(item.dueDate, datePattern),
    days: item.daysLeft ?? '',
    // the watched date lies afterDays before the due day: a reading 95 days old is due at 90
    daysAgo: item.daysLeft === null ? '' : afterDays - item.daysLeft,
    since: item.dueDate ? shownDate(addDays(item.dueDate, -afterDays), datePattern) : '',
    km: item.kmLeft === null ? '' : number.format(Math.abs(item.kmLeft)),
    limitKm: item.limitKm === null ? '' : number.format(item.limitKm),
    projectedKm: item.projectedKm === null ? '' : number.format(item.projectedKm),
    excessKm: item.excessKm === null ? '' : number.format(item.excessKm),
    excessCost: item.excessCost === null ? '' : money.format(item.excessCost),
  };
  // never done (the rule's whenEmpty): no date to tell, a message of its own
  if (rule.due.kind === 'date' && rule.due.whenEmpty && !item.dueDate) return t(rule.due.whenEmpty.message, vars);
  if (item.kmLeft !== null) {
    vars.kmText = item.kmLeft < 0 ? t('reminders:kmOver', { km: vars.km }) : t('reminders:kmLeft', { km: vars.km });
  }
  if (rule.due.kind === 'distance') {
    // one sentence that says which limit came first: the km already over, the projected day already
    // past while the last reading was still short of the limit, or the km left until the projected day
    vars.projectedText = item.tooFewReadings ? ` (${t('reminders:tooFewReadings')})` : item.dueDate ? t('reminders:projected', { date: vars.date }) : '';
    if (item.kmLeft !== null && item.kmLeft >= 0 && item.daysLeft !== null && item.daysLeft < 0 && !item.tooFewReadings) {
      vars.kmText = t('reminders:distance.reachedOn', { km: vars.km, date: vars.date });
      vars.projectedText = '';
    }
  }
  if (rule.due.kind === 'mileageProjection') {
    if (item.tooFewReadings) return t('reminders:tooFewReadingsMessage', { label: t(rule.label), date: vars.date });
    {
      vars.excessText = item.excessKm && item.excessKm > 0 ? t('reminders:excess', { excessKm: vars.excessKm, excessCost: vars.excessCost }) : t('reminders:noExcess');
    }
  }
  return t(rule.message, vars);
}

/** "za 5 dni", "dziś", "3 dni po terminie". */
function daysText(t: Translate, days: number): string {
  if (days < 0) return t('reminders:daysLeft.pastDue', { count: -days });
  return days === 0 ? t('reminders:daysLeft.today') : t('reminders:daysLeft.left', { count: days });
}

/**
 * How long is left, as one sentence that says which limit comes (or came) first: a date's days; a
 * distance's km over, or km left with the day the average mileage reaches the limit, or that day
 * already past while the last reading was short of it ("wg prognozy 94 dni po terminie (przy
 * ostatnim odczycie brakowało 300 km)", never "pozostało 300 km, 94 dni po terminie"); a
 * projection's days to the contract's end with the excess or the margin projected at it.
 */
export function leftText(t: Translate, rule: ReminderRule, item: ItemValues, locale: string): string {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const days = item.daysLeft;
  const km = item.kmLeft === null ? null : number.format(Math.abs(item.kmLeft));
  const when = days === null ? null : daysText(t, days);
  if (rule.due.kind === 'distance' && km !== null) {
    if (item.kmLeft! < 0) return t('reminders:left.distanceOver', { km });
    if (when === null || item.tooFewReadings) return t('reminders:left.distanceLeft', { km });
    return t(days! < 0 ? 'reminders:left.distancePast' : 'reminders:left.distanceLeftUntil', { km, when });
  }
  if (rule.due.kind === 'mileageProjection' && km !== null && when !== null) {
    if (item.tooFewReadings) return when;
    return t(item.kmLeft! < 0 ? 'reminders:left.projectionOver' : 'reminders:left.projectionWithin', { km, when });
  }
  // never done (whenEmpty): due now
  if (rule.due.kind === 'date' && rule.due.whenEmpty && !item.dueDate) return daysText(t, 0);
  return when ?? '';
}
