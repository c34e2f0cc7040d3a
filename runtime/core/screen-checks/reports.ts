import { screenChecks } from './check-context';

/** Every period offered has its label; the texts of the screen are in the reports namespace. */
export const reportsChecks = screenChecks('reports', (s, ctx) => {
  s.periods.forEach((p: string) => ctx.needKey('/periods', `reports:periods.${p}`));
  for (const key of ['choose', 'period', 'groupBy', 'from', 'to', 'run', 'total', 'behind', 'back', 'openVehicle', 'empty', 'filtersOn', 'clearFilters']) ctx.needKey('/title', `reports:screen.${key}`);
});
