import { describe, expect, it } from 'vitest';
import { loadBundle } from './load-bundle.ts';
import { accountRolesFor, resetLink, sessionConfig } from './security.ts';
import { resolve } from 'node:path';

describe('sign-in settings read from screens/app.json', () => {
  const bundle = loadBundle({ root: resolve(import.meta.dirname, '../..') });

  it('admits administrators through the manager choice, and nobody through an unknown choice', () => {
    expect(accountRolesFor(bundle.app, 'MANAGER')).toEqual(['MANAGER', 'ADMIN']);
    expect(accountRolesFor(bundle.app, 'USER')).toEqual(['USER']);
    expect(accountRolesFor(bundle.app, 'ADMIN')).toEqual([]);
    expect(accountRolesFor(bundle.app, 'toString')).toEqual([]);
  });

  it('links the reset mail to the configured page on the server\'s own origin', () => {
    expect(resetLink(bundle.app, 'https://portal.example/')).toBe('https://portal.example/?reset');
  });

  it('copies into the session only the config flags sessionConfig names', () => {
    expect(sessionConfig(bundle.app, { hideRangeForManager: true, showTiresTable: false })).toEqual({ hideRangeForManager: true });
    expect(sessionConfig(bundle.app, {})).toEqual({});
  });
});
