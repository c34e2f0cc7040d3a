import { screenChecks } from './check-context';

/** Every period offered has its label; the texts of the screen are in the reports namespace. */
export const reportsChecks = screenChecks('reports', (s, ctx) => {
  s.periods.forEach((p: string) => ctx.needKey('/periods', `reports:periods.${p}`));
  if (s.subscriptions) {
    for (const key of ['title', 'titleAll', 'subscribe', 'subscribeTitle', 'intro', 'frequency', 'weekday', 'dayOfMonth', 'hour', 'format', 'save', 'cancel', 'empty', 'emptyAll', 'scheduleWeekly', 'scheduleMonthly', 'groupedBy', 'narrowed', 'owner', 'sends', 'noSends', 'manual', 'sendNow', 'delete', 'deleteConfirmTitle', 'deleteConfirm']) {
      ctx.needKey('/subscriptions', `reports:subscriptions.${key}`);
    }
    for (const f of [...s.subscriptions.frequencies, ...s.subscriptions.formats]) ctx.needKey('/subscriptions', `reports:subscriptions.${f}`);
    for (const state of ['queued', 'sending', 'sent', 'failed', 'skipped']) ctx.needKey('/subscriptions', `reports:subscriptions.states.${state}`);
    for (let d = 1; d <= 7; d++) ctx.needKey('/subscriptions', `reports:subscriptions.weekdays.${d}`);
  }
  for (const key of ['choose', 'period', 'groupBy', 'from', 'to', 'run', 'total', 'behind', 'back', 'openVehicle', 'empty', 'filtersOn', 'clearFilters']) ctx.needKey('/title', `reports:screen.${key}`);
});
