/**
 * Build of the browser runtime. The runtime is generic: it ships no screen, text or client data,
 * so one build serves every client variant (the server hands it the merged bundle at start-up).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { build as esbuild } from 'esbuild';
import { VitePWA } from 'vite-plugin-pwa';
import { formatDefaultsDefine } from './configured-formats.ts';
import { runtimeSourceHash } from './source-hash.ts';

const runtimeDir = fileURLToPath(new URL('.', import.meta.url));
const projectDir = fileURLToPath(new URL('..', import.meta.url));
/** The entry (index.html's script), and the runtime's start it imports when the page needs it (src/start-gate.ts). */
const ENTRY_MODULE = join(runtimeDir, 'src/main.tsx');
const START_MODULE_ID = join(runtimeDir, 'src/mount.tsx');

/**
 * After the build: every text asset gets a brotli (.br) and gzip (.gz) twin, compressed once at
 * the highest level (the server sends them as they are, @fastify/static preCompressed), and the
 * hash of the sources is recorded so that `npm start` can skip an up-to-date build.
 */
function precompressAndRecord(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|mjs|css|html|svg|json|txt|map|ttf|woff)$/.test(file)) continue;
        const content = readFileSync(file);
        if (content.length < 1024) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } }));
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
      }
      // beside the output folder (dist/runtime → dist/runtime.hash, runtime/source-hash.ts HASH_FILE): a build into another
      // folder (`--outDir /tmp/…`, to measure without touching dist/) records its own hash, not dist's
      writeFileSync(`${outDir.replace(/\/+$/, '')}.hash`, `${runtimeSourceHash(projectDir)}\n`);
    },
  };
}

/**
 * The loading modal (shell/LoadingModal.tsx) written into index.html, its text from
 * locales/pl/app.json as config/i18n.ts takes it at build time: the page shows it as soon as the
 * HTML and the stylesheet are in, not once the JavaScript has run (issue 33: the first paint came
 * after ~1.9 s on Lighthouse's simulated phone). React draws the same markup over it at start.
 */
function loadingModalInPage(): Plugin {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    name: 'portal-loading-modal',
    transformIndexHtml(html) {
      const { loading } = JSON.parse(readFileSync(join(projectDir, 'locales/pl/app.json'), 'utf8')) as { loading: string };
      const text = escape(loading);
      // the backdrop first, as StaticModal draws it (a backdrop after a dialog is a stacked dialog's, styles.css)
      const modal =
        `<div class="modal-backdrop show"></div><div class="modal d-block" role="dialog" aria-modal="true" aria-label="${text}" data-testid="loading-modal"><div class="modal-dialog modal-dialog-centered modal-sm"><div class="modal-content">` +
        `<div class="modal-body d-flex align-items-center gap-3" role="status"><span class="spinner-border text-primary" aria-hidden="true"></span><span>${text}</span></div>` +
        `</div></div></div>`;
      // between its marks: the server leaves it out of a page it draws itself (server/init/first-paint.ts)
      return html.replace('<!--loading-modal-->', `<!--loading-modal-->${modal}<!--/loading-modal-->`);
    },
  };
}

/**
 * The files every page has before it asks for a screen: the entry's own imports, and the
 * runtime's start (src/mount.tsx, which the entry imports when the page needs it: start-gate.ts)
 * with its imports. Read from the finished bundle for the preload lists (modulePreload.resolveDependencies
 * below): vite writes those lists in its own generateBundle, which runs after this plugin's (vite's
 * build plugins come after the project's).
 */
const entryImports = new Set<string>();
function readEntryImports(): Plugin {
  return {
    name: 'portal-entry-imports',
    apply: 'build',
    generateBundle(_options, bundle) {
      entryImports.clear();
      const visit = (file: string) => {
        const chunk = bundle[file];
        if (entryImports.has(file) || !chunk || chunk.type !== 'chunk') return;
        entryImports.add(file);
        chunk.imports.forEach(visit);
      };
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        if (chunk.isEntry) chunk.imports.forEach(visit);
        else if (chunk.moduleIds.includes(START_MODULE_ID)) visit(chunk.fileName);
      }
    },
  };
}

/**
 * The worker's push handlers (runtime/src/pwa/push-worker.ts) as one classic script, push-sw.js,
 * which the generated worker loads by `importScripts` (below): Workbox generates the rest.
 */
function pushWorker(): Plugin {
  return {
    name: 'portal-push-worker',
    apply: 'build',
    async generateBundle() {
      const built = await esbuild({
        entryPoints: [join(runtimeDir, 'src/pwa/push-worker.ts')], bundle: true, write: false, format: 'iife', minify: true, target: 'es2022',
      });
      this.emitFile({ type: 'asset', fileName: 'push-sw.js', source: built.outputFiles[0].text });
    },
  };
}

/**
 * The service worker (issue 47; docs/decisions.md "The driver's phone: service worker and offline"):
 * generated by Workbox (generateSW) from this configuration, with only the push handlers of the project's
 * own (pushWorker above). It precaches the runtime a driver's pages run (the page, the entry, the shell, the screen
 * types, styles and icons), never the chunks only an office screen loads (the grid, the studio's
 * editor, the PDF viewer, reports' charts, the import, the password dictionary): a phone does not
 * download 5 MB it will not use. A page opened without a network is the precached index.html
 * (start-up then takes its configuration and data from what the runtime kept: api/offline-cache.ts);
 * with a network the page always comes from the server (its pre-configuration, first paint and
 * variant). The API is never handled by the worker. A new worker waits until the runtime tells it
 * to take over (pwa/update.ts: announced, never under a half-filled form). Registered by the
 * runtime (pwa/register.ts), not by an injected script: the page's CSP allows no inline script.
 */
const serviceWorker = () =>
  VitePWA({
    strategies: 'generateSW',
    registerType: 'prompt',
    injectRegister: false,
    manifest: false,
    filename: 'sw.js',
    workbox: {
      globPatterns: ['**/*.{js,mjs,css,html,svg,png,woff2}'],
      globIgnores: [
        '**/password-strength-*.js', '**/pdf.worker*', '**/PdfViewer-*', '**/TableScreen-*', '**/JsonEditor-*', '**/chart-setup-*',
        '**/Studio-*', '**/DataImport-*', '**/ReportsScreen-*', '**/*.map',
      ],
      maximumFileSizeToCacheInBytes: 1024 * 1024,
      navigateFallback: null,
      cleanupOutdatedCaches: true,
      clientsClaim: false,
      skipWaiting: false,
      inlineWorkboxRuntime: true,
      // the push and notificationclick handlers (pushWorker above)
      importScripts: ['push-sw.js'],
      sourcemap: false,
      runtimeCaching: [
        {
          // a page (/, /app/…) from the server; the precached one only when the server cannot be reached
          urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
          handler: 'NetworkOnly',
          options: { precacheFallback: { fallbackURL: 'index.html' } },
        },
      ],
    },
  });

/** The screens only the office opens, and seldom, and the terms' dialog, read once per version (modulePreload below). */
const OFFICE_SCREENS = /(^|\/)(DataImport|ReportsScreen|Studio|preview|ActionScreen|PasswordPolicy|PushDevices|SecurityScreen|TermsDialog)-[\w-]+\.js$/;

/** What goes into the framework chunk: the libraries, and the runtime's modules every page has with them. */
function inFramework(id: string): boolean {
  if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|i18next|react-i18next|jotai|@remix-run)\//.test(id)) return true;
  // the one store and the session in it, likewise: every page has them, and a lazy chunk of the
  // shell (the notifications bell) would otherwise cut them into a file of their own
  if (/runtime\/src\/state\/(store|session)\.ts$/.test(id)) return true;
  // react-i18next's useTranslation as every module takes it, typed (config/texts.ts, issue 48): with the
  // library, not a file of its own that every page would ask for (0.2 KB of the login page)
  if (/runtime\/src\/config\/texts\.ts$/.test(id)) return true;
  // the fields' rules the sign-in form draws with: shared by the form screens and the wizard's follow-ups that
  // the outbox sends (issue 47), rollup would give them a file of their own that the login page asks for too
  return /runtime\/src\/forms\/field-rules\.ts$/.test(id);
}

/**
 * The modules of the framework chunk, read from the module graph once it is built: the libraries
 * and the runtime's modules every page has (inFramework) and the runtime's start (src/mount.tsx)
 * with everything they import, but nothing the entry has itself (the press holder: the entry would
 * otherwise import the framework, 100 KB before the visitor's first use).
 */
const frameworkModules = new Set<string>();
function readFrameworkModules(): Plugin {
  return {
    name: 'portal-framework-modules',
    apply: 'build',
    buildEnd() {
      const closure = (from: string[]) => {
        const seen = new Set<string>();
        const visit = (id: string) => {
          if (seen.has(id)) return;
          seen.add(id);
          this.getModuleInfo(id)?.importedIds.forEach(visit);
        };
        from.forEach(visit);
        return seen;
      };
      const entry = closure([ENTRY_MODULE]);
      frameworkModules.clear();
      for (const id of closure([START_MODULE_ID, ...[...this.getModuleIds()].filter(inFramework)])) if (!entry.has(id)) frameworkModules.add(id);
    },
  };
}

export default defineConfig({
  root: runtimeDir,
  publicDir: 'public',
  plugins: [react(), loadingModalInPage(), readFrameworkModules(), readEntryImports(), pushWorker(), serviceWorker(), precompressAndRecord()],
  // the configured locale, zone and currency until start-up sets the bundle's (format-settings.ts)
  define: formatDefaultsDefine(projectDir),
  resolve: {
    // React 19 has the hook the shim brings for older React (react-i18next imports the shim)
    alias: [{ find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: `${runtimeDir}src/vendor/use-sync-external-store-shim.ts` }],
  },
  build: {
    // the manifest names each entry's and lazy chunk's files (tools/size-budget.ts reads it)
    manifest: true,
    outDir: `${projectDir}dist/runtime`,
    emptyOutDir: true,
    // ag-grid is large on its own; it is loaded lazily with the first table screen
    chunkSizeWarningLimit: 1600,
    // every browser the portal supports preloads modules itself (Chrome 66, Firefox 115, Safari 17);
    // the polyfill was half a KB of the login page (issue 33)
    modulePreload: {
      polyfill: false,
      // The entry names, for each screen it may load, the files to fetch with it (a list every page
      // carries, the login page too). The office's own rarely opened screens (the import, the studio,
      // reports, the studio's preview, the refresh, the password policy, security, devices) and the
      // terms' dialog (accepted once per version) fetch theirs as their code asks: a few more round
      // trips the first time, and 0.3 KB less on every page (issues 48 and 49's budget: the table
      // screen's server-listed filter, a lazy chunk of its own, cost the login page 7 bytes).
      // Nor does any list name a file every page has before it asks for a screen (the framework, the
      // bundler's runtime, the configuration's context: the entry's and the runtime's start's own,
      // readEntryImports above): issue 49, 0.1 KB of the login page, for signing in without drawing
      // the portal first. The runtime's start itself, which the entry imports, is fetched with all of its own.
      resolveDependencies: (file, deps, { hostType }) =>
        (hostType !== 'js' || entryImports.has(file) ? deps : OFFICE_SCREENS.test(file) ? [] : deps.filter((dep) => !entryImports.has(dep))),
    },
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The libraries every page runs (React, the router, i18next, jotai) and the runtime's start
            // in one chunk: left to itself rolldown cuts them into pieces named after whichever lazy
            // screen first shares them, and each piece is compressed apart (tools/size-budget.ts
            // measured ~3 KB; the start's shared modules in files of their own, 2.6 KB more on the login
            // page). Only those (readFrameworkModules): what the entry has stays the entry's.
            { name: (id) => (frameworkModules.has(id) ? 'framework' : null), includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
