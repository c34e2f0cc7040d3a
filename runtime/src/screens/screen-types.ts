/**
 * THE list of screen types (DESIGN.md §2), one line per type: each is a folder `<type>/` holding
 * its component (`index.ts`: the lazily loaded module the runtime registry reads), its cross-check
 * (`check.ts`: what server/config/cross-check.ts asks of a screen of this type) and its tests.
 * The runtime registry (registry.ts) and the server's cross-check both follow this list, so adding
 * a type is its folder, its meta-schema (schemas/meta/<type>.schema.json) and one line here.
 * No React here: the server imports this file.
 */
import type { ScreenTypeChecks } from './check-context';
import { actionChecks } from './action/check';
import { buttonModalChecks } from './button-modal/check';
import { dashboardChecks } from './dashboard/check';
import { dataImportChecks } from './data-import/check';
import { detailsDialogChecks } from './details-dialog/check';
import { formChecks } from './form/check';
import { formDialogChecks } from './form-dialog/check';
import { loginChecks } from './login/check';
import { pageChecks } from './page/check';
import { panelSetChecks } from './panel-set/check';
import { passwordPolicyChecks } from './password-policy/check';
import { reportsChecks } from './reports/check';
import { pushDevicesChecks } from './push-devices/check';
import { securityChecks } from './security/check';
import { studioChecks } from './studio/check';
import { tableChecks } from './table/check';
import { termsDialogChecks } from './terms-dialog/check';
import { wizardChecks } from './wizard/check';

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
