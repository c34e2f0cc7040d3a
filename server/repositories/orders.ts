/**
 * Orders and their positions (issue 12): the SQL of the order calls, no HTTP and no rules. Every
 * read that a caller's request reaches takes the caller's row scope as a WHERE expression
 * (`Scope`, built by the service from schemas/resources/*.json with access/row-scope.ts), so a row
 * outside it is simply not found. Functions take the connection or transaction to run in: the
 * service opens one transaction per write and passes it down.
 */
import fp from 'fastify-plugin';
import { sql, type Expression, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { byConfiguration, configuredBuilder, type ConfiguredBuilder } from '../db/configured-tables.ts';

export type Db = Kysely<DB>;
/** A WHERE expression limiting rows to the caller's scope (access/row-scope.ts scopeExpression). */
export type Scope = (eb: ConfiguredBuilder) => Expression<SqlBool>;

export const POSITION_FIELDS = [
  'pozId', 'autId', 'uslRodzaj', 'rodzaj', 'czynnoscTyp', 'nrKatalog', 'tresc', 'typk', 'ilosc', 'cena',
  'rabatProc', 'ogNetto', 'markaOp', 'rozmiarOp', 'stanBieznika', 'autOk',
] as const;

export type PositionRow = Pick<Selectable<DB['order_position']>, (typeof POSITION_FIELDS)[number]>;
export type PositionValues = Partial<Omit<PositionRow, 'pozId' | 'autId'>>;

/** The columns of service_order the rules and the writes need. */
const ORDER_STATE = ['autId', 'autTyp', 'autNr', 'status', 'pricingConfirmed', 'cenaWidoczna', 'stacjaSerw', 'klientSymbol', 'pojazdId'] as const;
/** A type, not an interface: the rules read it as a record (Record<string, unknown>). */
export type OrderState = {
  autId: number;
  autTyp: number;
  autNr: string | null;
  status: number;
  pricingConfirmed: boolean;
  cenaWidoczna: string;
  stacjaSerw: string | null;
  klientSymbol: string;
  pojazdId: number;
};

export function ordersRepository() {

  return {
    /** A vehicle the caller may see, by id or by registration, with what a new order copies from it. */
    async vehicle(conn: Db, by: { pojazdId: number } | { rejestr: string }, scope: Scope) {
      let query = conn.selectFrom('car as c')
        .leftJoin('employee as e', 'e.pracId', 'c.pracId')
        .select(['c.pojazdId', 'c.rejestr', 'c.klientSymbol', 'c.stacjaSerw', 'c.pracId', 'c.markaOpis', 'c.modelOpis', 'e.stru1',
          sql<string | null>`nullif(btrim(coalesce(e."imie", '') || ' ' || coalesce(e."nazwisko", '')), '')`.as('uzytkPojazdu')])
        .where((eb) => scope(configuredBuilder(eb)));
      query = 'pojazdId' in by ? query.where('c.pojazdId', '=', by.pojazdId) : query.where('c.rejestr', '=', by.rejestr.toUpperCase());
      return (await query.executeTakeFirst()) as
        | { pojazdId: number; rejestr: string; klientSymbol: string; stacjaSerw: string | null; pracId: number | null; markaOpis: string | null; modelOpis: string | null; stru1: string | null; uzytkPojazdu: string | null }
        | undefined;
    },

    /** A service station with the name of its company (the contractor and, for an advisor, the reporting company). */
    async station(conn: Db, stacjaSerw: string) {
      return conn.selectFrom('service_station as s').leftJoin('company as f', 'f.firmaId', 's.firmaId')
        .select(['s.stacjaSerw', 's.nazwa', 's.ulica', 's.miejscow', 'f.firmaNazwa'])
        .where('s.stacjaSerw', '=', stacjaSerw).executeTakeFirst() as Promise<
        { stacjaSerw: string; nazwa: string; ulica: string | null; miejscow: string | null; firmaNazwa: string | null } | undefined>;
    },

    async interventionExists(conn: Db, kod: string): Promise<boolean> {
      return (await conn.selectFrom('intervention_type').select('kod').where('kod', '=', kod).executeTakeFirst()) !== undefined;
    },

    async insertOrder(conn: Db, values: Record<string, unknown>): Promise<number> {
      // the order's fields come from the configured wizard: written by the configuration's names
      const row = await byConfiguration(conn).insertInto('service_order').values(values).returning('autId').executeTakeFirstOrThrow();
      return row.autId as number;
    },

    /** The order's authorisation number, given as it is created, and who authorised it (by name). */
    async setAuthorisation(conn: Db, autId: number, autNr: string, by: { userId: number; login: string }): Promise<void> {
      const zatwierdzil = await personName(conn, by.userId, by.login);
      await conn.updateTable('service_order').set({ autNr, autData: new Date(), zatwierdzil }).where('autId', '=', autId).execute();
    },

    async insertPositions(conn: Db, autId: number, positions: PositionValues[]): Promise<PositionRow[]> {
      if (positions.length === 0) return [];
      return (await byConfiguration(conn).insertInto('order_position').values(positions.map((p) => ({ ...p, autId })))
        .returning([...POSITION_FIELDS]).execute()) as PositionRow[];
    },

    /** The state of an order the caller may see; `lock` holds the row until the transaction ends. */
    async orderState(conn: Db, autId: number, scope: Scope, lock = false): Promise<OrderState | undefined> {
      let query = conn.selectFrom('service_order').select([...ORDER_STATE]).where('autId', '=', autId).where((eb) => scope(configuredBuilder(eb)));
      if (lock) query = query.forUpdate();
      return (await query.executeTakeFirst()) as OrderState | undefined;
    },

    /** The order as its list row (v_order: status text, intervention name, flags), within the caller's scope. */
    async orderRow(conn: Db, autId: number, scope: Scope, columns: readonly string[]) {
      return conn.selectFrom('v_order').select(columns.map((c) => sql.ref(c).as(c)))
        .where('autId', '=', autId).where((eb) => scope(configuredBuilder(eb))).executeTakeFirst() as Promise<Record<string, unknown> | undefined>;
    },

    async positions(conn: Db, autId: number): Promise<PositionRow[]> {
      return (await conn.selectFrom('order_position').select([...POSITION_FIELDS]).where('autId', '=', autId).orderBy('pozId').execute()) as PositionRow[];
    },

    async positionCount(conn: Db, autId: number): Promise<number> {
      const row = await conn.selectFrom('order_position').select((eb) => eb.fn.countAll<number>().as('n')).where('autId', '=', autId).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A position and the id of its order (the caller's scope is checked on the order). */
    async position(conn: Db, pozId: number): Promise<PositionRow | undefined> {
      return (await conn.selectFrom('order_position').select([...POSITION_FIELDS]).where('pozId', '=', pozId).executeTakeFirst()) as PositionRow | undefined;
    },

    async updatePosition(conn: Db, pozId: number, values: PositionValues): Promise<PositionRow> {
      return (await conn.updateTable('order_position').set(values).where('pozId', '=', pozId)
        .returning([...POSITION_FIELDS]).executeTakeFirstOrThrow()) as PositionRow;
    },

    async deletePosition(conn: Db, pozId: number): Promise<void> {
      await conn.deleteFrom('order_position').where('pozId', '=', pozId).execute();
    },

    /**
     * Confirms the estimate in one conditional statement: only an unconfirmed order that has
     * positions changes, so of two confirmations at once exactly one finds the row still
     * unconfirmed (the other waits for its row lock, re-reads the row and updates nothing).
     */
    async confirmPricing(conn: Db, autId: number, status: number): Promise<boolean> {
      const rows = await conn.updateTable('service_order as o').set({ pricingConfirmed: true })
        .where('o.autId', '=', autId).where('o.pricingConfirmed', '=', false).where('o.status', '=', status)
        .where((eb) => eb.exists(eb.selectFrom('order_position as p').select(sql`1`.as('one')).whereRef('p.autId', '=', 'o.autId')))
        .returning('o.autId').execute();
      return rows.length === 1;
    },

    /** Some fields of an order as stored (the trail's before and after of an edit). */
    async orderFields(conn: Db, autId: number, fields: readonly string[]): Promise<Record<string, unknown>> {
      return (await byConfiguration(conn).selectFrom('service_order').select(fields.map((f) => sql.ref(f).as(f)))
        .where('autId', '=', autId).executeTakeFirst() ?? {}) as Record<string, unknown>;
    },

    async updateOrder(conn: Db, autId: number, values: Record<string, unknown>): Promise<void> {
      await conn.updateTable('service_order').set(values).where('autId', '=', autId).execute();
    },

    /**
     * Moves the status only if it is still `from` (a concurrent move wins once), and records the
     * move; answers the id of the recorded move (it names the occurrence in the notifications'
     * dedupe keys), or null when the status had moved already.
     */
    async moveStatus(conn: Db, autId: number, move: { from: number; to: number; transition: string; userId: number; login: string; rola: string; decider?: string }): Promise<number | null> {
      // the column the move records its decider in is the configuration's (rules.transitions[].recordDecider)
      const set: Record<string, unknown> = { status: move.to };
      if (move.decider) set[move.decider] = await personName(conn, move.userId, move.login);
      const moved = await byConfiguration(conn).updateTable('service_order').set(set)
        .where('autId', '=', autId).where('status', '=', move.from).returning('autId').execute();
      if (moved.length !== 1) return null;
      const recorded = await conn.insertInto('order_transition').values({
        autId, fromStatus: move.from, toStatus: move.to, transition: move.transition, userId: move.userId, login: move.login, rola: move.rola,
      }).returning('id').executeTakeFirstOrThrow();
      return recorded.id;
    },

    /** What the notifications of an order are decided by: its client, station and reporter's e-mail. */
    async notificationFacts(conn: Db, autId: number) {
      return conn.selectFrom('service_order').select(['klientSymbol', 'stacjaSerw', 'zgloEmail']).where('autId', '=', autId).executeTakeFirstOrThrow();
    },

    async history(conn: Db, autId: number) {
      return conn.selectFrom('order_transition').select(['fromStatus', 'toStatus', 'transition', 'login', 'rola', 'at'])
        .where('autId', '=', autId).orderBy('at').orderBy('id').execute() as Promise<
        { fromStatus: number; toStatus: number; transition: string; login: string; rola: string; at: Date }[]>;
    },

    async statusText(conn: Db, code: number): Promise<string> {
      const row = await conn.selectFrom('order_status').select('statusZnaczenie').where('code', '=', code).executeTakeFirst();
      return row?.statusZnaczenie ?? String(code);
    },

    /** Service plan entries looked up by intervention type and make (spec §4 Inspection orders). */
    async servicePlan(conn: Db, interw: string, marka: string) {
      return conn.selectFrom('service_plan').select(['id', 'interw', 'marka', 'tresc', 'uslRodzaj', 'ilosc'])
        .where('interw', '=', interw).where(sql`upper("marka")`, '=', marka.toUpperCase()).orderBy('id').execute();
    },

    /** Vehicles whose registration starts with `prefix` (upper case), within the caller's scope. */
    async carHints(conn: Db, prefix: string, scope: Scope, limit: number) {
      return conn.selectFrom('car').select(['pojazdId', 'rejestr', 'marka', 'markaOpis', 'modelOpis', 'aktStanLicz', 'stacjaSerw'])
        .where('rejestr', 'like', `${escapeLike(prefix)}%`).where((eb) => scope(configuredBuilder(eb))).orderBy('rejestr').orderBy('pojazdId').limit(limit).execute();
    },

    /** Companies whose name or short name contains `text` (upper-cased), optionally of some kinds (SERWIS …). */
    async companyHints(conn: Db, text: string, kinds: readonly string[], limit: number) {
      let query = conn.selectFrom('company').select(['firmaId', 'firma', 'firmaNazwa', 'nip'])
        .where((eb) => eb.or([
          eb(sql`upper("firmaNazwa")`, 'like', `%${escapeLike(text)}%`),
          eb(sql`upper("firma")`, 'like', `%${escapeLike(text)}%`),
        ]));
      if (kinds.length) query = query.where('rodzaj', 'in', kinds.map((k) => k.toUpperCase()));
      return query.orderBy('firmaNazwa').orderBy('firmaId').limit(limit).execute();
    },
  };
}

/** A person as the tables name people ("Nowak Anna"); the login when the account has no name. */
async function personName(conn: Db, userId: number, login: string): Promise<string> {
  const row = await conn.selectFrom('app_user').select(['firstName', 'lastName']).where('id', '=', userId).executeTakeFirst();
  return [row?.lastName, row?.firstName].map((p) => p?.trim()).filter(Boolean).join(' ') || login;
}

/** LIKE's own characters taken literally (the default escape character is the backslash). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;

declare module 'fastify' {
  interface FastifyInstance {
    orders: OrdersRepository;
  }
}

export default fp(
  async (app) => {
    app.decorate('orders', ordersRepository());
  },
  { name: 'orders-repository', dependencies: ['db'] },
);
