import { screenChecks } from '../check-context';
import { TEXT_KEYS } from './texts';

/** Every fixed text of the type present in the screen's namespace; the reset only in the dialog about another user's account. */
export const securityChecks = screenChecks('security', (s, ctx) => {
  for (const key of TEXT_KEYS) ctx.needKey('/texts', `${s.texts}:${key}`);
  if (s.mode !== 'admin' && (s.sections ?? []).includes('reset')) ctx.problem('/sections', 'the section "reset" belongs to the dialog of another user\'s account only');
  if (s.mode === 'enrolment' && (s.sections ?? []).includes('sessions')) ctx.problem('/sections', 'the enrolment gate sets up a factor: it shows no sessions');
});
