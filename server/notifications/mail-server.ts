/**
 * The SMTP server as this process sees it (issue 35, "faster deliveries"): its pooled connections
 * (mailer.ts MailPool: `smtpConnections` at most) and whether it is reachable.
 *
 * When the server cannot be reached (no connection, 421), e-mails do not spend their retries
 * failing one by one against it — with pg-boss's backoff a backlog would then trickle back over
 * hours after an outage. They wait, queued with SMTP_DOWN, and the process asks every
 * `probeSeconds` whether the server is back; when it is, every e-mail that waited is queued at
 * once (`onBack`). The sweep does the same for a process that died while waiting
 * (service.ts), so the backlog never depends on one process.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { isMailConfigured, MailPool, readEmailConfig, type EmailConfig } from '../mail/mailer.ts';

export class MailServer {
  readonly pool: MailPool;
  #down = false;
  #inUse = 0;
  readonly #waiting: (() => void)[] = [];
  #probe: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly db: Kysely<DB>, private readonly options: {
    connections: () => number;
    probeSeconds: () => number;
    /** The server is back: queue what waited for it. */
    onBack: () => Promise<void>;
    onError: (error: unknown) => void;
  }) {
    this.pool = new MailPool(options.connections);
  }

  /**
   * The e-mail configuration as saved now (read for every e-mail: an administrator's change
   * applies to the next one; the pool follows a changed server by itself).
   */
  config(): Promise<EmailConfig | null> {
    return readEmailConfig(this.db);
  }

  /**
   * Runs `send` when one of this process's `smtpConnections` is free (the others wait their turn):
   * what is claimed is what is on the wire, never a queue of claimed messages behind it.
   */
  async withConnection<T>(send: () => Promise<T>): Promise<T> {
    if (this.#inUse >= this.options.connections()) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#inUse++;
    try {
      return await send();
    } finally {
      const next = this.#waiting.shift();
      if (next) next(); // the connection passes straight to the next
      else this.#inUse--;
    }
  }

  /** The server could not be reached a moment ago: e-mails wait instead of trying it. */
  get down(): boolean {
    return this.#down;
  }

  /** An e-mail found the server unreachable: wait, and ask again every probeSeconds. */
  markDown(): void {
    if (this.#down || this.#closed) return;
    this.#down = true;
    this.#schedule();
  }

  #schedule() {
    if (this.#closed) return;
    this.#probe = setTimeout(() => void this.#ask(), this.options.probeSeconds() * 1000);
    this.#probe.unref();
  }

  async #ask() {
    try {
      const config = await this.config();
      // no server configured any more: nothing to wait for here (those e-mails wait as NO_SMTP)
      if (isMailConfigured(config) && !(await this.pool.reachable(config))) return this.#schedule();
      this.#down = false;
      await this.options.onBack();
    } catch (error) {
      this.options.onError(error);
      if (this.#down) this.#schedule();
    }
  }

  /** Whether the configured server answers now (the sweep asks before it queues what waited). */
  async reachable(): Promise<boolean> {
    const config = await this.config();
    return isMailConfigured(config) && this.pool.reachable(config);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#probe);
    this.pool.close();
  }
}
