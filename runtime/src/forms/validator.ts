/**
 * The @rjsf validator for every form: ajv with draft 2020-12, the dialect of every schema under
 * schemas/ (the server validates the same bodies with the same dialect, DESIGN.md §2).
 */
import { customizeValidator } from '@rjsf/validator-ajv8';
import Ajv2020 from 'ajv/dist/2020.js';

export const formValidator = customizeValidator({
  // ajv's 2020 class has the same API as the default one; the cast only satisfies rjsf's typing
  AjvClass: Ajv2020 as unknown as NonNullable<Parameters<typeof customizeValidator>[0]>['AjvClass'],
});
