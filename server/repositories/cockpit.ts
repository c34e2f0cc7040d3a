/**
 * The cockpit's figures (issue 24): invoiced costs and kilometres per month, orders per status,
 * the net cost per kilometre of each vehicle and the orders awaiting the fleet manager. No HTTP
 * and no rules here: every query takes the caller's row scope as a filter on the view it reads
 * (the route builds each from the resource's declaration in schemas/resources/, access/row-scope.ts),
 * and the route decides what the caller may see of prices and which moves they may make.
 *
 * The period is a window of whole calendar months of the portal's time zone (`CockpitWindow`):
 * dates (`faktDataWyst`) compare with its days, timestamps (`mileage_reading.data`, `zgloData`)
 * with the window's midnights in that time zone.
 */
import fp from 'fastify-plugin';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { configuredBuilder, type ConfiguredBuilder } from '../db/configured-tables.ts';
import type { DB } from '../db/types.generated.ts';

/** The caller's row scope as a WHERE on the one view a query reads (unqualified column names). */
export type RowFilter = (eb: ConfiguredBuilder) => Expression<SqlBool>;

/** Whole months: from the first day of `months[0]` to the day after the last day of the last month. */
export interface CockpitWindow {
  /** 'YYYY-MM', oldest first, the current month last. */
  months: string[];
  /** 'YYYY-MM-DD': the first day of the window. */
  from: string;
  /** 'YYYY-MM-DD': the first day after the window. */
  until: string;
  timeZone: string;
}

/** The `count` last calendar months up to the one of `now` in `timeZone`. */
export function cockpitWindow(timeZone: string, now = new Date(), count = 12): CockpitWindow {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: 'numeric' })
    .formatToParts(now).map((p) => [p.type, p.value]));
  const year = Number(parts.year);
  const month = Number(parts.month); // 1…12
  const monthOf = (back: number) => {
    const index = year * 12 + (month - 1) - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  };
  const months = Array.from({ length: count }, (_, i) => monthOf(count - 1 - i));
  return { months, from: `${months[0]}-01`, until: `${monthOf(-1)}-01`, timeZone };
}

/** Midnight of a day in the window's time zone, as a timestamptz. */
const midnight = (day: string, w: CockpitWindow) => sql<Date>`(${day}::date)::timestamp at time zone ${w.timeZone}`;
const money = (value: unknown) => Math.round(Number(value ?? 0) * 100) / 100;

export function cockpitRepository(db: Kysely<DB>) {
  /**
   * Every reading of the caller's vehicles up to the window's end with the reading before it
   * (of the same vehicle, by date): the increase is counted in the month of the later one.
   */
  const readingSteps = (cars: RowFilter, w: CockpitWindow) => db.selectFrom('mileage_reading as m')
    .select(['m.pojazdId', 'm.data', 'm.licznik',
      sql<number | null>`lag(m."licznik") over (partition by m."pojazdId" order by m."data", m."id")`.as('previous')])
    .where('m.data', '<', midnight(w.until, w))
    .where('m.pojazdId', 'in', db.selectFrom('v_car').select('pojazdId').where((eb) => cars(configuredBuilder(eb))));

  return {
    /** Net and gross of the invoices issued in each month of the window (months without any are absent). */
    async invoicesPerMonth(invoices: RowFilter, w: CockpitWindow) {
      const rows = await db.selectFrom('v_invoice')
        .select([sql<string>`to_char("faktDataWyst", 'YYYY-MM')`.as('month'),
          sql<number>`coalesce(sum("ogNetto"), 0)`.as('netto'), sql<number>`coalesce(sum("ogBrutto"), 0)`.as('brutto')])
        .where((eb) => invoices(configuredBuilder(eb)))
        .where('faktDataWyst', '>=', w.from).where('faktDataWyst', '<', w.until)
        .groupBy(sql`1`).execute();
      return rows.map((r) => ({ month: r.month, netto: money(r.netto), brutto: money(r.brutto) }));
    },

    /** Every status of order_status with how many of the caller's orders are in it, by code. */
    async ordersPerStatus(orders: RowFilter) {
      const counted = db.selectFrom('v_order').select(['status', sql<number>`count(*)::integer`.as('n')])
        .where((eb) => orders(configuredBuilder(eb))).groupBy('status');
      const rows = await db.selectFrom('order_status as s').leftJoin(counted.as('c'), 'c.status', 's.code')
        .select(['s.code', 's.statusZnaczenie', sql<number>`coalesce(c.n, 0)`.as('count')])
        .orderBy('s.code').execute();
      return rows.map((r) => ({ status: r.code, statusZnaczenie: r.statusZnaczenie, count: Number(r.count) }));
    },

    /** Kilometres driven per month of the window over the caller's vehicles (months without readings absent). */
    async kmPerMonth(cars: RowFilter, w: CockpitWindow) {
      const rows = await db.with('r', () => readingSteps(cars, w)).selectFrom('r')
        .select([sql<string>`to_char(r."data" at time zone ${w.timeZone}, 'YYYY-MM')`.as('month'),
          sql<number>`sum(greatest(r."licznik" - r."previous", 0))`.as('km')])
        .where('r.previous', 'is not', null).where('r.data', '>=', midnight(w.from, w))
        .groupBy(sql`1`).execute();
      return rows.map((r) => ({ month: r.month, km: Number(r.km) }));
    },

    /** The caller's vehicles that drove at least 1 km in the window, with their plate and model. */
    async kmPerVehicle(cars: RowFilter, w: CockpitWindow) {
      const rows = await db.with('r', () => readingSteps(cars, w))
        .with('driven', (qb) => qb.selectFrom('r').select(['r.pojazdId', sql<number>`sum(greatest(r."licznik" - r."previous", 0))`.as('km')])
          .where('r.previous', 'is not', null).where('r.data', '>=', midnight(w.from, w)).groupBy('r.pojazdId'))
        .selectFrom('driven as d').innerJoin('car as c', 'c.pojazdId', 'd.pojazdId')
        .select(['d.pojazdId', 'd.km', 'c.rejestr', 'c.markaModel'])
        .where('d.km', '>=', 1).execute();
      return rows.map((r) => ({ pojazdId: r.pojazdId, rejestr: r.rejestr, markaModel: r.markaModel, km: Number(r.km) }));
    },

      /**
     * The net of the positions of the caller's orders reported in the window, per vehicle and per
     * combination of `fields` (columns of v_order: those on which hiding prices depends, or all of
     * the order's to decide per order), so that the route can leave out what the caller may not
     * see. Orders in `excludedStatuses` (cancelled, rejected) cost nothing.
     */
    async orderCostsPerVehicle(orders: RowFilter, w: CockpitWindow, fields: readonly string[], excludedStatuses: readonly number[]) {
      const keys = [...fields];
      const rows = await db.selectFrom('v_order as o').innerJoin('order_position as p', 'p.autId', 'o.autId')
        .select([sql<number>`o."pojazdId"`.as('pojazdId'), sql<number>`sum(p."ogNetto")`.as('cost'),
          ...keys.map((k) => sql.ref(`o.${k}`).as(`f_${k}`))])
        .where((eb) => orders(configuredBuilder(eb)))
        .where('o.zgloData', '>=', midnight(w.from, w)).where('o.zgloData', '<', midnight(w.until, w))
        .$if(excludedStatuses.length > 0, (qb) => qb.where('o.status', 'not in', [...excludedStatuses]))
        .groupBy([sql`o."pojazdId"`, ...keys.map((k) => sql.ref(`o.${k}`))])
        .execute() as unknown as Record<string, unknown>[];
      return rows.map((r) => ({
        pojazdId: Number(r.pojazdId),
        cost: Number(r.cost ?? 0),
        record: Object.fromEntries(keys.map((k) => [k, r[`f_${k}`]])) as Record<string, unknown>,
      }));
    },

    /**
     * A page of the caller's orders in `status`, newest report first, each as its row of v_order
     * with the net of its positions and its client's name, and how many there are in all.
     */
    async ordersInStatus(orders: RowFilter, status: number, page: { offset: number; limit: number }) {
      const inStatus = db.selectFrom('v_order as o')
        .where((eb) => orders(configuredBuilder(eb)))
        .where('o.status', '=', status);
      const [rows, counted] = await Promise.all([
        inStatus.selectAll('o')
          .select(sql<number | null>`(select sum(p."ogNetto") from order_position p where p."autId" = o."autId")`.as('net'))
          .select(sql<string | null>`(select cl."klientNazwa" from client cl where cl."klient" = o."klientSymbol")`.as('klientNazwa'))
          .orderBy('o.zgloData', 'desc').orderBy('o.autId', 'desc')
          .offset(page.offset).limit(page.limit).execute(),
        inStatus.select(sql<number>`count(*)::integer`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        total: Number(counted.n),
        found: rows.map(({ net, klientNazwa, ...order }) => ({ order, klientNazwa, net: net === null ? 0 : money(net) })),
      };
    },
  };
}

export const roundMoney = money;

declare module 'fastify' {
  interface FastifyInstance {
    cockpit: ReturnType<typeof cockpitRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('cockpit', cockpitRepository(app.db));
}, { name: 'cockpit-repository', dependencies: ['db'] });
