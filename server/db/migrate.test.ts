import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../migrations/index.ts';
import { migrateDownAll, migrateToLatest, migrationStatus } from './migrate.ts';
import pg from 'pg';
import { openTestDatabase, testBackends, uniqueSchemaName, type TestDatabase } from '../seed/testing.ts';

const TABLES = [
  'client', 'service_station', 'company', 'unit', 'employee', 'app_user', 'car', 'fuel_card', 'contract',
  'contract_position', 'tire', 'vehicle_assignment', 'mileage_reading', 'invoice', 'invoice_file', 'order_status',
  'service_order', 'order_position', 'service_plan', 'intervention_type', 'damage', 'note', 'attachment',
  'login_history', 'terms_template', 'terms_acceptance', 'user_table_filter', 'user_table_view', 'email_config',
  'password_reset', 'download_token', 'user_session', 'used_nonce', 'export_file', 'app_setting', 'sign_in_failure',
  'order_transition', // issue 12, migration 010
  'vehicle_mileage', // issue 24, migration 014
  'reminder_rule', 'reminder_due', 'reminder_count', 'reminder_dirty', // issue 24, migration 015
  'notification', 'notification_setting', // issue 25, migration 016
  'reminder_change', 'digest_run', // issue 25, migration 017
  'config_version', // issue 26, migration 018
  'integration_account', 'integration_key', // issue 34, migration 021
  'import_run', 'import_file_chunk', 'import_error', 'import_mapping', // issue 34, migration 022
  'webhook_endpoint', 'webhook_message', 'webhook_attempt', // issue 35, migration 023
  'user_totp', 'user_recovery_code', 'user_passkey', 'sign_in_ticket', // issue 36, migration 027
  'sso_flow', 'sso_handoff', // issue 36, migration 028
  'audit_entry', 'audit_head', // issue 37, migration 029
  'audit_retention', // issue 37, migration 031
  'audit_field_label', // issue 49, migration 045
  'passkey_sign_in_challenge', // issue 36, migration 033
  'idempotency_key', // issue 47, migration 042
  'fuel_transaction', 'invoice_line', 'fuel_anomaly', // issue 46, migration 043
  'report_subscription', 'report_send', // issue 46, migration 049
  'inspection', 'inspection_answer', 'inspection_photo', // issue 47, migration 050
  'push_subscription', // issue 47, migration 051
  'running_total', // issue 46, migration 053
];
const VIEWS = [
  'v_car', 'v_assignment', 'v_order', 'v_order_position', 'v_damage', 'v_users', 'v_login_history', 'v_invoice',
  'v_fuel_card', 'v_contract', 'v_tire', 'v_unit', 'v_employee', 'v_note', 'v_attachment', 'v_terms_acceptance',
  'v_notification', // issue 25, migration 016
  'v_integration_account', // issue 34, migration 021
  'v_webhook_endpoint', 'v_webhook_message', // issue 35, migration 023
  'v_audit_entry', // issue 37, migration 029
  'v_fuel_transaction', 'v_invoice_line', 'v_fuel_anomaly', // issue 46, migration 043
  'v_inspection', // issue 47, migration 050
];

async function relations(t: TestDatabase, type: 'BASE TABLE' | 'VIEW'): Promise<string[]> {
  const { rows } = await sql<{ n: string }>`
    select table_name as n from information_schema.tables
    where table_schema = current_schema() and table_type = ${type} and table_name not like 'kysely_%'
    order by 1`.execute(t.db);
  return rows.map((r) => r.n);
}

async function columns(t: TestDatabase, table: string): Promise<string[]> {
  const { rows } = await sql<{ c: string }>`
    select column_name as c from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} order by ordinal_position`.execute(t.db);
  return rows.map((r) => r.c);
}

describe.each(testBackends)('migrations on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ kind, migrate: false }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  it('migrate an empty database to the whole data model, then do nothing on a second run', async () => {
    const results = await migrateToLatest(t.db);
    expect(results.map((r) => [r.migrationName, r.status])).toEqual([['001_data_model', 'Success'], ['002_views', 'Success'], ['003_sign_in_security', 'Success'], ['004_download_tokens', 'Success'], ['005_table_indexes', 'Success'], ['006_sign_in_failures', 'Success'], ['007_list_view_joins', 'Success'], ['008_session_notifications', 'Success'], ['009_login_history_codes', 'Success'], ['010_orders_workflow', 'Success'], ['011_user_deletion', 'Success'], ['012_damages_assignments', 'Success'], ['013_count_covering_indexes', 'Success'], ['014_vehicle_mileage', 'Success'], ['015_reminder_due', 'Success'], ['016_notifications', 'Success'], ['017_notification_digest', 'Success'], ['018_config_studio', 'Success'], ['019_notification_failed_index', 'Success'], ['020_notification_recipient_name', 'Success'], ['021_integration_keys', 'Success'], ['022_imports', 'Success'], ['023_webhooks', 'Success'], ['024_import_more', 'Success'], ['027_second_factor', 'Success'], ['028_single_sign_on', 'Success'], ['029_audit_trail', 'Success'], ['031_audit_retention', 'Success'], ['033_passkey_sign_in', 'Success'], ['034_connection_names', 'Success'], ['040_import_approval', 'Success'], ['041_audit_who_index', 'Success'], ['042_idempotency_keys', 'Success'], ['043_fleet_costs', 'Success'], ['044_user_language', 'Success'], ['045_audit_field_labels', 'Success'], ['046_fuel_anomalies', 'Success'], ['048_import_language', 'Success'], ['049_report_subscriptions', 'Success'], ['050_inspections', 'Success'], ['051_push_subscriptions', 'Success'], ['052_audit_who_count', 'Success'], ['053_running_totals', 'Success'], ['054_audit_field_label_languages', 'Success'], ['055_audit_actor', 'Success'], ['056_audit_import_indexes', 'Success'], ['057_audit_indexes_ascending', 'Success'], ['058_facts_by_moment', 'Success']]);
    expect(await migrateToLatest(t.db)).toEqual([]);
    expect((await migrationStatus(t.db)).every((m) => m.executedAt instanceof Date)).toBe(true);
    expect(await relations(t, 'BASE TABLE')).toEqual([...TABLES].sort());
    expect(await relations(t, 'VIEW')).toEqual([...VIEWS].sort());
  }, 30_000);

  it('names spec fields exactly (camelCase) and keeps secrets out of the views', async () => {
    expect(await columns(t, 'car')).toEqual(expect.arrayContaining([
      'pojazdId', 'rejestr', 'nrPodw', 'markaModel', 'aktStanLicz', 'ocPolisa', 'asKolor', 'kpalLimitMcWartosc', 'kontrLimitKmOgol',
    ]));
    expect(await columns(t, 'v_users')).not.toContain('passwordHash');
    expect(await columns(t, 'v_attachment')).not.toContain('content');
    expect(await columns(t, 'v_invoice')).toEqual(expect.arrayContaining(['faktNrCaly', 'iloscZal', 'klientSymbol']));
    expect(await columns(t, 'v_contract')).toEqual(expect.arrayContaining(['umowaNr', 'opmRataIle', 'dataTyp', 'pojazdId', 'klientSymbol']));
    expect(await columns(t, 'v_terms_acceptance')).toEqual(expect.arrayContaining(['login', 'name', 'surname', 'client', 'templateName', 'group', 'acceptedAt']));
    for (const view of VIEWS) await sql`select * from ${sql.table(view)} limit 1`.execute(t.db);
  }, 30_000);

  it('enforces the enumerations and business rules of the spec', async () => {
    await t.db.insertInto('client').values({ klient: 'K1', klientNazwa: 'Klient' }).execute();
    const user = { firstName: 'A', lastName: 'B' };
    await expect(t.db.insertInto('app_user').values({ ...user, login: 'x', rola: 'BOSS' }).execute()).rejects.toThrow(/check constraint/);
    await expect(t.db.insertInto('app_user').values({ ...user, login: 'm', rola: 'MANAGER' }).execute()).rejects.toThrow(/app_user_manager_client/);
    await expect(t.db.insertInto('app_user').values({ ...user, login: 'd', rola: 'ADVISOR' }).execute()).rejects.toThrow(/app_user_advisor_station/);
    await t.db.insertInto('app_user').values({ ...user, login: 'Ola', rola: 'MANAGER', klientSymbol: 'K1' }).execute();
    await expect(t.db.insertInto('app_user').values({ ...user, login: 'OLA', rola: 'ADMIN' }).execute()).rejects.toThrow(/unique/);

    const emp = await t.db.insertInto('employee').values({ klient: 'K1', nazwisko: 'Nowak', imie: 'Jan' }).returning('pracId').executeTakeFirstOrThrow();
    const car = await t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr: 'WZ1', markaOpis: 'Škoda', modelOpis: 'Octavia' })
      .returning(['pojazdId', 'markaModel']).executeTakeFirstOrThrow();
    expect(car.markaModel).toBe('Škoda Octavia');
    await expect(t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr: 'wz2' }).execute()).rejects.toThrow(/check constraint/);

    const order = await t.db.insertInto('service_order').values({ autTyp: 1, pojazdId: car.pojazdId, klientSymbol: 'K1' })
      .returning(['autId', 'status', 'cenaWidoczna']).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 0, cenaWidoczna: 'N' });
    await expect(t.db.insertInto('service_order').values({ autTyp: 1, pojazdId: car.pojazdId, klientSymbol: 'K1', cenaWidoczna: 'X' }).execute())
      .rejects.toThrow(/check constraint/);
    await expect(t.db.insertInto('service_order').values({ autTyp: 1, czySzkoda: true, pojazdId: car.pojazdId, klientSymbol: 'K1' }).execute())
      .rejects.toThrow(/service_order_damage_type/);
    // The net value is written by the server (runtime/core/order-values.ts) since migration 010.
    const pos = await t.db.insertInto('order_position').values({ autId: order.autId, tresc: 'Robocizna', cena: 99.99, rabatProc: 15, ilosc: 3, ogNetto: 254.97 })
      .returning(['ogNetto', 'autOk', 'rodzaj']).executeTakeFirstOrThrow();
    expect(pos).toEqual({ ogNetto: 254.97, autOk: '?', rodzaj: 'dodatkowa' });
    await expect(t.db.insertInto('order_position').values({ autId: order.autId, tresc: 'x', autOk: 'Y' }).execute()).rejects.toThrow(/check constraint/);

    const open = { pojazdId: car.pojazdId, pracId: emp.pracId, klientSymbol: 'K1', dataWy: '2025-01-01 09:00' };
    await t.db.insertInto('vehicle_assignment').values(open).execute();
    await expect(t.db.insertInto('vehicle_assignment').values(open).execute()).rejects.toThrow(/vehicle_assignment_one_open_idx/);
    await expect(t.db.deleteFrom('car').where('pojazdId', '=', car.pojazdId).execute()).rejects.toThrow(/foreign key/);
  }, 30_000);

  it('has exactly one e-mail configuration row', async () => {
    const rows = await t.db.selectFrom('email_config').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ smtpPort: 25, smtpSsl: 'OFF' });
    await expect(t.db.insertInto('email_config').values({ id: 2 }).execute()).rejects.toThrow(/check constraint/);
  });

  it('fails with a message naming the migration and the reason', async () => {
    const broken = { ...migrations, '900_broken': { up: async (db: any) => { await sql`select * from no_such_table`.execute(db); } } };
    await expect(migrateToLatest(t.db, broken)).rejects.toThrow(/^Database migration failed at 900_broken: relation "no_such_table" does not exist/);
  });

  it('reverts cleanly and migrates again', async () => {
    await migrateDownAll(t.db);
    expect(await relations(t, 'BASE TABLE')).toEqual([]);
    expect(await relations(t, 'VIEW')).toEqual([]);
    await migrateToLatest(t.db);
    expect(await relations(t, 'VIEW')).toHaveLength(VIEWS.length);
  }, 30_000);
});

describe.runIf(testBackends.includes('postgres'))('migrations beside other schemas on one PostgreSQL', () => {
  it('are not disturbed by another schema dropped while they look for their own tables', async () => {
    const t = await openTestDatabase({ kind: 'postgres', migrate: false });
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    const gone = uniqueSchemaName('gone');
    try {
      await other.query(`create schema ${gone}`);
      await t.db.transaction().setIsolationLevel('repeatable read').execute(async (trx) => {
        await sql`select 1`.execute(trx); // the snapshot is taken: the other schema is in it
        await other.query(`drop schema ${gone}`); // as a parallel test file drops its schema at its end
        const results = await migrateToLatest(trx);
        expect(results.at(-1)).toMatchObject({ migrationName: Object.keys(migrations).at(-1), status: 'Success' });
      });
    } finally {
      await other.query(`drop schema if exists ${gone}`);
      await other.end();
      await t.close();
    }
  }, 60_000);
});
