import { defineConfig } from 'vitest/config';

// Unit, API and config tests. Browser journeys are Playwright's (tests/browser, `playwright test`).
export default defineConfig({
  test: {
    include: ['runtime/**/*.test.ts', 'runtime/**/*.test.tsx', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'tools/**/*.test.ts'],
    exclude: ['node_modules', 'dist', 'tests/browser/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // every answer an API test receives is checked against the OpenAPI document (issue 27)
    setupFiles: ['tests/support/conformance-setup.ts'],
  },
});
