import { screenChecks } from './check-context';
import { TEXT_KEYS } from '../screen-texts/push-devices';

/** Every fixed text of the type present in the screen's namespace. */
export const pushDevicesChecks = screenChecks('push-devices', (s, ctx) => {
  for (const key of TEXT_KEYS) ctx.needKey('/texts', `${s.texts}:${key}`);
});
