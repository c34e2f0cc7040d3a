/**
 * `app.inspections` (issue 47): vehicle inspections walked from a checklist of
 * screens/inspections.json. Who and which rows: ACCESS.md "inspections: submit | all | client |
 * own vehicle | —" and "inspections: read | all | client | own | own vehicle", judged on the
 * inspection resource's row scope (reads) and the car resource's (the vehicle a submission is
 * about): a row or vehicle outside it is answered as absent (404).
 *
 * A submission is one business write, in one transaction:
 * 1. the answers are checked against the checklist (every item once, n.a. only where allowed, a
 *    tyre's tread depth within its bounds and not passed below its legal minimum, a photo promised
 *    for a failed item that needs one, the odometer when the checklist asks it) — 400 naming the
 *    field, in the caller's language;
 * 2. the vehicle is locked within the caller's scope; the odometer becomes a reading (the same
 *    rule and write as POST /api/counter: lower than the last one is refused; the trail's
 *    `reading` entry and reading.added);
 * 3. the inspection and its answers are written, and the vehicle's last inspection day
 *    (car.kontrolaData, which the periodic reminder rules watch);
 * 4. the failed items open what the configuration says (opensFor): one damage report (the same
 *    write as POST /api/damage/add) and/or one service-order draft, each recorded through the
 *    one write path (damage.reported / order.created, their trail entries);
 * 5. `app.writes.record` for the inspection itself: the trail entry, the webhook event declared on
 *    `submit` (inspection.submitted, with every answer), and — when an item failed — the
 *    notification of the trigger inspectionFailed to the client's fleet managers.
 *
 * The photos follow, one call each (addPhoto): an attachment of the inspection (group
 * SA_KONTROLA) linked to its item, and a copy on the damage or order the item opened.
 */
import fp from 'fastify-plugin';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Session } from '../auth/session.ts';
import type { Actor } from '../audit/actor.ts';
import { recordChange } from '../audit/index.ts';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import { scopeOfResource } from '../access/scopes.ts';
import { lockVehicle, recordReading, requireNotBelowLast } from '../repositories/vehicle-state.ts';
import { absent, RuleViolation } from '../repositories/write-rules.ts';
import type { NewAttachment } from '../attachments/storage.ts';
import type { InspectionSubmitRequest } from '../../runtime/core/generated/api.ts';
import {
  allowsNotApplicable, asksOdometer, checklistById, inspectionsFile, itemsOf, needsPhotoWhenFailed, occasionsOf, opensFor,
  type Checklist, type ChecklistGroup, type ChecklistItem, type InspectionsFile, type Opens,
} from './declarations.ts';

export type SubmitInput = InspectionSubmitRequest;
export interface InspectionQuery { offset: number; limit: number; pojazdId?: number; wynik?: 'ok' | 'failed' }

interface FieldError { field: string; message: string }
interface Answered { group: ChecklistGroup; item: ChecklistItem; wynik: 'pass' | 'fail' | 'na'; wartosc: number | null; uwagi: string | null; index: number }

/** The attachment group of an inspection's photos, and of the records a failed item opens. */
export const PHOTO_GROUP = 'SA_KONTROLA';
const OPENED_GROUP: Record<'damage' | 'serviceOrder', string> = { damage: 'SA_SZKODY', serviceOrder: 'SA_AUTO' };

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function createInspections(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const file = (): InspectionsFile => {
    const f = inspectionsFile(app.config.bundle);
    if (!f) throw new HttpError(404, t('inspection:errors.notConfigured'));
    return f;
  };
  /** A number as the caller reads it (1,6 in Polish, 1.6 in English). */
  const n = (v: number) => new Intl.NumberFormat(app.config.language.locale, { maximumFractionDigits: 2 }).format(v);
  const refuse = (errors: FieldError[]) => new HttpError(400, errors.map((e) => e.message).join('; '), { code: 'VALIDATION', errors });

  /** The caller's inspections (the inspection resource's row scope). */
  const scoped = (db: Kysely<DB>, session: Session) =>
    db.selectFrom('v_inspection').where(scopeOfResource(app, 'inspection', session) as never);

  /** An inspection row as the API answers it (the entity's fields). */
  function shown(row: Record<string, unknown>) {
    return {
      kontrolaId: Number(row.kontrolaId), data: new Date(row.data as string).toISOString(), rejestr: (row.rejestr as string | null) ?? null,
      markaOpis: (row.markaOpis as string | null) ?? null, modelOpis: (row.modelOpis as string | null) ?? null,
      szablon: String(row.szablon), okazja: String(row.okazja), wynik: String(row.wynik), iloscUsterek: Number(row.iloscUsterek),
      licznik: num(row.licznik), kontrolujacy: (row.kontrolujacy as string | null) || null, iloscZdjec: Number(row.iloscZdjec ?? 0),
      nrSprawy: (row.nrSprawy as string | null) ?? null, sprawaId: num(row.sprawaId), autId: num(row.autId),
      uwagi: (row.uwagi as string | null) ?? null, pojazdId: Number(row.pojazdId), klientSymbol: String(row.klientSymbol),
    };
  }

  /** Checks the answers against the checklist; answers them in the checklist's order. */
  function checkAnswers(checklist: Checklist, input: SubmitInput): Answered[] {
    const errors: FieldError[] = [];
    const declared = new Map(itemsOf(checklist).map((d, index) => [d.item.id, { ...d, index }]));
    const seen = new Map<string, Answered>();
    const present = new Set<string>();
    input.answers.forEach((a, i) => {
      const at = (f: string) => `answers.${i}.${f}`;
      const d = declared.get(a.pozycja);
      if (!d) return errors.push({ field: at('pozycja'), message: t('inspection:errors.unknownItem', { item: a.pozycja }) });
      const label = t(d.item.label);
      if (present.has(a.pozycja)) return errors.push({ field: at('pozycja'), message: t('inspection:errors.answeredTwice', { item: label }) });
      present.add(a.pozycja);
      if (a.wynik === 'na' && !allowsNotApplicable(d.item)) return errors.push({ field: at('wynik'), message: t('inspection:errors.notApplicableRefused', { item: label }) });
      const m = d.item.measure;
      let wartosc: number | null = null;
      if (m && a.wynik !== 'na') {
        if (a.wartosc === undefined || a.wartosc === null) return errors.push({ field: at('wartosc'), message: t('inspection:errors.measureRequired', { item: label }) });
        if (a.wartosc < m.min || a.wartosc > m.max) return errors.push({ field: at('wartosc'), message: t('inspection:errors.measureRange', { item: label, min: n(m.min), max: n(m.max), unit: m.unit ?? 'mm' }) });
        if (a.wynik === 'pass' && m.failBelow !== undefined && a.wartosc < m.failBelow) {
          return errors.push({ field: at('wynik'), message: t('inspection:errors.belowMinimum', { item: label, min: n(m.failBelow), unit: m.unit ?? 'mm' }) });
        }
        wartosc = a.wartosc;
      }
      if (a.wynik === 'fail' && needsPhotoWhenFailed(d.item) && !((a.zdjecia ?? 0) > 0)) {
        return errors.push({ field: at('zdjecia'), message: t('inspection:errors.photoRequired', { item: label }) });
      }
      seen.set(a.pozycja, { group: d.group, item: d.item, wynik: a.wynik, wartosc, uwagi: a.uwagi?.trim() || null, index: d.index });
    });
    const missing = [...declared.values()].filter((d) => !present.has(d.item.id));
    if (missing.length) errors.push({ field: 'answers', message: t('inspection:errors.unanswered', { items: missing.map((d) => t(d.item.label)).join(', ') }) });
    if (asksOdometer(checklist) && (input.licznik === undefined || input.licznik === null)) errors.push({ field: 'licznik', message: t('inspection:errors.odometerRequired') });
    if (errors.length) throw refuse(errors);
    return [...seen.values()].sort((a, b) => a.index - b.index);
  }

  /** What one failed item says in the record it opens (its text, the measure, the note). */
  function failureLine(a: Answered): string {
    const measure = a.wartosc !== null && a.item.measure ? ` (${t(a.item.measure.label)}: ${n(a.wartosc)} ${a.item.measure.unit ?? 'mm'})` : '';
    return `${t(a.group.label)} – ${t(a.item.label)}${measure}${a.uwagi ? `: ${a.uwagi}` : ''}`;
  }

  return {
    /** GET /api/inspections/templates: the checklists of a vehicle the caller sees, which are due, every text in the caller's language. */
    async templates(session: Session, pojazdId: number) {
      const f = file();
      const car = await app.db.selectFrom('car').select(['pojazdId', 'kontrolaData', 'grupa', 'kategoria'])
        .where('pojazdId', '=', pojazdId).where(scopeOfResource(app, 'car', session) as never).executeTakeFirst();
      if (!car) throw absent();
      const due = await dueChecklists(app, session, f, pojazdId);
      const day = (v: unknown) => (v ? String(v instanceof Date ? v.toISOString() : v).slice(0, 10) : null);
      return {
        pojazdId,
        kontrolaData: day(car.kontrolaData),
        templates: f.checklists.map((c) => ({
          id: c.id, label: t(c.label), occasions: occasionsOf(f, c.id), due: due.has(c.id), dueDate: due.get(c.id) ?? null, odometer: asksOdometer(c),
          groups: c.groups.map((g) => ({
            id: g.id, label: t(g.label),
            items: g.items.map((i) => ({
              id: i.id, label: t(i.label), severity: i.severity, notApplicable: allowsNotApplicable(i), photoWhenFailed: needsPhotoWhenFailed(i),
              opens: opensFor(f, g, i),
              ...(i.measure ? { measure: { kind: i.measure.kind, label: t(i.measure.label), unit: i.measure.unit ?? 'mm', min: i.measure.min, max: i.measure.max, step: i.measure.step, failBelow: i.measure.failBelow ?? null } } : {}),
            })),
          })),
        })),
      };
    },

    /** POST /api/inspections: see the file's comment. */
    async submit(session: Session, input: SubmitInput, actor: Actor) {
      const f = file();
      const checklist = checklistById(f, input.szablon);
      if (!checklist) throw refuse([{ field: 'szablon', message: t('inspection:errors.unknownChecklist') }]);
      const answers = checkAnswers(checklist, input);
      const failed = answers.filter((a) => a.wynik === 'fail');
      const carScope = scopeOfResource(app, 'car', session);
      return app.db.transaction().execute(async (trx) => {
        const car = await lockVehicle(trx, input.pojazdId, carScope);
        const at = new Date().toISOString();
        if (input.licznik !== undefined && input.licznik !== null) {
          requireNotBelowLast(car, input.licznik, 'licznik');
          await recordReading(trx, car, { licznik: input.licznik, at, userId: session.userId });
          // the same write as POST /api/counter: its trail entry and reading.added
          await app.writes.record(trx, {
            actor, resource: 'car', key: car.pojazdId, action: 'reading',
            extra: { aktStanLicz: [car.aktStanLicz, input.licznik], data: [null, at] },
            facts: { licznik: input.licznik, palStan: null, data: at },
          });
        }
        const inspection = await trx.insertInto('inspection').values({
          pojazdId: car.pojazdId, klientSymbol: car.klientSymbol, szablon: checklist.id, okazja: input.okazja ?? 'adhoc',
          licznik: input.licznik ?? null, wynik: failed.length ? 'failed' : 'ok', iloscUsterek: failed.length,
          uwagi: input.uwagi?.trim() || null, userId: session.integration ? null : session.userId,
        }).returning(['kontrolaId']).executeTakeFirstOrThrow();
        const kontrolaId = inspection.kontrolaId;
        await trx.insertInto('inspection_answer').values(answers.map((a, i) => ({
          kontrolaId, pozycja: a.item.id, grupa: a.group.id, wynik: a.wynik, waga: a.item.severity, wartosc: a.wartosc, uwagi: a.uwagi, kolejnosc: i,
        }))).execute();
        await trx.updateTable('car').set({ kontrolaData: sql<string>`current_date` }).where('pojazdId', '=', car.pojazdId).execute();

        // what the failed items open, one record per kind
        const byKind = new Map<Opens, Answered[]>();
        for (const a of failed) {
          const kind = opensFor(f, a.group, a.item);
          byKind.set(kind, [...(byKind.get(kind) ?? []), a]);
        }
        const reporter = await trx.selectFrom('app_user').select(['firstName', 'lastName', 'email', 'telefonKom', 'telefon', 'pracId'])
          .where('id', '=', session.userId).executeTakeFirst();
        const reporterName = [reporter?.lastName, reporter?.firstName].filter(Boolean).join(' ') || session.login;
        const title = t('inspection:opened.title', { checklist: t(checklist.label), rejestr: car.rejestr });
        let sprawaId: number | null = null;
        let nrSprawy: string | null = null;
        let autId: number | null = null;
        const toDamage = byKind.get('damage');
        if (toDamage?.length) {
          const damage = f.damage ?? {};
          const body = {
            pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: car.pracId ?? reporter?.pracId ?? undefined,
            dataSzkod: at, rodzSzkod: damage.rodzSzkod ?? 'Kontrola pojazdu', zpolisTyp: damage.zpolisTyp ?? 'AC',
            zgloNazwiskoImie: reporterName, zgloTelef: reporter?.telefonKom ?? reporter?.telefon ?? '-', zgloEmail: reporter?.email ?? undefined,
            stanLicz: input.licznik ?? undefined, opisSzkody: `${title}\n${toDamage.map(failureLine).join('\n')}`.slice(0, 2000),
            nrZglosz: '-',
          };
          const added = await app.damages.addIn(trx, body, carScope, { userId: session.userId, role: session.role }, { participant: 'optional' });
          sprawaId = added.sprawaId;
          nrSprawy = added.nrSprawy;
          await app.writes.record(trx, {
            actor, resource: 'damage', key: added.sprawaId, action: 'create',
            after: { ...body, nrSprawy: added.nrSprawy, autId: added.autId, kontrolaId },
          });
        }
        const toOrder = byKind.get('serviceOrder');
        if (toOrder?.length) {
          const order = f.serviceOrder ?? {};
          const values = {
            autTyp: order.autTyp ?? 1, zgloInterw: order.zgloInterw ?? null, status: 0, czySzkoda: false,
            pojazdId: car.pojazdId, rejestr: car.rejestr, klientSymbol: car.klientSymbol, markaOpis: car.markaOpis, modelOpis: car.modelOpis,
            pracId: car.pracId, stacjaSerw: car.stacjaSerw, stanLicz: input.licznik ?? null,
            zgloKto: session.role, zgloPrzyjal: session.login, zgloNazwiskoImie: reporterName, zgloTelef: reporter?.telefonKom ?? reporter?.telefon ?? null,
            zgloEmail: reporter?.email ?? null, zgloZakres: `${title}\n${toOrder.map(failureLine).join('\n')}`.slice(0, 2000), userId: session.userId,
          };
          autId = await app.orders.insertOrder(trx, values);
          await app.writes.record(trx, { actor, resource: 'order', key: autId, action: 'create', after: { ...values, kontrolaId } });
        }
        if (sprawaId !== null || autId !== null) {
          await trx.updateTable('inspection').set({ sprawaId, autId }).where('kontrolaId', '=', kontrolaId).execute();
        }
        const after = {
          pojazdId: car.pojazdId, szablon: checklist.id, okazja: input.okazja ?? 'adhoc', licznik: input.licznik ?? null,
          wynik: failed.length ? 'failed' : 'ok', iloscUsterek: failed.length, uwagi: input.uwagi?.trim() || null, sprawaId, autId,
          answers: answers.map((a) => ({ pozycja: a.item.id, wynik: a.wynik, ...(a.wartosc === null ? {} : { wartosc: a.wartosc }), ...(a.uwagi ? { uwagi: a.uwagi } : {}) })),
        };
        await app.writes.record(trx, {
          actor, resource: 'inspection', key: kontrolaId, action: 'submit', after,
          facts: { answers: answers.map((a) => ({ pozycja: a.item.id, grupa: a.group.id, wynik: a.wynik, waga: a.item.severity, wartosc: a.wartosc, uwagi: a.uwagi })) },
          ...(failed.length ? {
            notify: {
              occurrence: { kind: 'inspectionFailed' as const }, entityId: kontrolaId, seq: kontrolaId, actorUserId: session.userId,
              record: { klientSymbol: car.klientSymbol }, payload: { by: session.login },
            },
          } : {}),
        });
        const message = failed.length
          ? t(sprawaId !== null ? 'inspection:messages.submittedWithDamage' : autId !== null ? 'inspection:messages.submittedWithOrder' : 'inspection:messages.submittedWithFailures', { count: failed.length, nrSprawy })
          : t('inspection:messages.submitted');
        return { kontrolaId, wynik: after.wynik as 'ok' | 'failed', iloscUsterek: failed.length, sprawaId, nrSprawy, autId, message };
      });
    },

    /**
     * POST /api/inspections/photos: one photo of an item of an inspection the caller sees, as an
     * attachment of the inspection, and a copy on the damage or order the item opened; all in one
     * transaction with their trail entries.
     */
    async addPhoto(session: Session, kontrolaId: number, pozycja: string, photo: Omit<NewAttachment, 'grupa' | 'parentId' | 'tytul' | 'opis' | 'userId'>, actor: Actor) {
      const row = await scoped(app.db, session).select(['kontrolaId', 'szablon', 'sprawaId', 'autId']).where('kontrolaId', '=', kontrolaId).executeTakeFirst();
      if (!row) throw new HttpError(404, t('errors:notFound'));
      const answer = await app.db.selectFrom('inspection_answer').select(['pozycja', 'grupa', 'wynik', 'waga'])
        .where('kontrolaId', '=', kontrolaId).where('pozycja', '=', pozycja).executeTakeFirst();
      if (!answer) throw refuse([{ field: 'pozycja', message: t('inspection:errors.unknownItem', { item: pozycja }) }]);
      const f = inspectionsFile(app.config.bundle);
      const declared = f && checklistById(f, String(row.szablon));
      const found = declared ? itemsOf(declared).find((d) => d.item.id === pozycja) : undefined;
      const label = found ? t(found.item.label) : pozycja;
      const tytul = [...label].slice(0, 29).join('');
      const opis = t('inspection:photo.description', { item: label, kontrolaId });
      const opens: Opens = answer.wynik === 'fail' && found && f ? opensFor(f, found.group, found.item) : 'nothing';
      const copies: { grupa: string; parentId: number }[] = [{ grupa: PHOTO_GROUP, parentId: kontrolaId }];
      if (opens === 'damage' && row.sprawaId) copies.push({ grupa: OPENED_GROUP.damage, parentId: row.sprawaId });
      if (opens === 'serviceOrder' && row.autId) copies.push({ grupa: OPENED_GROUP.serviceOrder, parentId: row.autId });
      return app.db.transaction().execute(async (trx: Transaction<DB>) => {
        const ids = await app.attachments.insertAll(trx, copies.map((c) => ({ ...photo, ...c, tytul, opis, userId: session.userId })));
        await trx.insertInto('inspection_photo').values({ zalaczId: ids[0], kontrolaId, pozycja }).execute();
        for (const [i, c] of copies.entries()) {
          await recordChange(trx, { actor, resource: 'attachment', recordKey: ids[i], action: 'create', changes: {
            grupa: [null, c.grupa], parentId: [null, c.parentId], tytul: [null, tytul], opis: [null, opis], filename: [null, photo.filename], mime: [null, photo.mime], size: [null, photo.content.byteLength],
          } });
        }
        return { message: t('inspection:messages.photoAdded'), zalaczIds: ids };
      });
    },

    /** GET /api/inspections: the caller's inspections, newest first, a page at a time. */
    async list(session: Session, query: InspectionQuery) {
      let base = scoped(app.db, session);
      if (query.pojazdId !== undefined) base = base.where('pojazdId', '=', query.pojazdId);
      if (query.wynik) base = base.where('wynik', '=', query.wynik);
      const [{ total }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
        base.selectAll().orderBy('data', 'desc').orderBy('kontrolaId', 'desc').offset(query.offset).limit(query.limit).execute(),
      ]);
      return { total: Number(total), rows: rows.map((r) => shown(r as Record<string, unknown>)) };
    },

    /** GET /api/inspections/{id}: the inspection, each answer with its texts, and each item's photos. */
    async details(session: Session, kontrolaId: number) {
      const row = await scoped(app.db, session).selectAll().where('kontrolaId', '=', kontrolaId).executeTakeFirst();
      if (!row) throw new HttpError(404, t('errors:notFound'));
      const [answers, photos] = await Promise.all([
        app.db.selectFrom('inspection_answer').selectAll().where('kontrolaId', '=', kontrolaId).orderBy('kolejnosc').execute(),
        app.db.selectFrom('inspection_photo as p').innerJoin('attachment as a', 'a.zalaczId', 'p.zalaczId')
          .select(['p.pozycja', 'a.zalaczId', 'a.filename']).where('p.kontrolaId', '=', kontrolaId).orderBy('a.zalaczId').execute(),
      ]);
      const f = inspectionsFile(app.config.bundle);
      const checklist = f && checklistById(f, row.szablon as string);
      const items = new Map(checklist ? itemsOf(checklist).map((d) => [d.item.id, d]) : []);
      return {
        inspection: shown(row as Record<string, unknown>),
        answers: answers.map((a) => {
          const d = items.get(a.pozycja);
          return {
            pozycja: a.pozycja, etykieta: d ? t(d.item.label) : a.pozycja, grupa: a.grupa, grupaEtykieta: d ? t(d.group.label) : a.grupa,
            wynik: a.wynik as 'pass' | 'fail' | 'na', waga: a.waga as 'minor' | 'major' | 'critical', wartosc: num(a.wartosc), uwagi: a.uwagi,
            zdjecia: photos.filter((p) => p.pozycja === a.pozycja).map((p) => ({ zalaczId: p.zalaczId, filename: p.filename })),
          };
        }),
      };
    },
  };
}

/**
 * The periodic checklists due for a vehicle, with their due day: the checklist's reminder rule
 * (screens/reminders.json, on car.kontrolaData) lists the vehicle for the caller — the reminders'
 * own items (their row scope, their "soon" days), so Do zrobienia and this answer never disagree.
 */
async function dueChecklists(app: FastifyInstance, session: Session, f: InspectionsFile, pojazdId: number): Promise<Map<string, string | null>> {
  const due = new Map<string, string | null>();
  for (const p of f.use.periodic) {
    if (due.has(p.checklist)) continue;
    const { items } = await app.reminders.items(session, { rule: p.reminder, pojazdId, limit: 1 });
    if (items.length) due.set(p.checklist, items[0].dueDate ?? null);
  }
  return due;
}

export type Inspections = ReturnType<typeof createInspections>;

declare module 'fastify' {
  interface FastifyInstance {
    inspections: Inspections;
  }
}

export default fp(async (app) => {
  app.decorate('inspections', createInspections(app));
}, { name: 'inspections', dependencies: ['db', 'config', 'write-service', 'damages-repository', 'attachments-repository', 'orders-repository', 'reminders'] });
