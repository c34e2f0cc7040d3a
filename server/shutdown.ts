/**
 * Graceful stop on SIGTERM / SIGINT: stop accepting connections, let the requests in flight finish
 * (fastify's close waits for them and answers 503 to a new request on a kept-alive socket;
 * sockets are closed as soon as they fall idle), then run the onClose hooks (the database is closed last) and exit 0.
 * A second signal, or `timeoutMs` without finishing, ends the process with 1. A worker of
 * server/cluster.ts stops on its primary's SIGTERM, or when its primary is gone.
 */
import type { FastifyInstance } from 'fastify';

export function stopGracefullyOnSignals(app: FastifyInstance, timeoutMs: number, options: { worker?: boolean } = {}): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // a worker hears SIGTERM twice when the whole group is signalled (systemd's control-group
      // stop, kill -TERM -<pgid>) and its primary forwards one too: it goes on draining; its
      // primary ends it if the drain takes too long
      if (options.worker) return;
      process.exit(1);
    }
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    setTimeout(() => {
      console.error(`shutdown did not finish within ${timeoutMs} ms; exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    // a keep-alive socket whose request finishes after the close began would keep the server
    // open until the client lets go: close each one as soon as it falls idle
    const sweep = setInterval(() => app.server.closeIdleConnections?.(), 100);
    sweep.unref();
    app.close().then(
      () => process.exit(0),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  if (options.worker) {
    // a worker of server/cluster.ts: the primary decides when it stops (it sends SIGTERM); the
    // terminal's Ctrl-C reaches the whole process group and must not end a worker twice over.
    // A primary that is gone (killed) leaves the worker without new connections: stop then too.
    process.on('SIGINT', () => undefined);
    process.on('disconnect', () => stop('disconnect'));
  } else {
    process.on('SIGINT', () => stop('SIGINT'));
  }
}
