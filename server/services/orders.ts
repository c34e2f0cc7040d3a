/**
 * Order writes and the order details (issue 12): one place that decides what a call may change,
 * opens the one transaction a write runs in, and shapes what the caller may see.
 *
 * - Scope (ACCESS.md): every record a call touches is looked up within the caller's row scope of
 *   its resource (schemas/resources/order.json, car.json); a record outside it is answered as if
 *   it did not exist (404), for reads and writes alike.
 * - Rules (schemas/resources/order.json `rules`, applied by ./order-rules.ts): fields the caller
 *   may set, the vehicle and station a new order is fixed to, the estimate lock, hidden prices,
 *   authorisation on create, the status moves.
 * - Money: the net of each position is runtime/core/order-values.ts's figure, stored as it is.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sql, type Transaction } from 'kysely';
import { type Actor } from '../audit/index.ts';
import type { DB } from '../db/types.generated.ts';
import { defaultTyreAction, orderTotals, positionNet } from '../../runtime/core/order-values.ts';
import type { Session } from '../auth/sessions.ts';
import { timeZoneOf } from '../config/locale.ts';
import { HttpError } from '../http-error.ts';
import { POSITION_FIELDS, type Db, type OrderState, type PositionRow, type PositionValues, type Scope } from '../repositories/orders.ts';
import { scopeExpression } from '../access/row-scope.ts';
import { OrderRules, ruleCallerOf, type RuleCaller } from '../access/order-rules.ts';

/** Order type whose positions are tyre actions (spec §4 autTyp 2); the others need a service kind. */
const TYRE_ORDER = 2;
const HINT_LIMIT = 20;
/** Autocomplete answers after more than this many characters (issue 12). */
const HINT_MIN_LENGTH = 3;

export interface OrderAddBody {
  order: Record<string, unknown>;
  rangePositions?: PositionValues[];
  pricingConfirmed?: boolean;
}

const field = (name: string, message: string) => ({ field: name, message });
const badFields = (t: (k: string) => string, errors: { field: string; message: string }[]) =>
  new HttpError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; ') || t('validation:invalid'), { code: 'VALIDATION', errors });

/** 2 decimals for money and quantities: the database keeps 2, and the net must be the net of what is kept. */
function cents(value: number): number;
function cents(value: unknown): unknown;
function cents(value: unknown): unknown {
  return typeof value === 'number' ? Math.round(value * 100) / 100 : value;
}

export function orderService(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const db = () => app.db as Db;
  const bundle = () => app.config.bundle;
  const rules = () => new OrderRules(bundle().resources.order?.rules ?? {}, app.config.conditions);
  const caller = (session: Session): RuleCaller => ruleCallerOf(bundle(), session);
  const scopeOf = (resource: 'order' | 'car', session: Session): Scope => (eb) =>
    scopeExpression(eb, bundle().resources, bundle().resources[resource], session, t('errors:forbidden'));
  /** ACCESS.md "confirm-pricing: station": the orders of the advisor's own station, not those of the vehicle they signed in with. */
  const ownStation = (session: Session): Scope => (eb) => (session.stacjaSerw ? eb('stacjaSerw', '=', session.stacjaSerw) : sql<boolean>`false`);
  const notFound = (key: string) => new HttpError(404, t(key));
  const month = () => Number(new Intl.DateTimeFormat('en-GB', { month: 'numeric', timeZone: timeZoneOf(bundle().config) }).format(new Date()));

  /** A position as it is stored: defaults of spec §9, amounts to 2 decimals, the server's net. */
  function positionValues(p: PositionValues, autTyp: number): PositionValues {
    const values: PositionValues = { ...p, ilosc: cents(p.ilosc ?? 1), cena: cents(p.cena ?? 0), rabatProc: p.rabatProc ?? 0 };
    if (values.czynnoscTyp === undefined || values.czynnoscTyp === null) {
      values.czynnoscTyp = autTyp === TYRE_ORDER ? defaultTyreAction(month()) : 'Wykonaj';
    }
    if (autTyp === TYRE_ORDER && values.stanBieznika === undefined) values.stanBieznika = 7;
    values.ogNetto = positionNet(values);
    return values;
  }

  function checkServiceKind(p: PositionValues, autTyp: number, path: string) {
    if (autTyp !== TYRE_ORDER && (p.uslRodzaj === undefined || p.uslRodzaj === null)) {
      throw badFields(t, [field(`${path}uslRodzaj`, t('order:messages.serviceKindRequired'))]);
    }
  }

  /** The position without the fields the caller may not see on this order. */
  function visiblePosition(session: Session, order: Record<string, unknown>, p: PositionRow): Record<string, unknown> {
    const hidden = new Set(rules().hiddenChildFields(caller(session), order, 'positions'));
    return Object.fromEntries(Object.entries(p).filter(([k]) => !hidden.has(k)));
  }

  async function lockedOrder(conn: Db, session: Session, autId: number): Promise<OrderState> {
    const state = await app.orders.orderState(conn, autId, scopeOf('order', session), true);
    if (!state) throw notFound('order:messages.orderNotFound');
    return state;
  }

  function checkUnlocked(session: Session, state: OrderState) {
    if (rules().positionsLocked(caller(session), state)) {
      throw new HttpError(409, t('order:messages.estimateLocked'), { code: 'ESTIMATE_LOCKED' });
    }
  }

  const present = (value: unknown) => value !== undefined && value !== null && value !== '';
  /**
   * The trail's entry of a position (issue 37): resource order-position, keyed `<autId>/<pozId>`,
   * so that its order's "Historia zmian" finds it (a child record's key, docs/decisions.md "Historia zmian").
   */
  const POSITION_AUDITED = POSITION_FIELDS.filter((f) => f !== 'pozId');
  const recordPosition = (trx: Transaction<DB>, actor: Actor, action: string, pozId: number, before: PositionRow | null, after: PositionRow | null) =>
    app.writes.record(trx, { actor, resource: 'order-position', key: `${(after ?? before)!.autId}/${pozId}`, action, before, after, fields: POSITION_AUDITED });

  return {
    /** POST /api/order/add: the order and all its positions in one transaction. */
    async add(session: Session, body: OrderAddBody, actor: Actor): Promise<{ order: { autId: number; autNr: string | null }; message: string }> {
      const who = caller(session);
      const r = rules();
      const o = { ...body.order };
      const positions = body.rangePositions ?? [];
      const forbidden = r.forbiddenFields(who, o, Object.keys(o).filter((k) => present(o[k])), 'create');
      if (forbidden.length) throw badFields(t, forbidden.map((f) => field(`order.${f}`, t('order:messages.fieldNotEditable'))));
      if (body.pricingConfirmed) {
        if (!r.applies('confirmPricingWhen', who)) throw badFields(t, [field('pricingConfirmed', t('order:messages.pricingNotAdvisor'))]);
        if (positions.length === 0) throw badFields(t, [field('pricingConfirmed', t('order:messages.pricingNoPositions'))]);
      }

      return db().transaction().execute(async (trx) => {
        // the vehicle: the caller's own where the rules fix it, else the one named, within the caller's vehicles
        const by = r.applies('ownVehicleWhen', who) ? { pojazdId: session.pojazdId ?? 0 }
          : o.pojazdId ? { pojazdId: o.pojazdId as number } : { rejestr: String(o.rejestr) };
        const car = await app.orders.vehicle(trx, by, scopeOf('car', session));
        if (!car) throw notFound('order:messages.vehicleNotFound');
        if (present(o.zgloInterw) && !(await app.orders.interventionExists(trx, o.zgloInterw as string))) {
          throw badFields(t, [field('order.zgloInterw', t('order:messages.interventionNotFound'))]);
        }
        // the contractor: the advisor's own station where the rules say so, else the one chosen, else the vehicle's
        const ownStation = r.applies('ownStationWhen', who);
        const stacjaSerw = ownStation ? session.stacjaSerw : (present(o.stacjaSerw) ? o.stacjaSerw : car.stacjaSerw);
        const station = stacjaSerw ? await app.orders.station(trx, stacjaSerw as string) : undefined;
        if (stacjaSerw && !station) throw badFields(t, [field('order.stacjaSerw', t('order:messages.stationNotFound'))]);

        const values = {
          ...o,
          // an empty choice is no intervention type (the column refers to intervention_type)
          zgloInterw: present(o.zgloInterw) ? o.zgloInterw : null,
          pojazdId: car.pojazdId, rejestr: car.rejestr, klientSymbol: car.klientSymbol, markaOpis: car.markaOpis, modelOpis: car.modelOpis,
          pracId: car.pracId, stru1: car.stru1, uzytkPojazdu: car.uzytkPojazdu,
          stacjaSerw: station?.stacjaSerw ?? null,
          firma: station?.firmaNazwa ?? null,
          naprMiejsce: station ? [station.nazwa, station.ulica].filter(Boolean).join(', ') : null,
          zgloFirma: ownStation ? (station?.firmaNazwa ?? station?.nazwa ?? null) : (o.zgloFirma ?? null),
          zgloKto: session.role, zgloPrzyjal: session.login, userId: session.userId,
          status: 0, czySzkoda: false, pricingConfirmed: body.pricingConfirmed === true,
        };
        const autId = await app.orders.insertOrder(trx, values);
        // a failing position throws here, and the transaction takes the order back with it
        const inserted = await app.orders.insertPositions(trx, autId, positions.map((p) => positionValues(p, o.autTyp as number)));
        let autNr: string | null = null;
        if (r.authorisedOnCreate(who, values)) {
          autNr = `AUT/${new Date().getFullYear()}/${String(autId).padStart(7, '0')}`;
          await app.orders.setAuthorisation(trx, autId, autNr, session);
        }
        // the one write path (issue 45): order.created to the subscribed systems (issue 35) and the
        // trail (issue 37): every field the order was created with, and its positions as stored
        const created: Record<string, unknown> = { ...values, ...(autNr ? { autNr } : {}), positions: inserted.map(({ pozId: _, autId: __, ...p }) => p) };
        await app.writes.record(trx, { actor, resource: 'order', key: autId, action: 'create', after: created });
        return { order: { autId, autNr }, message: t(autNr ? 'order:messages.addedAndAccepted' : 'order:messages.added') };
      });
    },

    /** GET /api/order/details/{id}: the order, its positions (prices only for who may see them), history and what the caller may do. */
    async details(session: Session, id: string) {
      const order = await app.tableQueries.byId('order', session, id);
      const autId = order.autId as number;
      const who = caller(session);
      const r = rules();
      const [positions, history] = await Promise.all([app.orders.positions(db(), autId), app.orders.history(db(), autId)]);
      const state = order as Record<string, unknown> & { status: number };
      const locked = r.positionsLocked(who, state);
      return {
        order,
        positions: positions.map((p) => visiblePosition(session, state, p)),
        ...(r.isHidden(who, state, 'totals') ? {} : { totals: orderTotals(positions) }),
        history,
        transitions: r.availableTransitions(who, state).map(({ id: tid, to, label }) => ({ id: tid, to, label })),
        editable: r.editableMap(who, state),
        positionsLocked: locked,
        canConfirmPricing: r.applies('confirmPricingWhen', who, state) && order.stacjaSerw === session.stacjaSerw
          && positions.length > 0 && !locked,
      };
    },

    /** PUT /api/order/{id}: the fields named in rules.editableWhen, each only for whom its condition allows. */
    async update(session: Session, autId: number, changes: Record<string, unknown>, actor: Actor) {
      return db().transaction().execute(async (trx) => {
        const state = await lockedOrder(trx, session, autId);
        const forbidden = rules().forbiddenFields(caller(session), state, Object.keys(changes), 'edit');
        if (forbidden.length) throw badFields(t, forbidden.map((f) => field(f, t('order:messages.fieldNotEditable'))));
        const fields = Object.keys(changes);
        const before = fields.length ? await app.orders.orderFields(trx, autId, fields) : {};
        await app.orders.updateOrder(trx, autId, changes);
        const after = fields.length ? await app.orders.orderFields(trx, autId, fields) : {};
        // the trail (issue 37), last: the fields as stored before and after (an edit that changed nothing leaves none)
        await app.writes.record(trx, { actor, resource: 'order', key: autId, action: 'update', before, after, fields });
        return { message: t('order:messages.saved') };
      });
    },

    /** GET /api/order/confirm-pricing/{id}: the advisor of the order's station confirms its estimate, once. */
    async confirmPricing(session: Session, autId: number, actor: Actor) {
      const who = caller(session);
      const state = await app.orders.orderState(db(), autId, ownStation(session));
      if (!state || !rules().applies('confirmPricingWhen', who, state)) throw notFound('order:messages.orderNotFound');
      if (state.pricingConfirmed) throw new HttpError(409, t('order:messages.pricingAlreadyConfirmed'), { code: 'PRICING_CONFIRMED' });
      if ((await app.orders.positionCount(db(), autId)) === 0) throw new HttpError(409, t('order:messages.pricingNoPositions'), { code: 'NO_POSITIONS' });
      checkUnlocked(session, state);
      return db().transaction().execute(async (trx) => {
        // one conditional UPDATE decides between concurrent confirmations
        if (!(await app.orders.confirmPricing(trx, autId, state.status))) {
          throw new HttpError(409, t('order:messages.pricingAlreadyConfirmed'), { code: 'PRICING_CONFIRMED' });
        }
        // the notifications (issue 25; once per order), order.estimate_confirmed and the trail commit
        // with the confirmation, or not at all
        await app.writes.record(trx, {
          actor, resource: 'order', key: autId, action: 'confirm-pricing', extra: { pricingConfirmed: [false, true] },
          notify: {
            occurrence: { kind: 'estimateConfirmed' }, entityId: autId, seq: 'confirmed', actorUserId: session.userId,
            record: await app.orders.notificationFacts(trx, autId), payload: { by: session.login },
          },
        });
        return { message: t('order:messages.pricingConfirmed') };
      });
    },

    /** POST /api/order/{id}/transition: a declared move of the status, recorded. */
    async transition(session: Session, autId: number, to: number, actor: Actor) {
      return db().transaction().execute(async (trx) => {
        const state = await lockedOrder(trx, session, autId);
        const move = rules().transitionTo(caller(session), state, to);
        const refused = () => new HttpError(409, t('order:messages.transitionNotAllowed'), { code: 'TRANSITION_NOT_ALLOWED' });
        if (!move) throw refused();
        const moved = await app.orders.moveStatus(trx, autId, {
          from: state.status, to, transition: move.id, userId: session.userId, login: session.login, rola: session.role, decider: move.recordDecider,
        });
        if (!moved) throw refused();
        const status = await app.orders.statusText(trx, to);
        // the notifications (issue 25; the move's id names this occurrence), order.status_changed and
        // the trail (the status before and after, and which declared move it was) commit with the move
        await app.writes.record(trx, {
          actor, resource: 'order', key: autId, action: 'transition', extra: { status: [state.status, to], transition: [null, move.id] },
          facts: { from: state.status, to, transition: move.id },
          notify: {
            occurrence: { kind: 'orderStatusEntered', status: to }, entityId: autId, seq: moved, actorUserId: session.userId,
            record: await app.orders.notificationFacts(trx, autId), payload: { status, by: session.login, transition: move.id },
          },
        });
        return { message: t('order:messages.transitionDone', { status }) };
      });
    },

    /** POST /api/order-range-position: a new position of an order the caller may see and change. */
    async addPosition(session: Session, body: PositionValues & { autId: number }, actor: Actor) {
      const { autId, ...p } = body;
      return db().transaction().execute(async (trx) => {
        const state = await lockedOrder(trx, session, autId);
        checkUnlocked(session, state);
        checkServiceKind(p, state.autTyp, '');
        const [row] = await app.orders.insertPositions(trx, autId, [positionValues(p, state.autTyp)]);
        await recordPosition(trx, actor, 'create', row.pozId, null, row);
        return { position: visiblePosition(session, state, row), message: t('order:messages.positionAdded') };
      });
    },

    /** GET /api/order-range-position/{id}. */
    async position(session: Session, pozId: number) {
      const row = await app.orders.position(db(), pozId);
      const state = row && (await app.orders.orderState(db(), row.autId, scopeOf('order', session)));
      if (!row || !state) throw notFound('order:messages.positionNotFound');
      return { position: visiblePosition(session, state, row) };
    },

    /** PUT /api/order-range-position/{id}: a caller who may not see prices keeps the stored ones. */
    async updatePosition(session: Session, pozId: number, p: PositionValues, actor: Actor) {
      return db().transaction().execute(async (trx) => {
        const row = await app.orders.position(trx, pozId);
        const state = row && (await app.orders.orderState(trx, row.autId, scopeOf('order', session), true));
        if (!row || !state) throw notFound('order:messages.positionNotFound');
        checkUnlocked(session, state);
        checkServiceKind(p, state.autTyp, '');
        const kept = Object.fromEntries(rules().hiddenChildFields(caller(session), state, 'positions').map((f) => [f, (row as Record<string, unknown>)[f]]));
        const updated = await app.orders.updatePosition(trx, pozId, positionValues({ ...p, ...kept }, state.autTyp));
        await recordPosition(trx, actor, 'update', pozId, row, updated);
        return { position: visiblePosition(session, state, updated), message: t('order:messages.positionSaved') };
      });
    },

    /** DELETE /api/order-range-position/{id}. */
    async deletePosition(session: Session, pozId: number, actor: Actor) {
      return db().transaction().execute(async (trx) => {
        const row = await app.orders.position(trx, pozId);
        const state = row && (await app.orders.orderState(trx, row.autId, scopeOf('order', session), true));
        if (!row || !state) throw notFound('order:messages.positionNotFound');
        checkUnlocked(session, state);
        await app.orders.deletePosition(trx, pozId);
        await recordPosition(trx, actor, 'delete', pozId, row, null);
        return { message: t('order:messages.positionDeleted') };
      });
    },

    /** POST /api/service-plan/table: the plan's entries for an intervention type and make. */
    servicePlan: (interw: string, marka: string) => app.orders.servicePlan(db(), interw, marka),

    /** POST /api/order-range-plan: the positions an inspection starts with, or found: false. */
    async rangePlan(interw: string, marka: string) {
      const entries = await app.orders.servicePlan(db(), interw, marka);
      return {
        found: entries.length > 0,
        positions: entries.map((e) => ({ uslRodzaj: e.uslRodzaj, rodzaj: 'podstawowa', czynnoscTyp: 'Wykonaj', tresc: e.tresc, ilosc: e.ilosc, cena: 0, rabatProc: 0, autOk: '?' })),
      };
    },

    /** GET /api/auto-complete/cars: after more than 2 characters, upper-cased, within the caller's vehicles. */
    async carHints(session: Session, searchText: string) {
      const text = searchText.trim().toUpperCase();
      if (text.length < HINT_MIN_LENGTH) return [];
      return app.orders.carHints(db(), text, scopeOf('car', session), HINT_LIMIT);
    },

    /** GET /api/auto-complete/companies: after more than 2 characters, upper-cased; `kind` narrows to one kind of company. */
    /** Companies for the GET (one kind, `additionalParam`) and the POST (`additionalParams.rodzaj`, several). */
    async companyHints(searchText: string, kinds: readonly string[] = []) {
      const text = searchText.trim().toUpperCase();
      if (text.length < HINT_MIN_LENGTH) return [];
      return app.orders.companyHints(db(), text, kinds, HINT_LIMIT);
    },
  };
}

export type OrderService = ReturnType<typeof orderService>;

declare module 'fastify' {
  interface FastifyInstance {
    orderService: OrderService;
  }
}

export default fp(
  async (app) => {
    app.decorate('orderService', orderService(app));
  },
  { name: 'order-service', dependencies: ['config', 'db', 'table-queries', 'orders-repository', 'notifications', 'write-service'] },
);
