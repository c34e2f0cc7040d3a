/**
 * The ordered list of migrations, imported statically (no FileMigrationProvider): the set is
 * fixed at build time, works the same under tsx, vitest and a bundle, and a missing file is a
 * compile error instead of a silently skipped step. Keys sort in execution order.
 */
import type { Migration } from 'kysely/migration';
import { migration001 } from './001_data_model.ts';
import { migration002 } from './002_views.ts';
import { migration003 } from './003_sign_in_security.ts';
import { migration004 } from './004_download_tokens.ts';
import { migration005 } from './005_table_indexes.ts';
import { migration006 } from './006_sign_in_failures.ts';
import { migration007 } from './007_list_view_joins.ts';
import { migration008 } from './008_session_notifications.ts';
import { migration009 } from './009_login_history_codes.ts';
import { migration010 } from './010_orders_workflow.ts';
import { migration011 } from './011_user_deletion.ts';
import { migration012 } from './012_damages_assignments.ts';
import { migration013 } from './013_count_covering_indexes.ts';
import { migration014 } from './014_vehicle_mileage.ts';
import { migration015 } from './015_reminder_due.ts';
import { migration016 } from './016_notifications.ts';
import { migration017 } from './017_notification_digest.ts';
import { migration018 } from './018_config_studio.ts';
import { migration019 } from './019_notification_failed_index.ts';
import { migration020 } from './020_notification_recipient_name.ts';
import { migration021 } from './021_integration_keys.ts';
import { migration022 } from './022_imports.ts';
import { migration023 } from './023_webhooks.ts';
import { migration024 } from './024_import_more.ts';
import { migration027 } from './027_second_factor.ts';
import { migration028 } from './028_single_sign_on.ts';
import { migration029 } from './029_audit_trail.ts';
import { migration031 } from './031_audit_retention.ts';
import { migration033 } from './033_passkey_sign_in.ts';
import { migration034 } from './034_connection_names.ts';
import { migration040 } from './040_import_approval.ts';
import { migration041 } from './041_audit_who_index.ts';
import { migration042 } from './042_idempotency_keys.ts';
import { migration043 } from './043_fleet_costs.ts';
import { migration044 } from './044_user_language.ts';
import { migration045 } from './045_audit_field_labels.ts';
import { migration046 } from './046_fuel_anomalies.ts';
import { migration048 } from './048_import_language.ts';
import { migration049 } from './049_report_subscriptions.ts';
import { migration050 } from './050_inspections.ts';
import { migration051 } from './051_push_subscriptions.ts';
import { migration052 } from './052_audit_who_count.ts';
import { migration053 } from './053_running_totals.ts';
import { migration054 } from './054_audit_field_label_languages.ts';
import { migration055 } from './055_audit_actor.ts';
import { migration056 } from './056_audit_import_indexes.ts';
import { migration057 } from './057_audit_indexes_ascending.ts';
import { migration058 } from './058_facts_by_moment.ts';

export const migrations: Record<string, Migration> = {
  '001_data_model': migration001,
  '002_views': migration002,
  '003_sign_in_security': migration003,
  '004_download_tokens': migration004,
  '005_table_indexes': migration005,
  '006_sign_in_failures': migration006,
  '007_list_view_joins': migration007,
  '008_session_notifications': migration008,
  '009_login_history_codes': migration009,
  '010_orders_workflow': migration010,
  '011_user_deletion': migration011,
  '012_damages_assignments': migration012,
  '013_count_covering_indexes': migration013,
  '014_vehicle_mileage': migration014,
  '015_reminder_due': migration015,
  '016_notifications': migration016,
  '017_notification_digest': migration017,
  '018_config_studio': migration018,
  '019_notification_failed_index': migration019,
  '020_notification_recipient_name': migration020,
  '021_integration_keys': migration021,
  '022_imports': migration022,
  '023_webhooks': migration023,
  '024_import_more': migration024,
  '027_second_factor': migration027,
  '028_single_sign_on': migration028,
  '029_audit_trail': migration029,
  '031_audit_retention': migration031,
  '033_passkey_sign_in': migration033,
  '034_connection_names': migration034,
  '040_import_approval': migration040,
  '041_audit_who_index': migration041,
  '042_idempotency_keys': migration042,
  '043_fleet_costs': migration043,
  '044_user_language': migration044,
  '045_audit_field_labels': migration045,
  '046_fuel_anomalies': migration046,
  '048_import_language': migration048,
  '049_report_subscriptions': migration049,
  '050_inspections': migration050,
  '051_push_subscriptions': migration051,
  '052_audit_who_count': migration052,
  '053_running_totals': migration053,
  '054_audit_field_label_languages': migration054,
  '055_audit_actor': migration055,
  '056_audit_import_indexes': migration056,
  '057_audit_indexes_ascending': migration057,
  '058_facts_by_moment': migration058,
};
