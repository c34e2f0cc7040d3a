/**
 * The typed `t` (texts.ts): a literal key locales/pl lacks is a TypeScript error (`npm run check`
 * runs tsc over this file: an `@ts-expect-error` with nothing to expect fails it), a key made at
 * run time passes.
 */
import { describe, expect, it } from 'vitest';
import type { Texts } from './texts';

const t: Texts = (key) => `[${key}]`;

describe('the typed t', () => {
  it('takes a known key, a plural by its key, and a key made at run time', () => {
    expect(t('app:loading')).toBe('[app:loading]');
    expect(t('loading')).toBe('[loading]');
    // locales/pl has texts.found_one, _few, _many, _other: `t` is given the key without the form
    expect(t('config-studio:texts.found', { count: 2 })).toBe('[config-studio:texts.found]');
    const role: string = 'ADMIN';
    expect(t(`app:roles.${role}`)).toBe('[app:roles.ADMIN]');
    const configured: string = 'menu:items.vehicles';
    expect(t(configured)).toBe('[menu:items.vehicles]');
  });

  it('refuses a literal key locales/pl does not have (a TypeScript error)', () => {
    // @ts-expect-error a misspelt key
    expect(t('app:loadnig')).toBe('[app:loadnig]');
    // @ts-expect-error a namespace that does not exist
    expect(t('no-such-namespace:title')).toBe('[no-such-namespace:title]');
  });
});
