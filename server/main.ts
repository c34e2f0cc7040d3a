/**
 * `npm start`: opens the database (PGlite in DATA_DIR, ./data by default, or DATABASE_URL),
 * migrates and seeds it on first start, loads the configuration of PORTAL_VARIANT, and listens on
 * PORT (3000); HOST chooses the interface (0.0.0.0). A configuration error stops start-up with file, JSON pointer and reason.
 */
import { readFileSync, watch } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError } from './config/load-bundle.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDatabase } from './seed/seed.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

async function main() {
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = databaseUrl ? undefined : resolve(process.env.DATA_DIR || join(root, 'data'));
  // DATABASE_SCHEMA keeps a PostgreSQL installation's portal in its own schema (tests use it).
  const database = await openDatabase({ databaseUrl, dataDir, schema: databaseUrl ? process.env.DATABASE_SCHEMA || undefined : undefined });
  try {
    await migrateToLatest(database.db);
    await seedDatabase(database.db, {});
    const app = await buildApp({
      db: database.db,
      root,
      variant: process.env.PORTAL_VARIANT || undefined,
      version,
      staticDir: join(root, 'dist/runtime'),
      logger: process.env.LOG !== 'off',
      trustProxy: process.env.TRUST_PROXY || undefined,
    });
    app.addHook('onClose', async () => database.close());
    if (process.argv.includes('--dev')) watchConfiguration(app);
    const port = Number(process.env.PORT || 3000);
    await app.listen({ port, host: process.env.HOST || '0.0.0.0' });
    const stop = async () => {
      await app.close();
      process.exit(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (e) {
    await database.close();
    throw e;
  }
}

/** `npm run dev`: a changed JSON file reloads the configuration; a broken one keeps the old and says why. */
function watchConfiguration(app: Awaited<ReturnType<typeof buildApp>>) {
  let timer: NodeJS.Timeout | undefined;
  for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) {
    watch(join(root, dir), { recursive: true }, (_event, file) => {
      if (!String(file).endsWith('.json')) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        app.config.reload().then(
          () => console.log(`configuration reloaded (${file})`),
          (e) => console.error(e instanceof ConfigError ? e.message : e),
        );
      }, 150);
    });
  }
}

main().catch((e) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});
