/**
 * The outbox (issue 47): what a driver sends without a network waits in the browser and is sent
 * when the network returns — in the order it was made, each submission once. "Once" is the
 * server's promise for a repeated Idempotency-Key (server/plugins/idempotency.ts): an attempt
 * whose answer was lost is simply sent again under its key, and the server answers it with the
 * first answer instead of writing again. Every attempt goes through the API client, signed anew.
 *
 * - A submission the server refuses (a reading lower than the last one: 400 with its reason) is
 *   kept, marked failed with the server's reason, and not sent again; the driver sees why and
 *   removes it. The ones after it still go.
 * - No network, a server error or a lapsed session stops the round: the rest wait, in order, for
 *   the next one (the network's return, the next page, a minute later).
 * - One round at a time per browser (Web Locks across tabs), so two tabs never send one item side by side.
 * - Only the signed-in user's submissions are sent or shown (docs/decisions.md "Offline: whose
 *   data"); another user's are forgotten when he signs in.
 */
import type { OfflineStorage, Submission } from './offline-types';

/** How an attempt ended, as the outbox acts on it. */
export type AttemptFailure = { kind: 'retry' } | { kind: 'refused'; reason: string };

export interface OutboxDeps {
  storage: OfflineStorage;
  /** Makes the submission's calls (each signed anew, under the submission's keys). */
  send(submission: Submission): Promise<void>;
  /** What a failed attempt means: try again later, or a refusal to show. */
  classify(error: unknown): AttemptFailure;
  now(): number;
  /** Runs one round at a time (Web Locks across the browser's tabs; in-process otherwise). */
  exclusive?<T>(run: () => Promise<T>): Promise<T>;
}

export interface RoundResult {
  sent: number;
  refused: number;
  /** Still waiting after the round (not sent, not refused). */
  waiting: number;
}

export class Outbox {
  private round: Promise<RoundResult> | null = null;

  constructor(private readonly deps: OutboxDeps) {}

  /** Keeps a submission to send later; its id. */
  add(submission: Omit<Submission, 'id'>): Promise<number> {
    return this.deps.storage.addSubmission(submission as Submission);
  }

  /** The user's submissions, waiting or failed, in the order they were made. */
  async of(user: string): Promise<Submission[]> {
    return (await this.deps.storage.submissions()).filter((s) => s.user === user);
  }

  remove(id: number): Promise<void> {
    return this.deps.storage.deleteSubmission(id);
  }

  /** Forgets every submission of anyone but this user (another user signed in on this browser); how many went. */
  async forgetOthers(user: string): Promise<number> {
    const others = (await this.deps.storage.submissions()).filter((s) => s.user !== user);
    for (const s of others) await this.deps.storage.deleteSubmission(s.id!);
    return others.length;
  }

  /** Sends the user's waiting submissions in order; a round already under way is joined, not doubled. */
  flush(user: string): Promise<RoundResult> {
    if (this.round) return this.round;
    const exclusive = this.deps.exclusive ?? ((run) => run());
    this.round = exclusive(() => this.sendAll(user)).finally(() => {
      this.round = null;
    });
    return this.round;
  }

  private async sendAll(user: string): Promise<RoundResult> {
    const result: RoundResult = { sent: 0, refused: 0, waiting: 0 };
    // read again inside the round: another tab may have sent some while this one waited for the lock
    const queue = (await this.of(user)).filter((s) => !s.failed);
    for (const [index, submission] of queue.entries()) {
      try {
        await this.deps.send(submission);
        await this.deps.storage.deleteSubmission(submission.id!);
        result.sent++;
      } catch (error) {
        const failure = this.deps.classify(error);
        if (failure.kind === 'retry') {
          result.waiting = queue.length - index;
          break;
        }
        await this.deps.storage.putSubmission({ ...submission, failed: { reason: failure.reason, at: this.deps.now() } });
        result.refused++;
      }
    }
    return result;
  }
}
