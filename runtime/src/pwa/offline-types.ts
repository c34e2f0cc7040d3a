/** What the phone keeps without a network (issue 47): the shapes of pwa/offline-db.ts and pwa/outbox.ts. */

/** The last answer of a declared GET call, with when it came (shown as "Dane z 12:04"). */
export interface KeptAnswer {
  user: string;
  path: string;
  /** The answer as JSON text: copied in one piece when stored, not cloned object by object on the main thread (pwa/offline-memory.ts). */
  json?: string;
  /** The answer itself, as answers were kept before (read back, never written). */
  body?: unknown;
  /** Epoch milliseconds of the answer. */
  at: number;
}

/** A file of a submission, kept as the browser keeps it (IndexedDB stores Blobs). */
export interface KeptFile {
  field: string;
  file: File;
}

/**
 * What a submission sends, in a form that survives a reload: one call (a form's, maybe multipart
 * with its files), or a wizard's save followed by its declared follow-ups (`submit.then` of the
 * screen, read from the configuration when it is sent: the attachments of a damage report).
 */
export type SubmissionPlan =
  | { kind: 'call'; method: 'POST' | 'PUT'; path: string; body: Record<string, unknown>; multipart?: { fileFields: string[]; files: KeptFile[] } }
  | { kind: 'wizard'; screen: string; method: 'POST' | 'PUT'; path: string; body: Record<string, unknown>; data: Record<string, unknown>; session: Record<string, unknown> | null; files: Record<string, KeptFile[][]> };

export interface Submission {
  id?: number;
  /** The user who made it: sent only with his session, never shown to another. */
  user: string;
  /** The Idempotency-Key: one submission however often it is sent (follow-ups derive theirs from it). */
  key: string;
  /** The title text key of the screen it was made on (what the driver sees in the list). */
  title: string;
  /** Epoch milliseconds when it was made. */
  at: number;
  plan: SubmissionPlan;
  /** Set when the server refused it: its reason, shown until the driver removes it. */
  failed?: { reason: string; at: number };
}

export interface OfflineStorage {
  putAnswer(answer: KeptAnswer): Promise<void>;
  getAnswer(user: string, path: string): Promise<KeptAnswer | undefined>;
  deleteAnswers(): Promise<void>;
  addSubmission(submission: Submission): Promise<number>;
  putSubmission(submission: Submission): Promise<void>;
  deleteSubmission(id: number): Promise<void>;
  /** Every waiting submission of every user, in the order they were made. */
  submissions(): Promise<Submission[]>;
}

/** A GET's answer kept (with a body) or given back (without one): the API client's offline memory (pwa/offline-memory.ts). */
export type OfflineMemory = (path: string, body?: unknown) => Promise<{ body: unknown } | undefined>;
