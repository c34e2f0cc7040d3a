/**
 * Build of the browser runtime. The runtime is generic: it ships no screen, text or client data,
 * so one build serves every client variant (the server hands it the merged bundle at start-up).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const runtimeDir = fileURLToPath(new URL('.', import.meta.url));
const projectDir = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: runtimeDir,
  publicDir: 'public',
  plugins: [react()],
  build: {
    outDir: `${projectDir}dist/runtime`,
    emptyOutDir: true,
    // ag-grid is large on its own; it is loaded lazily with the first table screen
    chunkSizeWarningLimit: 1600,
  },
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
});
