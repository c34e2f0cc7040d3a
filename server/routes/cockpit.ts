/**
 * The cockpit's data (issue 24, the fleet manager's Pulpit): five read-only calls, each answering
 * `{ rows: [...] }`, HTTP only. Who may call them: see EVERY_ROLE and FLEET below. Which rows: the caller's row
 * scope of the resource each figure comes from, as schemas/resources/ declares it (invoices: the
 * invoice resource; orders: the order resource; vehicles and their readings: the car resource),
 * applied by access/row-scope.ts. What the caller may see of an order (its prices) and which status
 * moves they may make are the rules of schemas/resources/order.json, through access/order-rules.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Session } from '../auth/session.ts';
import { timeZoneOf } from '../config/locale.ts';
import { recordNameOf } from '../../runtime/core/record-name.ts';
import { cockpitWindow, roundMoney } from '../repositories/cockpit.ts';
import { OrderRules, ruleCallerOf } from '../access/order-rules.ts';
import { scopeOfResource } from '../access/scopes.ts';

/** Status of an order that awaits the fleet manager's acceptance (order_status 1). */
const AWAITING_ACCEPTANCE = 1;
/** Cancelled (7) and rejected (8) orders were not carried out: they cost nothing (docs/decisions.md). */
const NOT_CARRIED_OUT = [7, 8];
/** A page of the approval inbox, unless the caller asks for another size (at most 50: cockpit-inbox-query). */
const INBOX_PAGE = 10;
const TOP_VEHICLES = 10;

type Role = 'ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR';
/**
 * ACCESS.md "reminders, dashboard (Pulpit), charts": every role, within its rows (a driver his own
 * vehicle, an advisor his vehicle and his station's orders). Invoices belong to a client, not to a
 * vehicle, so their chart is for the roles that read invoices; the approval inbox is for those who
 * accept orders ("as order transitions").
 */
const EVERY_ROLE: Role[] = ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'];
const FLEET: Role[] = ['ADMIN', 'MANAGER'];
const cockpit = (action: string, summary: string, roles: Role[] = EVERY_ROLE) => ({ access: { roles }, operation: { resource: 'cockpit', action, summary } });
const rows = (id: string) => ({ 200: { $ref: `${id}#` } });

export default async function cockpitRoutes(app: FastifyInstance) {
  const session = (request: { session?: Session | null }) => request.session!;
  const window = () => cockpitWindow(timeZoneOf(app.config.bundle.config), app.clock());
  const scope = (resource: 'invoice' | 'order' | 'car', request: { session?: Session | null }) => scopeOfResource(app, resource, session(request));
  const rules = () => new OrderRules(app.config.bundle.resources.order?.rules ?? {}, app.config.conditions);
  /** A status's name: the locales' (order:statuses), else the reference table's. */
  const statusLabel = (code: number, stored: string | null) => {
    const key = `order:statuses.${code}`;
    const label = app.config.t(key);
    return label === key || label === `statuses.${code}` ? (stored ?? String(code)) : label;
  };

  app.get('/api/cockpit/costs-per-month', {
    config: cockpit('costsPerMonth', 'Invoiced net and gross costs per month over the last 12 months', FLEET),
    schema: { description: 'From the invoices the caller may see, by issue date; the current month last, marked partial; a month without invoices has 0.', response: rows('cockpit-costs-per-month') },
    handler: async (request) => {
      const w = window();
      const found = new Map((await app.cockpit.invoicesPerMonth(scope('invoice', request), w)).map((r) => [r.month, r]));
      return { rows: w.months.map((month) => ({ ...(found.get(month) ?? { month, netto: 0, brutto: 0 }), partial: month === w.months.at(-1) })) };
    },
  });

  app.get('/api/cockpit/orders-per-status', {
    config: cockpit('ordersPerStatus', 'How many of the caller\'s orders are in each status'),
    schema: { description: 'Every order status (0 when none), with its Polish name.', response: rows('cockpit-orders-per-status') },
    handler: async (request) => {
      const counted = await app.cockpit.ordersPerStatus(scope('order', request));
      return { rows: counted.map((r) => ({ status: r.status, label: statusLabel(r.status, r.statusZnaczenie), count: r.count })) };
    },
  });

  app.get('/api/cockpit/km-per-month', {
    config: cockpit('kmPerMonth', 'Kilometres driven per month over the last 12 months'),
    schema: { description: 'Per vehicle the increase between consecutive odometer readings, in the month of the later one, summed over the caller\'s vehicles.', response: rows('cockpit-km-per-month') },
    handler: async (request) => {
      const w = window();
      const found = new Map((await app.cockpit.kmPerMonth(scope('car', request), w)).map((r) => [r.month, r.km]));
      // the current month is not over: its kilometres are of the days so far (the chart marks it)
      return { rows: w.months.map((month) => ({ month, km: found.get(month) ?? 0, partial: month === w.months.at(-1) })) };
    },
  });

  app.get('/api/cockpit/cost-per-km', {
    config: cockpit('costPerKm', 'The ten vehicles with the highest net cost per kilometre in 12 months'),
    schema: {
      description: 'Cost: the net of the positions of the vehicle\'s orders reported in the period (not cancelled or rejected; prices the caller may not see left out). '
        + 'Kilometres: driven in the period, from the odometer readings; vehicles under 1 km are left out.',
      response: rows('cockpit-cost-per-km'),
    },
    handler: async (request) => {
      const w = window();
      const r = rules();
      const who = ruleCallerOf(app.config.bundle, session(request));
      // hiding prices is decided per order; the costs come per vehicle and per value of what it depends on
      const entity = (app.config.bundle.schemas.order as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
      const read = r.hiddenDependsOn('totals', app.config.bundle.conditions as { $defs?: Record<string, unknown> });
      // what the rule reads of an order (its record carries the order entity's fields), or all of them
      const fields = read === null ? Object.keys(entity) : read.filter((f) => f in entity);
      const [vehicles, costs] = await Promise.all([
        app.cockpit.kmPerVehicle(scope('car', request), w),
        app.cockpit.orderCostsPerVehicle(scope('order', request), w, fields, NOT_CARRIED_OUT),
      ]);
      const cost = new Map<number, number>();
      for (const c of costs) {
        if (r.isHidden(who, c.record, 'totals')) continue;
        cost.set(c.pojazdId, (cost.get(c.pojazdId) ?? 0) + c.cost);
      }
      const ranked = vehicles
        .map((v) => ({ ...v, cost: roundMoney(cost.get(v.pojazdId) ?? 0) }))
        .filter((v) => v.cost > 0)
        .map((v) => ({ pojazdId: v.pojazdId, rejestr: v.rejestr, markaModel: v.markaModel, cost: v.cost, km: v.km, costPerKm: roundMoney(v.cost / v.km), exact: v.cost / v.km }))
        .sort((a, b) => b.exact - a.exact || a.pojazdId - b.pojazdId)
        .slice(0, TOP_VEHICLES);
      return { rows: ranked.map(({ exact: _exact, ...row }) => row) };
    },
  });

  app.get<{ Querystring: { offset?: string; limit?: string } }>('/api/cockpit/approval-inbox', {
    config: cockpit('approvalInbox', 'A page of the orders awaiting the fleet manager\'s acceptance, with moves', FLEET),
    schema: {
      description: `The caller's orders in status ${AWAITING_ACCEPTANCE}, newest first, a page of \`limit\` (default ${INBOX_PAGE}) from \`offset\`, with their total. netTotal is null where the caller may not see the order's prices.`,
      querystring: { $ref: 'cockpit-inbox-query#' },
      response: { ...rows('cockpit-approval-inbox'), 400: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const r = rules();
      const who = ruleCallerOf(app.config.bundle, session(request));
      // numbers arrive as digits (the query's patterns); the validator does not coerce
      const offset = Number(request.query.offset ?? 0);
      const limit = Number(request.query.limit ?? INBOX_PAGE);
      const { found, total } = await app.cockpit.ordersInStatus(scope('order', request), AWAITING_ACCEPTANCE, { offset, limit });
      return {
        total,
        rows: found.map(({ order, net, klientNazwa }) => {
          const record = order as Record<string, unknown> & { status: number };
          return {
            autId: order.autId, autNr: order.autNr,
            // the order as users know it: its number, else its day (never its id; runtime/core/record-name.ts)
            recordName: recordNameOf(app.config.bundle.schemas.order, record, (key, vars) => app.config.t(key, vars), timeZoneOf(app.config.bundle.config), app.config.language.datePattern),
            rejestr: order.rejestr,
            markaModel: [order.markaOpis, order.modelOpis].filter(Boolean).join(' ') || null, klientNazwa,
            zgloData: order.zgloData, zgloInterw: order.zgloInterw, zgloInterwNazwa: order.zgloInterwNazwa,
            netTotal: r.isHidden(who, record, 'totals') ? null : net,
            transitions: r.availableTransitions(who, record).map((t) => ({ id: t.id, to: t.to, label: app.config.t(t.label) })),
          };
        }),
      };
    },
  });
}
