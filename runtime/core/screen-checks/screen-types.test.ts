import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import screenMeta from '../../../schemas/meta/screen.schema.json';
import { SCREEN_TYPES } from './screen-types';

const here = import.meta.dirname;
const root = join(here, '../../..');
const components = join(root, 'runtime/src/screens');
/** Files of screens/ that configure the shell or the server rather than a screen (checked by server/config/cross-check.ts). */
// files that are not screens: the shell's, and the server's rules (reminders, notifications, webhooks, fuel anomalies)
const SHELL_FILES = ['app', 'conditions', 'routes', 'menu', 'reminders', 'notifications', 'webhooks', 'fuel-anomalies', 'inspections'];

describe('the list of screen types', () => {
  it('has per type a component folder with its module, a cross-check and a meta-schema', () => {
    for (const { type } of SCREEN_TYPES) {
      expect(existsSync(join(components, type, 'index.ts')), `runtime/src/screens/${type}/index.ts`).toBe(true);
      expect(existsSync(join(here, `${type}.ts`)), `runtime/core/screen-checks/${type}.ts`).toBe(true);
      expect(existsSync(join(root, 'schemas/meta', `${type}.schema.json`)), `schemas/meta/${type}.schema.json`).toBe(true);
      expect(readFileSync(join(components, type, 'index.ts'), 'utf8')).toMatch(/component:\s*lazy\(\(\) => import\('\.\/[^']+'\)\)/);
    }
  });

  it('names exactly the screen types the meta-schema accepts, besides the shell files', () => {
    const accepted = (screenMeta.properties.type.enum as string[]).filter((t) => !SHELL_FILES.includes(t));
    expect(SCREEN_TYPES.map((t) => t.type).sort()).toEqual(accepted.sort());
  });

  it('leaves no screen type folder out of the list', () => {
    const folders = readdirSync(components, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(components, d.name, 'index.ts'))).map((d) => d.name);
    expect(folders.sort()).toEqual(SCREEN_TYPES.map((t) => t.type).sort());
  });

  it('leaves no cross-check out of the list', () => {
    const checks = readdirSync(here).filter((f) => /^[a-z-]+\.ts$/.test(f) && !['check-context.ts', 'screen-types.ts'].includes(f)).map((f) => f.slice(0, -3));
    expect(checks.sort()).toEqual(SCREEN_TYPES.map((t) => t.type).sort());
  });
});
