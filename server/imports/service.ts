/**
 * Import runs as jobs (issue 34): a run is created while its file streams into the database,
 * queued on the portal's PostgreSQL job queue (pg-boss, queue `import-run`) so that any process may
 * run it, and run under an advisory lock per declaration (two runs of one resource one after the
 * other; of different resources side by side). Without a started queue (a test app, a database
 * that was away at start) the process runs it itself.
 *
 * A run is `running` only while the connection that runs it holds that lock, so a run whose
 * process died is found by any process (at start, then every minute): its lock is free. Its
 * transaction died with its connection, so nothing of it was written; it is marked failed and says so.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { CompiledQuery, sql } from 'kysely';
import { runJob } from '../jobs/job-log.ts';
import { JOB_HISTORY_SECONDS } from '../jobs/queue.ts';
import { executeRun, type RunOutcome, type RunRow } from './engine.ts';
import { ImportFileError } from './read-file.ts';
import { withImportSession, type ImportSession } from './session.ts';
import { suggestMapping } from '../config/import-declaration.ts';
import { importRecordAuthor, importRunActor, importRunEntry, type AuditedRun } from './audit.ts';
import type { TrailTarget } from './trail.ts';
import { recordChange, recordChangesVia } from '../audit/index.ts';
import { approvedDeactivation } from './approval.ts';

export const IMPORT_QUEUE = 'import-run';
/** The longest a run may take before pg-boss counts its job as failed (the run itself is then recovered). */
const RUN_JOB_SECONDS = 3600;
const RECOVER_EVERY_MS = 60_000;
const CHUNK_BYTES = 1024 * 1024;

const lockKey = (session: ImportSession, declaration: string) =>
  session.query('select pg_advisory_lock(hashtext(current_schema() || $1))', [`:import:${declaration}`]);
const unlockKey = (session: ImportSession, declaration: string) =>
  session.query('select pg_advisory_unlock(hashtext(current_schema() || $1))', [`:import:${declaration}`]);

export interface ImportLimitsConfig {
  maxRows: number;
  maxBytes: number;
  megabytes: number;
}

export function importLimits(config: Record<string, unknown>): ImportLimitsConfig {
  const maxRows = Number(config.importMaxRows ?? 1_000_000);
  const megabytes = Number(config.importMaxMegabytes ?? 200);
  return { maxRows, maxBytes: megabytes * 1024 * 1024, megabytes };
}

function createImports(app: FastifyInstance) {
  let recoverTimer: NodeJS.Timeout | undefined;
  let queueReady = false;
  const inProcess = new Set<Promise<void>>();

  /** The mapping a run uses: its own, else the one remembered for the declaration and variant, else the suggestion. */
  /** The mapping a run uses: its own, else the one remembered for the declaration and variant, else the suggestion. */
  async function rememberedMapping(declaration: string, variant: string) {
    const remembered = await app.db.selectFrom('import_mapping').select('mapping').where('declaration', '=', declaration).where('variant', '=', variant).executeTakeFirst();
    return (remembered?.mapping as Record<string, string | null> | undefined) ?? {};
  }
  function mappingFor(run: RunRow & { variant: string }, remembered: Record<string, string | null>, columns: string[]) {
    if (run.mapping) return run.mapping;
    const { t, bundle } = app.config.forVariant(run.variant);
    const suggested = suggestMapping(bundle.imports[run.declaration], columns, t);
    return { ...suggested, ...remembered };
  }

  async function failRun(id: number, message: string) {
    const row = await app.db.selectFrom('import_run').selectAll().where('id', '=', id).executeTakeFirst();
    const actor = row && (await importRunActor(app.db, { ...row, id }));
    await app.db.transaction().execute(async (trx) => {
      const failed = await trx.updateTable('import_run').set({ state: 'failed', message, finishedAt: new Date() })
        .where('id', '=', id).where('state', 'in', ['queued', 'running']).executeTakeFirst();
      if (!Number(failed.numUpdatedRows)) return;
      // webhooks (issue 35): import.finished, in the transaction that ends the run
      await app.webhooks.importFinished((text, values) => trx.executeQuery(CompiledQuery.raw(text, values ?? [])), id);
      // the audit trail (issue 37), last: the run, who asked for it, and that it failed
      if (row && actor) await recordChange(trx, importRunEntry(actor, { ...row, id }, { state: 'failed' }));
    });
    await app.db.deleteFrom('import_file_chunk').where('runId', '=', id).execute();
  }

  /** Runs one queued run to its end (or does nothing when another process took it). */
  async function run(id: number): Promise<void> {
    const row = await app.db.selectFrom('import_run').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.state !== 'queued') return;
    // in the language of the caller who sent the run (issue 48), kept with it: the run's request has answered long since
    const { t, bundle, language } = app.config.forVariant(row.variant, row.language);
    const decl = bundle.imports[row.declaration];
    if (!decl) return failRun(id, t('import:errors.unknownDeclaration'));
    const limits = importLimits(bundle.config);
    // read before the run's connection is taken: on PGlite it is the only one
    const remembered = await rememberedMapping(row.declaration, row.variant);
    const approvedDeactivated = await approvedDeactivation(app.db, row.dryRunId);
    const audited: AuditedRun = { ...row, id: Number(row.id) };
    const actor = await importRunActor(app.db, audited);
    try {
      await withImportSession(app.db, async (session) => {
        await lockKey(session, row.declaration);
        try {
          const taken = await session.query('update import_run set "state" = \'running\', "startedAt" = now() where "id" = $1 and "state" = \'queued\' returning "id"', [id]);
          if (!taken.rowCount) return;
          // a run that writes records its entry in the transaction of its rows (issue 37); one that writes nothing, in the one that ends it
          let recorded = false;
          const query = (text: string, values?: unknown[]) => session.query(text, values);
          const stage = (table: string, columns: string[], copyText: string, values: unknown[][]) => session.stage(table, columns, copyText, values);
          // each record's entry as the run writes it, a chunk at a time (COPY on PostgreSQL), chained in the run's transaction
          const trailTarget: TrailTarget = { author: importRecordAuthor(actor, audited), append: stage, copy: session.kind === 'postgres' };
          // then the run's own entry, last before the commit
          const beforeCommit = async (counts: RunOutcome['counts'], total: number) => {
            await recordChangesVia(query, [importRunEntry(actor, audited, { state: 'succeeded', counts, total })], stage);
            recorded = true;
          };
          const runRow = { ...row, id: Number(row.id), clients: row.clients as string[] | null, mapping: row.mapping as Record<string, string | null> | null, approvedDeactivated, beforeCommit, trailTarget } as RunRow & { variant: string };
          const outcome = await executeRun(session, bundle, runRow, decl, t, limits, async (columns) => mappingFor(runRow, remembered, columns), language);
          await session.query('begin');
          try {
            await session.query(`update import_run set "state" = $2, "message" = $3, "countNew" = $4, "countChanged" = $5, "countUnchanged" = $6,
                "countDeactivated" = $7, "countErrors" = $8, "progressRows" = $9, "progressTotal" = $9, "activeRows" = $10, "finishedAt" = now() where "id" = $1`,
            [id, outcome.state, outcome.message, outcome.counts.new, outcome.counts.changed, outcome.counts.unchanged, outcome.counts.deactivated, outcome.counts.errors, outcome.total, outcome.activeRows ?? null]);
            // webhooks (issue 35): import.finished, in the transaction that ends the run
            await app.webhooks.importFinished((text, values) => session.query(text, values), id);
            // the audit trail (issue 37), last: the run on whose behalf, what it did and its counts
            if (!recorded) await recordChangesVia((text, values) => session.query(text, values), [importRunEntry(actor, audited, outcome)]);
            await session.query('commit');
          } catch (error) {
            await session.query('rollback').catch(() => undefined);
            throw error;
          }
          await session.query('delete from import_file_chunk where "runId" = $1', [id]);
        } finally {
          await unlockKey(session, row.declaration).catch(() => undefined);
        }
      });
      // the fuel anomalies the run found (issue 46): announced once its rows are committed, off the run's connection
      if (row.mode === 'import' && decl.after?.includes('fuelAnomalies')) {
        await app.anomalies.announcePending().catch((error) => app.log.warn({ err: error, importRun: id }, 'fuel anomalies: announcing failed'));
      }
    } catch (error) {
      if (error instanceof ImportFileError) return failRun(id, t(error.key, error.vars));
      app.log.error({ err: error, importRun: id }, 'import run failed');
      const code = String((error as { code?: unknown })?.code ?? '');
      return failRun(id, t(/^(22|23)/.test(code) ? 'import:errors.database' : 'import:errors.failed'));
    }
  }

  const service = {
    /** Puts a received run on the queue (or runs it here when this process has no queue). */
    async dispatch(id: number): Promise<void> {
      const queue = app.notifications.queue;
      if (queue && queueReady) {
        await queue.boss.send(IMPORT_QUEUE, { id }, { expireInSeconds: RUN_JOB_SECONDS, retryLimit: 0 });
        return;
      }
      const work = run(id).catch((error) => app.log.error({ err: error, importRun: id }, 'import run failed'));
      inProcess.add(work);
      void work.finally(() => inProcess.delete(work));
    },
    run,
    /** Runs whose process died are failed, saying so; queued runs nobody holds are queued again. */
    async recover(atStart: boolean): Promise<void> {
      const running = await app.db.selectFrom('import_run').select(['id', 'declaration', 'state', 'createdAt', 'variant', 'language']).where('state', 'in', ['running', 'receiving']).execute();
      for (const r of running) {
        if (r.state === 'receiving') {
          // an upload that never finished (its request died with its process)
          if (Date.now() - new Date(r.createdAt).getTime() > 3_600_000) await app.db.deleteFrom('import_run').where('id', '=', r.id).where('state', '=', 'receiving').execute();
          continue;
        }
        const dead = await withImportSession(app.db, async (session) => {
          if (session.kind === 'pglite') return atStart; // one process: at its start, nothing of an earlier one runs
          const { rows } = await session.query<{ free: boolean }>('select pg_try_advisory_lock(hashtext(current_schema() || $1)) as free', [`:import:${r.declaration}`]);
          if (!rows[0].free) return false;
          await unlockKey(session, r.declaration);
          return true;
        });
        if (dead) await failRun(Number(r.id), app.config.forVariant(r.variant, r.language).t('import:errors.interrupted'));
      }
      if (atStart) {
        const queued = await app.db.selectFrom('import_run').select('id').where('state', '=', 'queued').execute();
        for (const q of queued) await service.dispatch(Number(q.id));
      }
    },
    CHUNK_BYTES,
    async stop() {
      clearInterval(recoverTimer);
      await Promise.allSettled([...inProcess]);
    },
    startTimers() {
      recoverTimer = setInterval(() => void service.recover(false).catch((error) => app.log.warn({ err: error }, 'import recovery failed')), RECOVER_EVERY_MS).unref();
    },
    markQueueReady() {
      queueReady = true;
    },
  };
  return service;
}

export type Imports = ReturnType<typeof createImports>;

declare module 'fastify' {
  interface FastifyInstance {
    imports: Imports;
  }
}

export default fp(async (app) => {
  const imports = createImports(app);
  app.decorate('imports', imports);
  app.notifications.whenStarted(async (queue) => {
    await queue.boss.createQueue(IMPORT_QUEUE, { retryLimit: 0, expireInSeconds: RUN_JOB_SECONDS, deleteAfterSeconds: JOB_HISTORY_SECONDS });
    await queue.boss.work<{ id: number }>(IMPORT_QUEUE, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
      await runJob(app.log, IMPORT_QUEUE, job, () => imports.run(Number(job.data.id)));
    });
    imports.markQueueReady();
  });
  app.addHook('onReady', async () => {
    await imports.recover(true).catch((error) => app.log.warn({ err: error }, 'import recovery failed'));
    imports.startTimers();
  });
  app.addHook('preClose', async () => imports.stop());
}, { name: 'imports', dependencies: ['db', 'config', 'notifications'] });
