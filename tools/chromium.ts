/**
 * How the journeys and the tools start Debian's chromium (never a downloaded browser): headless,
 * without the sandbox and the GPU, and without the browser's own omnibox pop-ups.
 *
 * Chromium 156 (Debian's 156.0.8078.114, December 2026) draws the address bar's suggestion
 * pop-ups as WebUI pages (chrome://omnibox-popup.top-chrome/ and its AI-mode twin), and the new
 * headless mode makes them for every window: each browser context a journey opens started a
 * renderer of its own for them. Measured on this machine (8 contexts, one blank page each, the
 * browser's processes' CPU from /proc): 17–18 s of CPU with them, 4.4–4.8 s without; the pop-up
 * renderers alone were 60 % of it. A journey never types in the address bar, which headless
 * chromium does not even show.
 *
 * Chromium keeps only the last `--disable-features` of its command line, and Playwright passes
 * its own list (features that make automation reliable: PaintHolding, HttpsUpgrades …). So the
 * launch drops Playwright's switch and passes one list: Playwright's and these two.
 * tools/chromium.test.ts fails when an upgrade of Playwright changes its list, naming
 * what to copy here.
 */

/** Playwright 1.65's own `--disable-features` (playwright-core, server/chromium/chromiumSwitches). */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** The WebUI pop-ups of the address bar (see above). */
export const OMNIBOX_WEBUI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The switches of every chromium this project starts (Playwright's launch, chrome-launcher's flags). */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** Playwright's launch options: its own feature switch replaced by the one list. */
export const chromiumLaunchOptions = {
  executablePath: CHROMIUM_PATH,
  args: [...CHROMIUM_ARGS, `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES].join(',')}`],
  ignoreDefaultArgs: [`--disable-features=${PLAYWRIGHT_DISABLED_FEATURES.join(',')}`],
};

/**
 * chrome-launcher's flags (Lighthouse) with ours: its defaults (`Launcher.defaultFlags()`, passed
 * with `ignoreDefaultFlags: true`) with the pop-ups added to their `--disable-features`.
 */
export function chromeLauncherFlags(defaults: readonly string[]): string[] {
  const hasList = defaults.some((flag) => flag.startsWith('--disable-features='));
  const merged = defaults.map((flag) => (flag.startsWith('--disable-features=') ? `${flag},${OMNIBOX_WEBUI_FEATURES.join(',')}` : flag));
  return [...merged, ...(hasList ? [] : [`--disable-features=${OMNIBOX_WEBUI_FEATURES.join(',')}`]), ...CHROMIUM_ARGS];
}
