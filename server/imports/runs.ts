/**
 * The import run's rows as server/routes/imports.ts receives a run (issue 34), and the remembered
 * column mapping: the writes the route used to make itself, moved here (issue 45: routes are HTTP
 * only). A run is written while its file streams in (state 'receiving', its chunks, its size), then
 * queued with its options, or dropped when the upload was refused; the run's own trail entry is
 * written when it ends (./audit.ts). A saved mapping is a settings change of the variant: recorded
 * in the trail (resource import, keyed <variant>/<declaration>), through the one write path.
 */
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Actor } from '../audit/index.ts';
import type { DB, ImportRun } from '../db/types.generated.ts';
import type { WriteService } from '../services/write.ts';

type Mapping = Record<string, string | null>;

/** A mapping with its columns in one order: jsonb keeps keys in its own order, and the trail compares by JSON text. */
const ordered = (mapping: unknown) => Object.fromEntries(Object.entries((mapping ?? {}) as Mapping).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export function importRuns(db: Kysely<DB>) {
  return {
    /** A run of this caller (`actor`, as import_run names it) under the same Idempotency-Key; `received` leaves out one still receiving. */
    known: (actor: string, idempotencyKey: string, received = true) => {
      let q = db.selectFrom('import_run').select(['id', 'state']).where('actor', '=', actor).where('idempotencyKey', '=', idempotencyKey);
      if (received) q = q.where('state', '!=', 'receiving');
      return q.executeTakeFirst();
    },

    /** A new run, receiving its file. */
    async open(values: Insertable<ImportRun>): Promise<number> {
      const created = await db.insertInto('import_run').values(values).returning('id').executeTakeFirstOrThrow();
      return Number(created.id);
    },

    /** One piece of the file, in order. */
    addChunk: async (runId: number, seq: number, data: Buffer) => {
      await db.insertInto('import_file_chunk').values({ runId, seq, data }).execute();
    },

    /** The whole file has arrived: its size and its SHA-256, which an import naming its dry run must match (issue 49). */
    received: async (runId: number, bytes: number, fileSha256: string) => {
      await db.updateTable('import_run').set({ bytes, fileSha256 }).where('id', '=', runId).execute();
    },

    fileSha256: async (runId: number) => (await db.selectFrom('import_run').select('fileSha256').where('id', '=', runId).executeTakeFirstOrThrow()).fileSha256,

    format: async (runId: number) => (await db.selectFrom('import_run').select('format').where('id', '=', runId).executeTakeFirstOrThrow()).format,

    /** The run's options, and it is queued; throws the unique violation (23505) of a raced Idempotency-Key. */
    queue: async (runId: number, values: Updateable<ImportRun>) => {
      await db.updateTable('import_run').set({ ...values, state: 'queued' }).where('id', '=', runId).execute();
    },

    /** Drops a run (its chunks go with it); `receiving` only one whose file never finished arriving. */
    drop: async (runId: number, receiving = false) => {
      let q = db.deleteFrom('import_run').where('id', '=', runId);
      if (receiving) q = q.where('state', '=', 'receiving');
      await q.execute();
    },

    /** The remembered mappings of a variant, by declaration. */
    mappings: (variant: string) => db.selectFrom('import_mapping').select(['declaration', 'mapping']).where('variant', '=', variant).execute(),

    /** Remembers a declaration's column mapping for the variant, recorded in the trail with the mapping before and after. */
    saveMapping: (writes: WriteService, actor: Actor, declaration: string, variant: string, mapping: Mapping) => db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('import_mapping').select('mapping').where('declaration', '=', declaration).where('variant', '=', variant).forUpdate().executeTakeFirst();
      await trx.insertInto('import_mapping').values({ declaration, variant, mapping: JSON.stringify(mapping) })
        .onConflict((oc) => oc.columns(['declaration', 'variant']).doUpdateSet({ mapping: JSON.stringify(mapping), updatedAt: new Date() }))
        .execute();
      await writes.record(trx, {
        actor, resource: 'import', key: `${variant}/${declaration}`, action: before ? 'mapping-update' : 'mapping-create',
        before: before ? { declaration, mapping: ordered(before.mapping) } : null, after: { declaration, mapping: ordered(mapping) },
      });
    }),
  };
}
