import { describe, expect, it } from 'vitest';
import type { Bundle, Session } from './bundle';
import { conditionContext } from './context';
import { previewBundle, previewBundlePath, previewKey, previewParams, previewRoleOffered, withoutPreview } from './preview';
import { previewKey as entryPreviewKey } from '../start-gate';

describe('the preview asked for', () => {
  it('is read from the address', () => {
    expect(previewParams('?studioPreview=draft&studioVariant=t&studioRole=USER', null)).toEqual({ source: 'draft', variant: 't', role: 'USER' });
    expect(previewParams('?x=1&studioPreview=published&studioRole=ADVISOR', null)).toEqual({ source: 'published', variant: 'default', role: 'ADVISOR' });
  });

  it('is kept by the frame when the address no longer has it (after a reload of another page)', () => {
    const stored = JSON.stringify({ source: 'draft', variant: 'p', role: 'MANAGER' });
    expect(previewParams('', stored)).toEqual({ source: 'draft', variant: 'p', role: 'MANAGER' });
    // the address wins over the kept one: the studio opens a new preview
    expect(previewParams('?studioPreview=published&studioVariant=t&studioRole=USER', stored)).toEqual({ source: 'published', variant: 't', role: 'USER' });
  });

  it('is none for a malformed address or kept value', () => {
    expect(previewParams('?studioPreview=live&studioVariant=t&studioRole=USER', null)).toBeNull();
    expect(previewParams('?studioPreview=draft&studioVariant=t&studioRole=<b>', null)).toBeNull();
    expect(previewParams('?studioPreview=draft&studioVariant=../x&studioRole=USER', null)).toBeNull();
    expect(previewParams('', '{not json')).toBeNull();
    expect(previewParams('', null)).toBeNull();
  });

  it('is of a role the studio offers (its declaration\'s roles, not a list in the code)', () => {
    const bundle = { screens: { 'config-studio': { type: 'studio', roles: ['MANAGER', 'USER'] }, menu: { type: 'menu' } } } as unknown as Bundle;
    expect(previewRoleOffered(bundle, 'USER')).toBe(true);
    expect(previewRoleOffered(bundle, 'ROOT')).toBe(false);
    expect(previewRoleOffered({ screens: {} } as unknown as Bundle, 'USER')).toBe(false);
  });

  it('asks the studio for the bundle of that layer and variant', () => {
    expect(previewBundlePath({ source: 'draft', variant: 't', role: 'USER' })).toBe('/config-studio/preview?variant=t&source=draft');
  });

  it('leaves out the session gates, which concern the administrator signed in', () => {
    const bundle = { app: { name: 'x', sessionGates: [{ id: 'terms', screen: 'terms-dialog' }] } } as unknown as Bundle;
    expect(previewBundle(bundle).app.sessionGates).toEqual([]);
    expect(previewBundle(bundle).app.name).toBe('x');
  });

  it('carries the variant\'s name for the banner, as text, and drops one out of measure', () => {
    expect(previewParams('?studioPreview=draft&studioVariant=t&studioRole=USER&studioVariantName=Klient%20T', null)).toEqual({ source: 'draft', variant: 't', role: 'USER', variantName: 'Klient T' });
    expect(previewParams(`?studioPreview=draft&studioVariant=t&studioRole=USER&studioVariantName=${'x'.repeat(101)}`, null)).toEqual({ source: 'draft', variant: 't', role: 'USER' });
  });

  it('ends by the same address without its parameters', () => {
    expect(withoutPreview('http://h/app/zlecenia?studioPreview=draft&studioVariant=t&studioRole=USER&studioVariantName=T&tab=2#x')).toBe('/app/zlecenia?tab=2#x');
  });
});

describe('the role conditions see in a preview', () => {
  const session = { token: 't', user: { rola: 'ADMIN', login: 'admin' } } as unknown as Session;
  // the role is read from the field screens/app.json sessionFields names (issue 45)
  const bundle = { variant: 't', config: {}, app: { sessionFields: { role: 'rola' } } } as unknown as Pick<Bundle, 'variant' | 'config' | 'app'>;

  it('is the previewed role instead of the user`s, in `role` and in the session', () => {
    const ctx = conditionContext(bundle, session, null, 'USER');
    expect(ctx.role).toBe('USER');
    expect(ctx.session).toMatchObject({ rola: 'USER', login: 'admin' });
    expect(conditionContext(bundle, session).role).toBe('ADMIN');
    expect(conditionContext(bundle, null).role).toBeNull();
  });

  it('is read from the field the configuration names, wherever that is', () => {
    const other = { ...bundle, app: { sessionFields: { role: 'kind' } } } as unknown as Pick<Bundle, 'variant' | 'config' | 'app'>;
    const user = { token: 't', user: { kind: 'MANAGER', rola: 'ADMIN', login: 'm' } } as unknown as Session;
    expect(conditionContext(other, user).role).toBe('MANAGER');
    expect(conditionContext(other, user, null, 'USER').session).toMatchObject({ kind: 'USER', rola: 'ADMIN' });
  });
});

describe('the key a frame keeps its preview under', () => {
  it('is the same for the entry (which asks) and the preview module (which keeps it), one for a tab and one for a frame', () => {
    const g = globalThis as Record<string, unknown>;
    const saved = { self: g.self, top: g.top };
    try {
      g.self = g.top = {};
      expect(previewKey()).toBe('portal.studioPreview');
      expect(entryPreviewKey()).toBe(previewKey());
      g.top = {};
      expect(previewKey()).toBe('portal.studioPreview.frame');
      expect(entryPreviewKey()).toBe(previewKey());
    } finally {
      Object.assign(g, saved);
    }
  });
});
