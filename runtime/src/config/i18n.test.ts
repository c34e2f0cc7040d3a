import { describe, expect, it } from 'vitest';
import type { Bundle } from './bundle';
import { applyBundleLocales, i18n } from './i18n';

const bundleWith = (app: Record<string, unknown>) => ({ locales: { pl: { app } } }) as unknown as Bundle;

describe("the runtime's texts", () => {
  it('shows a text a variant blanked as empty, not as its key', () => {
    applyBundleLocales(bundleWith({ subtitle: '', title: 'Portal' }));
    expect(i18n.t('subtitle')).toBe('');
    expect(i18n.t('title')).toBe('Portal');
  });

  it('inserts values as written (React escapes them, not i18next)', () => {
    applyBundleLocales(bundleWith({ owner: 'owner: {{name}}' }));
    expect(i18n.t('owner', { name: 'Smith & Sons <Ltd>' })).toBe('owner: Smith & Sons <Ltd>');
  });
});
