/**
 * `use-sync-external-store/shim` for the browser build (runtime/vite.config.ts resolve.alias):
 * react-i18next imports the shim, which brings its own copy of the hook for React before 18;
 * React 19 has it, so the shim's code is left out of the page (issue 33).
 */
export { useSyncExternalStore } from 'react';
