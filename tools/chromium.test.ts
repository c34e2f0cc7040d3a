import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromeLauncherFlags, chromiumLaunchOptions, OMNIBOX_WEBUI_FEATURES, PLAYWRIGHT_DISABLED_FEATURES } from './chromium.ts';

/** The feature list Playwright passes chromium, read from the installed playwright-core's source. */
function installedPlaywrightDisabledFeatures(): string[] {
  const require = createRequire(import.meta.url);
  const bundle = readFileSync(join(dirname(require.resolve('playwright-core/package.json')), 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(bundle);
  if (!list) throw new Error('playwright-core no longer declares `disabledFeatures = [...]`: read its chromium switches again and update tools/chromium.ts');
  return [...list[1].replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

describe('the chromium the journeys start', () => {
  it("replaces Playwright's own feature switch by one that keeps every feature Playwright turns off", () => {
    // an upgrade of Playwright that changed its list fails here: copy the new list into tools/chromium.ts
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(installedPlaywrightDisabledFeatures());
    expect(chromiumLaunchOptions.ignoreDefaultArgs).toEqual([`--disable-features=${installedPlaywrightDisabledFeatures().join(',')}`]);
    const switches = chromiumLaunchOptions.args.filter((arg) => arg.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    expect(switches[0].slice('--disable-features='.length).split(',')).toEqual([...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES]);
  });

  it("adds the pop-ups to chrome-launcher's own feature list rather than a second switch chromium would prefer", () => {
    const flags = chromeLauncherFlags(['--no-first-run', '--disable-features=Translate,MediaRouter']);
    expect(flags.filter((flag) => flag.startsWith('--disable-features='))).toEqual([`--disable-features=Translate,MediaRouter,${OMNIBOX_WEBUI_FEATURES.join(',')}`]);
    expect(chromeLauncherFlags(['--no-first-run']).filter((flag) => flag.startsWith('--disable-features='))).toEqual([`--disable-features=${OMNIBOX_WEBUI_FEATURES.join(',')}`]);
    expect(flags).toContain('--headless');
  });
});
