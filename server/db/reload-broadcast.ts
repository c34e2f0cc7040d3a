/**
 * One configuration across every process of a portal: when one process reloads its configuration
 * (the admin's "Odśwież aplikację", later a published change), it tells the others through the
 * database (NOTIFY on `portal_config`), and each of them reloads too. Every process of a portal
 * shares its database, and nothing else: that is the one channel they all hear.
 *
 * Channels are database-wide, so a message names the schema of the portal that sent it (tests and
 * DATABASE_SCHEMA put several portals in one database) and its sender, which ignores its own echo.
 * When the listening connection was lost and came back, a message may have been missed: the
 * process then reloads anyway, which costs one read of the files and is never wrong.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { notificationsOf, type NotificationSubscription } from './connect.ts';

export const CONFIG_CHANNEL = 'portal_config';

/** This process, as named in the messages it sends. */
const ORIGIN = randomUUID();

interface ReloadMessage {
  schema: string;
  origin: string;
}

/** Tells every other process of this portal to reload its configuration. */
export async function announceReload(app: FastifyInstance): Promise<void> {
  const schema = await currentSchema(app);
  const message: ReloadMessage = { schema, origin: ORIGIN };
  await sql`select pg_notify(${CONFIG_CHANNEL}, ${JSON.stringify(message)})`.execute(app.db);
}

/**
 * Reloads this process's configuration whenever another process of the same portal announces a
 * reload (and after a gap in listening). Runs from onReady to onClose of the app; a database that
 * cannot LISTEN here (not opened by db/connect.ts) leaves the process on its own configuration.
 */
export function followReloads(app: FastifyInstance, reload: () => Promise<void>): void {
  let subscription: NotificationSubscription | undefined;
  let running = Promise.resolve();
  // reloads run one after another: two announcements in quick succession still end on the newest files
  const reloadInTurn = (why: string) => {
    running = running.then(reload).then(
      () => app.log.info({ why }, 'configuration reloaded on announcement of another process'),
      (error) => app.log.error({ err: error, why }, 'configuration reload announced by another process was refused; keeping the one in use'),
    );
  };
  app.addHook('onReady', async () => {
    const subscribe = notificationsOf(app.db);
    if (!subscribe) return;
    try {
      const schema = await currentSchema(app);
      // the first LISTEN is reported as a gap too; nothing can have been missed before it (the
      // configuration was just loaded), and a reload then would undo what start-up set on it
      let listening = false;
      subscription = await subscribe(CONFIG_CHANNEL, {
        message: (payload) => {
          const message = parse(payload);
          if (message && message.schema === schema && message.origin !== ORIGIN) reloadInTurn('announced');
        },
        gap: () => {
          if (listening) reloadInTurn('listening resumed after a gap');
        },
      });
      listening = true;
    } catch (error) {
      // a database away at start-up must not stop the server; the admin's reload still works here
      app.log.warn({ err: error }, 'not listening for configuration reloads of other processes');
    }
  });
  // before the onClose hooks, one of which closes the database (main.ts): unlistening after that fails
  app.addHook('preClose', async () => {
    await subscription?.close().catch(() => undefined);
    await running;
  });
}

async function currentSchema(app: FastifyInstance): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db);
  return rows[0].schema;
}

function parse(payload: string): ReloadMessage | undefined {
  try {
    const value = JSON.parse(payload) as Partial<ReloadMessage>;
    return typeof value.schema === 'string' && typeof value.origin === 'string' ? (value as ReloadMessage) : undefined;
  } catch {
    return undefined;
  }
}
