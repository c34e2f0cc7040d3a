/**
 * The fuel anomalies a caller sees and explains (issue 46; ACCESS.md "fuel anomalies: read; mark
 * explained | all | client | — | —"): always within the fuel-anomaly resource's row scope (the
 * vehicle's client), so a manager sees and explains his client's only and another client's
 * anomaly is answered as absent (404); a role without the resource (a driver) is refused (403).
 *
 * Marking one explained is a business write: one transaction that checks the row in the caller's
 * scope, writes the note and records it through `app.writes.record` (the trail entry, the declared
 * webhook event `fuel.anomaly_explained`).
 */
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Session } from '../auth/session.ts';
import type { Actor } from '../audit/actor.ts';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import { localeOf } from '../config/locale.ts';
import { scopeOfResource } from '../access/scopes.ts';
import { anomaliesFile } from './find.ts';
import { announcePending } from './announce.ts';

export interface AnomalyQuery { offset: number; limit: number; explained?: boolean; rule?: string }

type Row = Record<string, unknown>;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

function createAnomalies(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);

  /** The caller's anomalies (their scope), with the transaction and the vehicle beside them. */
  function scoped(db: Kysely<DB>, session: Session) {
    const inScope = db.selectFrom('v_fuel_anomaly').selectAll().where(scopeOfResource(app, 'fuel-anomaly', session) as never);
    return db.selectFrom(inScope.as('a'))
      .leftJoin('fuel_transaction as t', 't.transId', 'a.transId')
      .innerJoin('car as c', 'c.pojazdId', 'a.pojazdId');
  }

  const columns = [
    'a.id', 'a.regula', 'a.data', 'a.pojazdId', 'a.rejestr', 'a.klientSymbol', 'a.transId', 'a.wartosc', 'a.granica',
    'a.wyjasniona', 'a.notatka', 'a.wyjasnionaAt', 't.nrTransakcji', 't.produkt', 't.litry', 't.stacja', 'c.markaOpis', 'c.modelOpis',
  ] as const;

  /** A row as the API answers it, its rule and message in the caller's language. */
  function shown(row: Row) {
    const file = anomaliesFile(app.config.bundle.screens);
    const rule = file?.rules.find((r) => r.id === row.regula);
    const numbers = new Intl.NumberFormat(localeOf(app.config.bundle.config), { maximumFractionDigits: 2 });
    const fmt = (v: unknown) => (v === null || v === undefined ? '' : numbers.format(Number(v)));
    return {
      id: Number(row.id), regula: String(row.regula),
      regulaNazwa: rule ? t(rule.label) : String(row.regula),
      opis: rule ? t(rule.message, { value: fmt(row.wartosc), limit: fmt(row.granica), produkt: row.produkt ?? '' }) : '',
      data: iso(row.data)!, pojazdId: Number(row.pojazdId), rejestr: (row.rejestr as string | null) ?? null,
      markaModel: [row.markaOpis, row.modelOpis].filter(Boolean).join(' ') || null,
      klientSymbol: (row.klientSymbol as string | null) ?? null,
      transId: num(row.transId), nrTransakcji: (row.nrTransakcji as string | null) ?? null, produkt: (row.produkt as string | null) ?? null,
      litry: num(row.litry), stacja: (row.stacja as string | null) ?? null, wartosc: num(row.wartosc), granica: num(row.granica),
      wyjasniona: Boolean(row.wyjasniona), notatka: (row.notatka as string | null) ?? null, wyjasnionaAt: iso(row.wyjasnionaAt),
    };
  }

  return {
    async list(session: Session, query: AnomalyQuery) {
      let base = scoped(app.db, session);
      if (query.explained !== undefined) base = base.where('a.wyjasniona', '=', query.explained);
      if (query.rule) base = base.where('a.regula', '=', query.rule);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
        base.select([...columns]).orderBy('a.data', 'desc').orderBy('a.id', 'desc').offset(query.offset).limit(query.limit).execute(),
      ]);
      return { total: Number(total), rows: rows.map((r) => shown(r as Row)) };
    },

    /** Marks one anomaly explained with the note (or changes its note); answers it as the list shows it. */
    async explain(session: Session, id: number, note: string, actor: Actor) {
      const text = note.trim();
      if (!text) throw new HttpError(400, t('fuel-anomaly:errors.noteRequired'), { code: 'VALIDATION', errors: [{ field: 'notatka', message: t('fuel-anomaly:errors.noteRequired') }] });
      await app.db.transaction().execute(async (trx) => {
        const before = await scoped(trx, session).select(['a.id', 'a.wyjasniona', 'a.notatka']).where('a.id', '=', id).executeTakeFirst();
        if (!before) throw new HttpError(404, t('fuel-anomaly:errors.notFound'));
        const locked = await sql<{ wyjasniona: boolean; notatka: string | null }>`
          select "wyjasniona", "notatka" from fuel_anomaly where "id" = ${id} for update`.execute(trx);
        const was = locked.rows[0];
        const after = { wyjasniona: true, notatka: text };
        await trx.updateTable('fuel_anomaly')
          .set({ wyjasniona: true, notatka: text, wyjasnilId: session.integration ? null : session.userId, wyjasnionaAt: new Date() })
          .where('id', '=', id).execute();
        await app.writes.record(trx, {
          actor, resource: 'fuel-anomaly', key: id, action: 'explain',
          before: { wyjasniona: was.wyjasniona, notatka: was.notatka }, after, fields: ['wyjasniona', 'notatka'],
        });
      });
      const row = await scoped(app.db, session).select([...columns]).where('a.id', '=', id).executeTakeFirstOrThrow();
      return shown(row as Row);
    },

    announcePending: () => announcePending(app),
  };
}

export type Anomalies = ReturnType<typeof createAnomalies>;

declare module 'fastify' {
  interface FastifyInstance {
    anomalies: Anomalies;
  }
}

export default fp(async (app) => {
  const anomalies = createAnomalies(app);
  app.decorate('anomalies', anomalies);
  // anomalies a process found but died before announcing
  app.addHook('onReady', async () => {
    await anomalies.announcePending().catch((error) => app.log.warn({ err: error }, 'fuel anomalies: announcing failed'));
  });
}, { name: 'anomalies', dependencies: ['db', 'config', 'notifications', 'webhooks', 'write-service'] });
