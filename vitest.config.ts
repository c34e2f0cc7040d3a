import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { formatDefaultsDefine } from './runtime/configured-formats.ts';

// Unit, API and config tests. Browser journeys are Playwright's (tests/browser/*.spec.ts, `playwright test`).
export default defineConfig({
  // the runtime's format settings before start-up: the configured locale, zone and currency (format-settings.ts)
  define: formatDefaultsDefine(fileURLToPath(new URL('.', import.meta.url))),
  test: {
    include: ['runtime/**/*.test.ts', 'runtime/**/*.test.tsx', 'server/**/*.test.ts', 'tests/**/*.test.ts', 'tools/**/*.test.ts'],
    exclude: ['node_modules', 'dist'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on CI's two. The tests wait on
    // databases, child processes and sockets a good part of the time, so one more worker than
    // cores keeps both busy; and a worker keeps its modules between files (no isolation: each file
    // already opens its own database and app), which saves the imports and the configuration's
    // compiled schemas per file. Measured on the whole suite, PGlite, 2 cores: 790 s → 456 s.
    maxWorkers: availableParallelism() + 1,
    isolate: false,
    // A fork opens and closes hundreds of PGlite instances. V8 aborted one on CI while its wasm code
    // GC freed their import wrappers ("Check failed: jit_page_->allocations_.erase(addr) == 1" in
    // WasmImportWrapperCache::Free, nodejs/node#64500), even with one compiled module per process
    // (server/db/pglite-code.ts). Without wasm code GC that code is never freed, and a fork's peak
    // memory measured the same (2.13 against 2.17 GB on tests/api/[a-f]*, docs/decisions.md).
    execArgv: ['--no-wasm-code-gc'],
    // every answer an API test receives is checked against the OpenAPI document (issue 27)
    setupFiles: ['tests/support/conformance-setup.ts'],
    // JUnit XML that any CI shows (issue 44), one file per database pass; the journeys' is beside it
    reporters: ['default', ['junit', { outputFile: `test-results/junit/vitest-${process.env.DATABASE_URL ? 'postgresql' : 'pglite'}.xml` }]],
  },
});
