/**
 * The client variants the repository ships (docs/variants.md), read from their bundles as the
 * server builds them, and the mistakes in a variant that `npm run check` names with file, JSON
 * pointer and reason.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../runtime/core/conditions.ts';
import { hiddenColumnsOf } from '../../runtime/core/hidden-columns.ts';
import { ConfigError, loadBundle } from '../../server/config/load-bundle.ts';
import { loadVariants } from '../../server/config/variants.ts';
import { ROOT } from '../support/test-app.ts';

const set = loadVariants({ root: ROOT });
const bundle = (variant: string) => set.bundles.get(variant)!;
/** Whether a named condition of screens/conditions.json holds for a role under a variant. */
const holds = (variant: string, name: string, role: string, extra: Record<string, unknown> = {}) => {
  const b = bundle(variant);
  return new ConditionEvaluator(b.conditions).matches({ $ref: `conditions#/$defs/${name}` } as any, { role: role as any, variant, config: b.config, ...extra });
};

describe('the shipped variants, one server', () => {
  it('serves the four client variants at their hosts beside the default', () => {
    expect([...set.bundles.keys()].sort()).toEqual(['customer-brand', 'default', 'p', 'regional-dealer', 't']);
    expect(Object.fromEntries(set.byHost)).toEqual({
      'dealer.localhost': 'regional-dealer', 't.localhost': 't', 'p.localhost': 'p', 'marka.localhost': 'customer-brand',
    });
  });

  it('P: the order wizard hides Scope and Contractor from everyone but the advisor; elsewhere the admin has them', () => {
    for (const role of ['USER', 'MANAGER', 'ADMIN']) expect(holds('p', 'variantPNonAdvisor', role), role).toBe(true);
    expect(holds('p', 'variantPNonAdvisor', 'ADVISOR')).toBe(false);
    expect(holds('default', 'variantPNonAdvisor', 'ADMIN')).toBe(false);
    expect(holds('p', 'orderWizardContractorHidden', 'ADMIN')).toBe(true);
    expect(holds('default', 'orderWizardContractorHidden', 'ADMIN')).toBe(false);
  });

  it('regional dealer: manager and advisor lose AC z regresem and OC nasze; three organisational levels with its own labels', () => {
    const limits = bundle('regional-dealer').config.damageRiskTypeLimits as { when: unknown; refused: string[] }[];
    const ev = new ConditionEvaluator(bundle('regional-dealer').conditions);
    const refused = (role: string) => limits.filter((l) => ev.matches(l.when as any, { role: role as any })).flatMap((l) => l.refused);
    expect(refused('MANAGER')).toEqual(['AC z regresem', 'OC nasze']);
    expect(refused('ADVISOR')).toEqual(['AC z regresem', 'OC nasze']);
    expect(refused('USER')).toEqual([]);
    expect(refused('ADMIN')).toEqual([]);
    expect(bundle('default').config.damageRiskTypeLimits).toEqual([]);
    expect(holds('regional-dealer', 'structureLevelsBelow4', 'MANAGER')).toBe(true);
    expect(holds('regional-dealer', 'structureLevelsBelow3', 'MANAGER')).toBe(false);
    expect(holds('default', 'structureLevelsBelow8', 'MANAGER')).toBe(false);
    expect((bundle('regional-dealer').locales.pl.assignment as any).fields.stru1).toBe('Region');
    expect(bundle('regional-dealer').config.handoverTimeRequired).toBe(true);
  });

  it('T: the manager edits the approved scope; nowhere else; and its configuration lists hide columns', () => {
    expect(bundle('t').config.managerEditsApprovedScope).toBe(true);
    for (const v of ['default', 'p', 'regional-dealer', 'customer-brand']) expect(bundle(v).config.managerEditsApprovedScope, v).toBe(false);
    expect([...hiddenColumnsOf(bundle('t').config, 'assignments-table')]).toEqual(['palWy', 'palZd', 'palStanZd']);
    expect([...hiddenColumnsOf(bundle('t').config, 'order-position')]).toEqual(['nrKatalog']);
    expect(hiddenColumnsOf(bundle('default').config, 'assignments-table').size).toBe(0);
  });

  it('customer brand: its own login title and images, and no vehicle return', () => {
    const app = bundle('customer-brand').app;
    expect(app.loginAppName).toBe('Zielona Flota – portal kierowcy');
    expect(app.branding).toMatchObject({ logo: 'logo.svg', favicon: 'favicon.svg' });
    const issued = { record: { czyWydany: true } };
    expect(holds('customer-brand', 'vehicleReturnOffered', 'MANAGER', issued)).toBe(false);
    expect(holds('default', 'vehicleReturnOffered', 'MANAGER', issued)).toBe(true);
    expect(bundle('default').app.branding).toBeUndefined();
  });
});

describe('mistakes in a variant, named with file, pointer and reason', () => {
  const made: string[] = [];
  afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const variant = (files: Record<string, unknown>) => {
    const root = mkdtempSync(join(tmpdir(), 'portal-variant-'));
    made.push(root);
    for (const sub of ['screens', 'schemas', 'locales', 'package.json']) cpSync(join(ROOT, sub), join(root, sub), { recursive: true });
    for (const [file, value] of Object.entries(files)) {
      const path = join(root, 'client-variants', 'x', file);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, JSON.stringify(value));
    }
    return root;
  };
  const problems = (root: string) => {
    try {
      loadBundle({ root, variant: 'x' });
      return [];
    } catch (e) {
      return (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
    }
  };
  const variantJson = (config: Record<string, unknown> = {}) => ({ schemaVersion: 1, name: 'x', app: { config } });

  it('a condition naming a flag the configuration does not have', () => {
    const root = variant({
      'variant.json': variantJson(),
      'screens/conditions.json': { $defs: { tiresTableOn: { properties: { config: { properties: { showTyreTable: { const: true } }, required: ['showTyreTable'] } } } } },
    });
    expect(problems(root)).toContain('client-variants/x/screens/conditions.json /$defs/tiresTableOn/properties/config condition names the configuration flag "showTyreTable", which screens/app.json config does not have');
  });

  it('an overlay removing an id the base does not have', () => {
    const root = variant({ 'variant.json': variantJson(), 'screens/menu.json': { groups: [{ id: 'records', items: [{ id: 'invoice', $remove: true }] }] } });
    expect(problems(root)).toContain('client-variants/x/screens/menu.json /groups/0/items/0 "$remove" of id "invoice", which the base list does not have');
  });

  it('a configuration list hiding a column the table does not have', () => {
    const root = variant({ 'variant.json': variantJson({ hiddenColumns: { 'assignments-table': ['palWy', 'paliwo'], 'no-such-table': ['x'] } }) });
    expect(problems(root)).toEqual(expect.arrayContaining([
      'client-variants/x/variant.json /app/config/hiddenColumns/assignments-table/1 "assignments-table" has no column "paliwo"',
      'client-variants/x/variant.json /app/config/hiddenColumns/no-such-table "no-such-table" is neither a table screen nor the entity of a details list',
    ]));
  });

  it('fields the runtime reads by name that the user details or a reminder item do not have (issue 45)', () => {
    const root = variant({
      'variant.json': { schemaVersion: 1, name: 'x', app: { sessionFields: { role: 'role', passwordValidUntil: 'pwdDo' } } },
      'screens/dashboard.json': { reminders: { vehicle: { plate: 'plate' } } },
    });
    expect(problems(root)).toEqual(expect.arrayContaining([
      'client-variants/x/variant.json /app/sessionFields/role "role" is not a field of the user\'s details (schemas/api/user-details)',
      'client-variants/x/screens/dashboard.json /reminders/vehicle/plate "plate" is not a field of a reminder item (schemas/api/reminder-items)',
    ]));
  });

  describe('single sign-on (app.sso, issue 36)', () => {
    const sso = { name: 'Firma ID', issuer: 'https://login.microsoftonline.com/tenant/v2.0', clientId: 'portal', clientSecretEnv: 'SSO_X_SECRET', roles: ['MANAGER'], match: { by: 'email' }, passwordSignIn: true };
    const withSso = (change: Record<string, unknown>, claims: Record<string, unknown> = {}) =>
      variant({ 'variant.json': { schemaVersion: 1, name: 'x', ...claims, app: { sso: { ...sso, ...change } } } });

    it('takes a provider declared with its secret\'s environment variable', () => {
      expect(problems(withSso({}))).toEqual([]);
    });

    it('refuses the secret itself in the file, a provider over plain http elsewhere than this machine, and roles that sign in to a vehicle', () => {
      expect(problems(withSso({ clientSecret: 'abc' }))).toContain('screens/app.json + client-variants/x/variant.json /sso/clientSecret unknown property "clientSecret"');
      expect(problems(withSso({ issuer: 'http://idp.example.com/realms/x' })).join('\n')).toMatch(/\/sso\/issuer must match pattern/);
      expect(problems(withSso({ issuer: 'http://localhost:8080/realms/x' }))).toEqual([]);
      expect(problems(withSso({ roles: ['USER'] })).join('\n')).toMatch(/\/sso\/roles\/0 must be equal to one of the allowed values/);
    });

    it('creates accounts only for a client the variant serves', () => {
      const root = mkdtempSync(join(tmpdir(), 'portal-variants-'));
      made.push(root);
      for (const sub of ['screens', 'schemas', 'locales', 'package.json']) cpSync(join(ROOT, sub), join(root, sub), { recursive: true });
      mkdirSync(join(root, 'client-variants', 'x'), { recursive: true });
      writeFileSync(join(root, 'client-variants', 'x', 'variant.json'), JSON.stringify({ schemaVersion: 1, name: 'x', hosts: ['x.localhost'], clients: ['KL777'], app: { sso: { ...sso, createUsers: { role: 'MANAGER', client: 'KL001' } } } }));
      const refusal = (() => {
        try {
          loadVariants({ root });
          return [];
        } catch (e) {
          return (e as ConfigError).problems.map((p) => `${p.file} ${p.pointer} ${p.reason}`);
        }
      })();
      expect(refusal).toEqual(['client-variants/x/variant.json /app/sso/createUsers/client client "KL001" is served by the default variant, not by this variant']);
    });
  });
});
