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
import { runtimeSourceHash } from '../tools/runtime-hash.ts';

const runtimeDir = fileURLToPath(new URL('.', import.meta.url));
const projectDir = fileURLToPath(new URL('..', import.meta.url));

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
      // beside the output folder (dist/runtime → dist/runtime.hash, tools/runtime-hash.ts HASH_FILE): a build into another
      // folder (`--outDir /tmp/…`, to measure without touching dist/) records its own hash, not dist's
      writeFileSync(`${outDir.replace(/\/+$/, '')}.hash`, `${runtimeSourceHash(projectDir)}\n`);
    },
  };
}

export default defineConfig({
  root: runtimeDir,
  publicDir: 'public',
  plugins: [react(), precompressAndRecord()],
  build: {
    // the manifest names each entry's and lazy chunk's files (tools/size-budget.ts reads it)
    manifest: true,
    outDir: `${projectDir}dist/runtime`,
    emptyOutDir: true,
    // ag-grid is large on its own; it is loaded lazily with the first table screen
    chunkSizeWarningLimit: 1600,
    rollupOptions: {
      output: {
        // The libraries every page runs (React, the router, i18next, jotai) in one chunk of their
        // own: left to itself rollup cuts them into pieces named after whichever lazy screen first
        // shares them, and each piece is compressed apart (tools/size-budget.ts measured ~3 KB).
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|scheduler|react-router|react-router-dom|i18next|react-i18next|jotai|@remix-run)\//.test(id)) return 'framework';
          // the one store and the session in it, likewise: every page has them, and a lazy chunk of the
          // shell (the notifications bell) would otherwise cut them into a file of their own
          if (/runtime\/src\/state\/(store|session)\.ts$/.test(id)) return 'framework';
          return undefined;
        },
      },
    },
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
