/**
 * An import run in the audit trail (issue 37, docs/decisions.md "Audit trail (issue 37)",
 * "Imports"): one entry per run, written in the transaction that ends it (the one that commits
 * its rows, or marks it failed), naming who asked for it — the integration key (its account, the
 * key's name) or the user — and what it did: declaration, mode, options, file, outcome, counts.
 * The run itself is executed by a job; the entry names the one on whose behalf it ran.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { Actor, AuditEntry } from '../audit/index.ts';

export interface AuditedRun {
  id: number; declaration: string; mode: string; onError: string; missing: string; fileName: string;
  userId: number | null; integrationKeyId: number | null; createdByName: string;
}

/** Who asked for the run; read before the run's own connection is taken (on PGlite it is the only one). */
export async function importRunActor(db: Kysely<DB>, run: AuditedRun): Promise<Actor> {
  if (run.integrationKeyId !== null) {
    const key = await db.selectFrom('integration_key').select('accountId').where('id', '=', run.integrationKeyId).executeTakeFirst();
    return { kind: 'integration', keyId: run.integrationKeyId, accountId: key?.accountId ?? 0, label: run.createdByName };
  }
  if (run.userId !== null) {
    const user = await db.selectFrom('app_user').select('rola').where('id', '=', run.userId).executeTakeFirst();
    return { kind: 'user', userId: run.userId, role: user?.rola ?? '', label: run.createdByName };
  }
  return { kind: 'system', job: 'import', label: run.createdByName };
}

export interface RunOutcome {
  state: string;
  counts?: { new: number; changed: number; unchanged: number; deactivated: number; errors: number };
  total?: number | null;
}

/** The run's entry: resource import (the locale namespace of the import screens), the run's id as its record. */
export function importRunEntry(actor: Actor, run: AuditedRun, outcome: RunOutcome): AuditEntry {
  const c = outcome.counts;
  return {
    actor, resource: 'import', recordKey: run.id, action: run.mode === 'import' ? 'import' : 'dry-run',
    changes: {
      declaration: [null, run.declaration], mode: [null, run.mode], onError: [null, run.onError], missing: [null, run.missing],
      file: [null, run.fileName], state: [null, outcome.state],
      ...(c ? { rows: [null, outcome.total ?? null], countNew: [null, c.new], countChanged: [null, c.changed], countUnchanged: [null, c.unchanged], countDeactivated: [null, c.deactivated], countErrors: [null, c.errors] } : {}),
    },
  };
}

/**
 * Who the entries of the records a run wrote name (issue 45, trail.ts): the run's author, named with
 * the run's file, and the run as the entries' session, so Dziennik zmian groups one run's records.
 */
export function importRecordAuthor(actor: Actor, run: AuditedRun): Actor {
  return { ...actor, label: `${run.createdByName} · ${run.fileName}`, session: `import-${run.id}` };
}
