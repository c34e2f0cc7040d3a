import { screenChecks } from './check-context';
import { TEXT_KEYS } from '../screen-texts/security';

/** Every fixed text of the type present in the screen's namespace; the reset and the lock-outs only in the dialog about another user's account, the user's own factors never there. */
export const securityChecks = screenChecks('security', (s, ctx) => {
  for (const key of TEXT_KEYS) ctx.needKey('/texts', `${s.texts}:${key}`);
  for (const section of ['reset', 'lockouts']) {
    if (s.mode !== 'admin' && (s.sections ?? []).includes(section)) ctx.problem('/sections', `the section "${section}" belongs to the dialog of another user's account only`);
  }
  for (const section of ['totp', 'passkeys']) {
    if (s.mode === 'admin' && (s.sections ?? []).includes(section)) ctx.problem('/sections', `the section "${section}" is the user's own: the dialog of another user's account shows sessions, lockouts and reset`);
  }
  if (s.mode === 'enrolment' && (s.sections ?? []).includes('sessions')) ctx.problem('/sections', 'the enrolment gate sets up a factor: it shows no sessions');
});
