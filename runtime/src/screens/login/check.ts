import { screenChecks } from '../check-context';
import { checkFormFields } from '../form/check';

/** The login form: the same checks as a form; its field texts live in the screen's own namespace. */
export const loginChecks = screenChecks('login', (screen, ctx) => checkFormFields(screen, ctx, ctx.id));
