/**
 * Announcing the anomalies found (issue 46): what screens/fuel-anomalies.json `announce` declares,
 * written for the anomalies not yet announced, in one transaction that also marks them announced
 * (`announcedAt`), so each is announced once whichever process or retry gets there:
 *
 * - per client, one notification (trigger fuelAnomaliesFound, to the client's fleet managers)
 *   with the count — never one per anomaly;
 * - per anomaly, the webhook event (`fuel.anomaly`, the anomaly as the fuel-anomaly resource reads
 *   it) — unless the client has more than `perRowUpTo` of them in this announcement (a big import):
 *   then none per anomaly, as an import raises no event per row (its import.finished says it ended).
 *
 * Called after an import run that wrote transactions has committed (server/imports/service.ts) and
 * at start (anomalies left by a process that died between the two).
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { anomaliesFile } from './find.ts';

/** At most this many anomalies per transaction; the rest wait for the next call (which the caller makes until none is left). */
const BATCH = 20_000;

export async function announcePending(app: FastifyInstance): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await announceBatch(app);
    total += done;
    if (done < BATCH) return total;
  }
}

async function announceBatch(app: FastifyInstance): Promise<number> {
  return app.db.transaction().execute(async (trx) => {
    const { rows } = await sql<{ id: string | number; klientSymbol: string | null }>`
      select a."id", c."klientSymbol" from fuel_anomaly a join car c on c."pojazdId" = a."pojazdId"
      where a."announcedAt" is null order by a."id" limit ${BATCH} for update of a skip locked`.execute(trx);
    if (!rows.length) return 0;
    const byClient = new Map<string, number[]>();
    for (const r of rows) {
      if (!r.klientSymbol) continue;
      const list = byClient.get(r.klientSymbol) ?? [];
      list.push(Number(r.id));
      byClient.set(r.klientSymbol, list);
    }
    for (const [client, ids] of byClient) {
      const file = anomaliesFile(app.config.forClient(client).bundle.screens);
      if (!file) continue;
      if (ids.length <= file.announce.perRowUpTo) {
        for (const id of ids) await app.webhooks.emit(trx, { event: file.announce.webhook, id });
      }
      await app.notifications.record(trx, {
        occurrence: { kind: 'fuelAnomaliesFound' }, seq: `a${ids[0]}`, record: { klientSymbol: client }, payload: { found: ids.length },
      });
    }
    await sql`update fuel_anomaly set "announcedAt" = now() where "id" = any(${rows.map((r) => Number(r.id))}::bigint[])`.execute(trx);
    return rows.length;
  });
}
