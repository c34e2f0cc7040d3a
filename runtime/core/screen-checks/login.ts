import { compileSchema } from '../json-schema';
import { screenChecks } from './check-context';
import { checkFormFields } from './form';
import { SECOND_STEP_KEYS } from '../screen-texts/second-step';

/**
 * The login form: the same checks as a form; its field texts live in the screen's own namespace.
 * Its request schema is judged in the browser by the small evaluator of core/json-schema.ts (no
 * ajv on the login page), so it may use only the keywords that evaluator knows.
 */
export const loginChecks = screenChecks('login', (screen, ctx) => {
  checkFormFields(screen, ctx, ctx.id);
  // the second step's fixed texts (issue 36)
  if (screen.secondStep) for (const key of SECOND_STEP_KEYS) ctx.needKey('/secondStep/texts', `${screen.secondStep.texts}.${key}`);
  const schema = ctx.schemas[screen.schema];
  if (!schema) return;
  try {
    compileSchema(schema, { allErrors: true });
  } catch (e) {
    ctx.problem('/schema', `the login form cannot check the request schema "${screen.schema}" in the browser: ${(e as Error).message}`);
  }
});
