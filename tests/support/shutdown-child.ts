/**
 * A child process for tests/api/graceful-shutdown.test.ts: the application on a throwaway seeded
 * database, listening on PORT, with the SIGTERM handling of `npm start` (server/shutdown.ts).
 * Prints "listening" when ready.
 */
import { buildApp } from '../../server/app.ts';
import { openTestDatabase } from '../../server/seed/testing.ts';
import { stopGracefullyOnSignals } from '../../server/shutdown.ts';
import { ROOT } from './test-app.ts';

const database = await openTestDatabase({ seed: true });
const app = await buildApp({ db: database.db, root: ROOT, version: 'test' });
app.addHook('onClose', async () => database.close());
stopGracefullyOnSignals(app, 10_000);
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('listening');
