import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildScreenRegistry, screenRegistry } from './registry';
import { SCREEN_TYPES } from '../../core/screen-checks/screen-types';

describe('the screen registry', () => {
  it('holds every listed screen type, and no other, with its lazily loaded component', () => {
    expect([...screenRegistry.keys()].sort()).toEqual(SCREEN_TYPES.map((t) => t.type).sort());
    for (const { type } of SCREEN_TYPES) {
      const module = screenRegistry.get(type)!;
      expect(module.type).toBe(type);
      expect(module.component.$$typeof).toBe(Symbol.for('react.lazy'));
    }
  });

  it('says which folder declares another type', () => {
    expect(() => buildScreenRegistry({ './login/index.ts': { ...screenRegistry.get('table')! } })).toThrow(/runtime\/src\/screens\/login\/index.ts must export the screenType of type "login"/);
  });

  it('leaves the cross-checks out of the browser: no folder module imports one', () => {
    for (const { type } of SCREEN_TYPES) expect(readFileSync(join(import.meta.dirname, type, 'index.ts'), 'utf8')).not.toMatch(/screen-checks/);
  });

  it('loads ahead, for a visitor, the types that declare what they load', async () => {
    const first = [...screenRegistry.values()].filter((m) => m.guestFirst);
    expect(first.length).toBeGreaterThan(0);
    for (const module of first) expect(await module.load!()).toHaveProperty('default');
  });
});
