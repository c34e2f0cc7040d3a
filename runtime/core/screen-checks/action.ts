import { screenChecks } from './check-context';

/** Nothing across files beyond its text keys (checked for every screen by server/config/cross-check.ts). */
export const actionChecks = screenChecks('action');
