/**
 * THE list of screen types (DESIGN.md §2), one line per type: each type has its component folder
 * in the runtime (`runtime/src/screens/<type>/`, whose `index.ts` is the lazily loaded module the
 * runtime registry reads) and its cross-check here (`screen-checks/<type>.ts`: what
 * server/config/cross-check.ts asks of a screen of this type beyond its meta-schema).
 * The runtime registry (runtime/src/screens/registry.ts, held to this list by its test) and the
 * server's cross-check both follow this list, so adding a type is its folder, its check, its
 * meta-schema (schemas/meta/<type>.schema.json) and one line here.
 * Core code (no React, no DOM): the server imports this file; the browser never does.
 */
import type { ScreenTypeChecks } from './check-context';
import { actionChecks } from './action';
import { buttonModalChecks } from './button-modal';
import { dashboardChecks } from './dashboard';
import { dataImportChecks } from './data-import';
import { detailsDialogChecks } from './details-dialog';
import { formChecks } from './form';
import { formDialogChecks } from './form-dialog';
import { loginChecks } from './login';
import { pageChecks } from './page';
import { panelSetChecks } from './panel-set';
import { passwordPolicyChecks } from './password-policy';
import { pushDevicesChecks } from './push-devices';
import { reportsChecks } from './reports';
import { securityChecks } from './security';
import { studioChecks } from './studio';
import { tableChecks } from './table';
import { termsDialogChecks } from './terms-dialog';
import { wizardChecks } from './wizard';

export const SCREEN_TYPES = [
  loginChecks,
  tableChecks,
  detailsDialogChecks,
  panelSetChecks,
  pageChecks,
  formChecks,
  termsDialogChecks,
  actionChecks,
  passwordPolicyChecks,
  formDialogChecks,
  wizardChecks,
  buttonModalChecks,
  dashboardChecks,
  studioChecks,
  dataImportChecks,
  securityChecks,
  reportsChecks,
  pushDevicesChecks,
] as const satisfies readonly ScreenTypeChecks[];

export type ScreenType = (typeof SCREEN_TYPES)[number]['type'];
