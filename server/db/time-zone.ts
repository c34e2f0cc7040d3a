/**
 * The zone the portal keeps time in when its configuration names none (screens/app.json
 * config.timeZone): the database sessions' TimeZone (connect.ts) and the configuration's default
 * (config/locale.ts). Here, below both, so that the database needs nothing of the configuration.
 */
export const DEFAULT_TIME_ZONE = 'Europe/Warsaw';
