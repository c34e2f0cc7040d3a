// The row thread's entry when the server runs from its TypeScript sources (tsx, vitest): Node's own
// type stripping would load them in a worker, and it refuses what tsx compiles (parameter properties),
// so the thread registers tsx for itself first (rows-thread.ts).
import { register } from 'tsx/esm/api';

register();
await import('./rows-worker.ts');
