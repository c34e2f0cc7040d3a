import { describe, expect, it } from 'vitest';
import { buildScreenRegistry, screenRegistry } from './registry';
import { SCREEN_TYPES } from './screen-types';

describe('the screen registry', () => {
  it('holds every listed screen type with its lazily loaded component and its cross-check', () => {
    expect([...screenRegistry.keys()]).toEqual(SCREEN_TYPES.map((t) => t.type));
    for (const { type, check } of SCREEN_TYPES) {
      const module = screenRegistry.get(type)!;
      expect(module.type).toBe(type);
      expect(module.check).toBe(check);
      expect(module.component.$$typeof).toBe(Symbol.for('react.lazy'));
    }
  });

  it('says which folder is missing when a listed type has no module', () => {
    expect(() => buildScreenRegistry({})).toThrow(/screen type "login" .* has no runtime\/src\/screens\/login\/index.ts/);
  });
});
