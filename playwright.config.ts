import { defineConfig } from '@playwright/test';
import { E2E_WORKERS, portOfWorker } from './tests/browser/ports';
import { chromiumLaunchOptions } from './tools/chromium.ts';

// Browser journeys against the real server, driving Debian's chromium; never a downloaded browser.
// Each Playwright worker has a server and a database of its own (tests/browser/serve.ts, from the
// seeded snapshot): journeys in different workers never share data, and within a worker the files
// run one after another as before. The config is read again in each worker process, where
// TEST_PARALLEL_INDEX says which worker it is, so `baseURL` is that worker's server.
export default defineConfig({
  testDir: 'tests/browser',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: E2E_WORKERS,
  retries: 0,
  // Generous, not slow: a passing step waits only as long as it takes. CI runs on a shared two-core
  // machine whose load doubles a journey's time from run to run (1,425 s against 648 s for the same
  // 223 journeys): a step that took 10 s there failed a journey that passes in 2 s on a quiet
  // machine. Speed is measured in `npm run bench`, never by a journey's time-out.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  // On failure the list reporter prints the journey's error with the paths of its trace and
  // screenshot; the JUnit file is for any CI to show. Playwright empties outputDir as it starts, so
  // its artifacts have a folder of their own and the JUnit file (written at the end) sits beside it,
  // next to whatever other tools write into test-results/.
  // journey-steps-reporter puts a failing journey's steps into its journey-log.txt (tests/browser/journey-log.ts).
  reporter: [['list'], ['./tests/browser/journey-steps-reporter.ts'], ['junit', { outputFile: 'test-results/junit/browser.xml' }]],
  outputDir: 'test-results/artifacts',
  use: {
    baseURL: `http://127.0.0.1:${portOfWorker()}`,
    locale: 'pl-PL',
    // The journeys are about what users do and see, not how a dialog fades: with the system's
    // "reduce motion" (Bootstrap's transitions off, charts drawn at once) a dialog, toast or
    // collapse is there a frame after it is asked for instead of 150–300 ms later, and axe scans a
    // page without waiting for its fades (issue 44: config-studio, variants and dashboard 201 → 187 s).
    reducedMotion: 'reduce',
    viewport: { width: 1400, height: 900 },
    screenshot: 'only-on-failure',
    // kept only for a failing journey (open with `npx playwright show-trace <path>`): its actions
    // with their call logs, the network and the console. Without DOM snapshots and screencast
    // frames, which every journey would pay for in the browser (a grid screen's DOM is large); the
    // failure's screenshot and error-context.md (the page's accessibility tree) show the page.
    trace: { mode: 'retain-on-failure', snapshots: false, screenshots: false },
    // The portal's service worker precaches the whole runtime (120 files, 1.7 MB) a second after
    // each page is up: every journey's new context paid for it, ~30 % of the browser's CPU on short
    // journeys (docs/decisions.md). Blocked (register() is a no-op) except where it is the subject:
    // driver-offline and push allow it; E2E_SERVICE_WORKERS=allow brings it back everywhere.
    serviceWorkers: process.env.E2E_SERVICE_WORKERS === 'allow' ? 'allow' : 'block',
    // Debian's chromium, headless, without its omnibox pop-ups' renderers (tools/chromium.ts: they
    // were 60 % of the browser's CPU per context with Chromium 156)
    launchOptions: chromiumLaunchOptions,
  },
  webServer: Array.from({ length: E2E_WORKERS }, (_, worker) => ({
    command: 'npx tsx tests/browser/serve.ts',
    url: `http://127.0.0.1:${portOfWorker(worker)}/api/health`,
    env: {
      PORT: String(portOfWorker(worker)),
      ...(process.env.DATABASE_URL ? { E2E_SCHEMA: `${process.env.E2E_SCHEMA || 'e2e'}_${worker}` } : {}),
    },
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
