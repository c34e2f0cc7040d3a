/**
 * The Idempotency-Key of a form's submission (issue 47): the same while the same body is sent again
 * (the user presses Save once more after an answer lost on a weak signal: the server answers with
 * the first answer, nothing is written twice), a new one once the body changed or the submission
 * succeeded. A follow-up call of a submission (its n-th attachment) takes a key derived from it, so
 * a repeated submission repeats its follow-ups under the same keys too.
 */
export function newIdempotencyKey(): string {
  // randomUUID exists only in a secure context; a portal tried over plain http on a LAN address has getRandomValues
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface SubmissionKeys {
  /** The key for this body: the last one when the body is the one last sent without success. */
  keyFor(body: unknown): string;
  /** The submission succeeded: the next one is another submission. */
  done(): void;
}

export function submissionKeys(make: () => string = newIdempotencyKey): SubmissionKeys {
  let last: { text: string; key: string } | null = null;
  return {
    keyFor(body) {
      const text = JSON.stringify(body ?? null);
      if (last?.text !== text) last = { text, key: make() };
      return last.key;
    },
    done() {
      last = null;
    },
  };
}

/** The key of a submission's follow-up call (`attachments1`: its second attachment). */
export const followUpKey = (key: string, call: string) => `${key}.${call}`.slice(0, 100);
