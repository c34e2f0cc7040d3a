/**
 * The service worker's own code beside Workbox's (issue 47): the Web Push handlers. Built apart
 * (runtime/vite.config.ts `pushWorker`: one small classic script, push-sw.js) and pulled into the
 * generated worker by Workbox's `importScripts`, so the worker stays generated from configuration
 * and the handlers stay unit-tested in push-handlers.ts.
 */
import { registerPushHandlers, type WorkerScopeLike } from './push-handlers';

registerPushHandlers(globalThis as unknown as WorkerScopeLike, { icon: '/icons/icon-192.png', badge: '/icons/icon-192.png' });
