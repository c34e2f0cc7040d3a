// The trail thread's entry when the server runs from its TypeScript sources (tsx, vitest); see
// rows-worker-from-sources.mjs for why the thread registers tsx for itself first.
import { register } from 'tsx/esm/api';

register();
await import('./trail-worker.ts');
