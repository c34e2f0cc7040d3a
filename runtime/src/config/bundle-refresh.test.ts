import { describe, expect, it, vi } from 'vitest';
import { bundleAnsweredAt, BundleRefresher, MIN_INTERVAL_MS, shouldCheck, type FetchNewer } from './bundle-refresh';
import type { Bundle } from './bundle';
import type { LoadedConfig } from './ConfigContext';

const config = (etag: string | null | undefined, version = '1'): LoadedConfig =>
  ({ etag, bundle: { version } as Bundle, preConfig: {} as LoadedConfig['preConfig'], conditions: {} as LoadedConfig['conditions'], branding: {} }) as LoadedConfig;

describe('whether a navigation asks for the bundle again', () => {
  it('asks at most once per interval, never while a check is on its way, never without an ETag', () => {
    expect(shouldCheck({ lastCheck: 0, inFlight: false }, '"a"', MIN_INTERVAL_MS)).toBe(true);
    expect(shouldCheck({ lastCheck: 0, inFlight: false }, '"a"', MIN_INTERVAL_MS - 1)).toBe(false);
    expect(shouldCheck({ lastCheck: 0, inFlight: true }, '"a"', 10 * MIN_INTERVAL_MS)).toBe(false);
    // a preview (config/preview.tsx) has no ETag: the studio reloads it
    expect(shouldCheck({ lastCheck: 0, inFlight: false }, null, 10 * MIN_INTERVAL_MS)).toBe(false);
    expect(shouldCheck({ lastCheck: 0, inFlight: false }, undefined, 10 * MIN_INTERVAL_MS)).toBe(false);
  });
});

describe('when start-up’s bundle came', () => {
  it('is read from the page’s resource timings: the bundle’s answer among other calls, none without it', () => {
    const entries = (names: string[]) => names.map((name, i) => ({ name, responseEnd: 100 + i }) as unknown as PerformanceEntry);
    const spy = vi.spyOn(performance, 'getEntriesByType');
    try {
      spy.mockReturnValue(entries(['http://portal.test/api/init/pre-config', 'http://portal.test/api/ui/config', 'http://portal.test/api/ui/config']));
      expect(bundleAnsweredAt()).toBe(performance.timeOrigin + 101);
      spy.mockReturnValue(entries(['http://portal.test/api/init/pre-config']));
      expect(bundleAnsweredAt()).toBeUndefined();
    } finally {
      spy.mockRestore();
    }
  });
});

describe('the refresh at navigations', () => {
  function setup(answers: Awaited<ReturnType<FetchNewer>>[], bundleCameMsBefore?: number) {
    let now = 1_000_000;
    const fetchNewer = vi.fn<FetchNewer>(async () => answers.shift() ?? null);
    const rebuild = vi.fn(async (current: LoadedConfig, bundle: Bundle, etag: string | null) => ({ ...current, bundle, etag }));
    const refresher = new BundleRefresher(fetchNewer, rebuild, () => now, () => (bundleCameMsBefore === undefined ? undefined : now - bundleCameMsBefore));
    const applied: LoadedConfig[] = [];
    const navigate = (current: LoadedConfig, afterMs: number) => {
      now += afterMs;
      return refresher.onNavigation(current, (c) => applied.push(c));
    };
    return { fetchNewer, rebuild, applied, navigate };
  }

  it('does not ask at the first route (start-up has just loaded the bundle), then asks with the ETag in use', async () => {
    const { fetchNewer, applied, navigate } = setup([null]);
    await navigate(config('"a"'), 0);
    expect(fetchNewer).not.toHaveBeenCalled();
    await navigate(config('"a"'), MIN_INTERVAL_MS);
    expect(fetchNewer).toHaveBeenCalledWith('"a"');
    expect(applied).toEqual([]); // 304: nothing changes
  });

  it('counts the first interval from when start-up’s bundle came, not from the first route (drawn later on a slow phone)', async () => {
    const { fetchNewer, navigate } = setup([null], 1500);
    await navigate(config('"a"'), 0);
    await navigate(config('"a"'), MIN_INTERVAL_MS - 1500);
    expect(fetchNewer).toHaveBeenCalledWith('"a"');
  });

  it('asks at most once per ~2 s of navigations', async () => {
    const { fetchNewer, navigate } = setup([]);
    await navigate(config('"a"'), 0);
    await navigate(config('"a"'), MIN_INTERVAL_MS);
    await navigate(config('"a"'), 500);
    await navigate(config('"a"'), 500);
    expect(fetchNewer).toHaveBeenCalledTimes(1);
    await navigate(config('"a"'), 1000);
    expect(fetchNewer).toHaveBeenCalledTimes(2);
  });

  it('replaces the configuration on a newer bundle, and asks with the new ETag afterwards', async () => {
    const newer = { bundle: { version: '2' } as Bundle, etag: '"b"' };
    const { fetchNewer, rebuild, applied, navigate } = setup([newer]);
    const first = config('"a"');
    await navigate(first, 0);
    await navigate(first, MIN_INTERVAL_MS);
    expect(rebuild).toHaveBeenCalledWith(first, newer.bundle, '"b"');
    expect(applied).toHaveLength(1);
    expect(applied[0].bundle.version).toBe('2');
    await navigate(applied[0], MIN_INTERVAL_MS);
    expect(fetchNewer).toHaveBeenLastCalledWith('"b"');
  });

  it('does not hold a navigation: a second one while a check is on its way asks nothing, and a failed check is asked again later', async () => {
    let release!: () => void;
    const fetchNewer = vi.fn<FetchNewer>(() => new Promise((_, reject) => (release = () => reject(new Error('offline')))));
    let now = 0;
    const refresher = new BundleRefresher(fetchNewer, vi.fn(), () => now, () => undefined);
    await refresher.onNavigation(config('"a"'), () => undefined);
    now += MIN_INTERVAL_MS;
    const pending = refresher.onNavigation(config('"a"'), () => undefined);
    now += MIN_INTERVAL_MS;
    await refresher.onNavigation(config('"a"'), () => undefined); // returns at once: one is in flight
    expect(fetchNewer).toHaveBeenCalledTimes(1);
    release();
    await pending;
    now += MIN_INTERVAL_MS;
    void refresher.onNavigation(config('"a"'), () => undefined);
    expect(fetchNewer).toHaveBeenCalledTimes(2);
  });

  it('never asks in a preview (no ETag)', async () => {
    const { fetchNewer, navigate } = setup([]);
    await navigate(config(undefined), 0);
    await navigate(config(undefined), MIN_INTERVAL_MS);
    await navigate(config(null), MIN_INTERVAL_MS);
    expect(fetchNewer).not.toHaveBeenCalled();
  });
});
