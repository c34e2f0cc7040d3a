/**
 * The configuration studio's versions (issue 26): each administrator's draft, publishing,
 * the history with its diffs, rollback, export and import. The layer is config_version's
 * `documents` (migration 018); what it does to the configuration is documents.ts and check.ts.
 *
 * - A draft begins as a copy of the published layer and remembers which version that was
 *   (`basedOn`). Every save is checked whole, as publishing will: a change the check refuses is not
 *   saved (400 with each problem's layer path, pointer and words).
 * - Publishing takes one lock for the whole portal (an advisory transaction lock), so two
 *   administrators publishing at once are served one after the other: the second one's draft is
 *   then based on a version that is no longer the published one, and is refused as stale (409) with
 *   what the other published; "rebase" keeps the documents it changed over the newer version.
 *   Decided so rather than merging silently: the analyst sees the other's change before his own
 *   goes live over it.
 * - The published version is read by every process at its next reload (server/plugins/config.ts
 *   `useLayer`): publishing reloads this one and announces the reload to the others (LISTEN/NOTIFY).
 * - Rollback publishes an earlier version's layer again, as a new version.
 */
import fp from 'fastify-plugin';
import { languageView } from '../config/language-view.ts';
import { chooseLanguage, SOURCE_LANGUAGE } from '../config/languages.ts';
import { recordChange, type Actor } from '../audit/index.ts';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import type { Session } from '../auth/session.ts';
import { HttpError } from '../http-error.ts';
import { announceReload } from '../db/reload-broadcast.ts';
import { ConfigError, loadBundle } from '../config/load-bundle.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isPlainObject, mergeOverlay, type Json } from '../../runtime/core/merge.ts';
import {
  diffDocuments, ORDER_STEP, overlayBetween, pathWords, pointerOf, revertChange, touchesOf, valueAt, type Path, type ValueChange,
} from '../../runtime/core/layer.ts';
import { checkLayer, type LayerProblem } from './check.ts';
import {
  effectiveDocument, filesDocument, isDocumentPath, layerPathOf, listDocuments, overlaysOf, parseLayerPath, translationLanguages, variantNames, variantTitle,
  type Layer, type Scope,
} from './documents.ts';
import { textPlaces, type TextPlaces } from './places.ts';

type Db = Kysely<DB> | Transaction<DB>;

export interface VersionInfo {
  id: number;
  status: string;
  author: string;
  createdAt: string;
  publishedAt: string | null;
  comment: string;
  current: boolean;
  restoredFrom: number | null;
  /**
   * Each scope's version number at this version: the scopes a version changes count on by one,
   * without gaps, from 0 (as in the files); the others keep the number they had.
   */
  numbers: Record<string, number>;
  /** The scopes this version changed. */
  scopes: string[];
}
export interface DraftInfo {
  id: number;
  basedOn: number | null;
  author: string;
  updatedAt: string;
  paths: string[];
}
export interface Change {
  scope: string;
  path: string;
  pointer: string;
  /** The changed value's place as steps (keys, and ids of id-keyed lists): what taking the change back names. */
  at: Path;
  before?: Json;
  after?: Json;
  text: string;
}

interface Row {
  id: number;
  status: string;
  author: string;
  createdAt: Date | string;
  updatedAt: Date | string;
  publishedAt: Date | string | null;
  comment: string;
  basedOn: number | null;
  restoredFrom: number | null;
  documents: unknown;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
const layerOf = (row: Pick<Row, 'documents'> | undefined): Layer => (row?.documents ?? {}) as Layer;
const scopeOfPath = (layerPath: string) => parseLayerPath(layerPath).scope;
/** A layer's entries of one scope. */
const entriesOf = (layer: Layer, scope: string): Layer => Object.fromEntries(Object.entries(layer).filter(([p]) => scopeOfPath(p) === scope));
/** The scopes whose entries differ between two layers. */
function scopesChanged(before: Layer, after: Layer): string[] {
  const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
  const out = new Set<string>();
  for (const p of paths) if (JSON.stringify(before[p] ?? null) !== JSON.stringify(after[p] ?? null)) out.add(scopeOfPath(p));
  return [...out].sort((a, b) => Number(b === 'base') - Number(a === 'base') || a.localeCompare(b));
}

declare module 'fastify' {
  interface FastifyInstance {
    studio: ReturnType<typeof createStudio>;
  }
}

/** The export's file format: files by repository path, ready to commit. */
export const EXPORT_FORMAT = 'fleet-portal-config/1';

function createStudio(app: FastifyInstance, root: string) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(`studio:${key}`, vars);
  const db = () => app.db as unknown as Kysely<DB>;

  const published = (q: Db = db()) =>
    q.selectFrom('config_version').selectAll().where('status', '=', 'published').executeTakeFirst() as Promise<Row | undefined>;
  const draftOf = (session: Session, q: Db = db()) =>
    q.selectFrom('config_version').selectAll().where('status', '=', 'draft').where('authorId', '=', session.userId).executeTakeFirst() as Promise<Row | undefined>;
  const versionById = (id: number, q: Db = db()) =>
    q.selectFrom('config_version').selectAll().where('id', '=', id).where('status', '!=', 'draft').executeTakeFirst() as Promise<Row | undefined>;

  /**
   * The published history, oldest first, each version with its scopes' numbers (VersionInfo):
   * numbered from the layers themselves, so a number never has a gap whatever the rows' ids.
   */
  async function history(q: Db = db()): Promise<{ row: Row; numbers: Record<string, number>; scopes: string[] }[]> {
    const rows = (await q.selectFrom('config_version').selectAll().where('status', '!=', 'draft').orderBy('id', 'asc').execute()) as Row[];
    const numbers: Record<string, number> = {};
    let before: Layer = {};
    return rows.map((row) => {
      const scopes = scopesChanged(before, layerOf(row));
      for (const scope of scopes) numbers[scope] = (numbers[scope] ?? 0) + 1;
      before = layerOf(row);
      return { row, numbers: { ...numbers }, scopes };
    });
  }
  const infoOf = ({ row, numbers, scopes }: { row: Row; numbers: Record<string, number>; scopes: string[] }): VersionInfo => ({
    id: row.id, status: row.status, author: row.author, createdAt: iso(row.createdAt)!, publishedAt: iso(row.publishedAt),
    comment: row.comment, current: row.status === 'published', restoredFrom: row.restoredFrom, numbers, scopes,
  });
  /** A version as the studio shows it, numbered within the history. */
  async function versionInfo(row: Row, q: Db = db()): Promise<VersionInfo> {
    const entry = (await history(q)).find((h) => h.row.id === row.id);
    return infoOf(entry ?? { row, numbers: {}, scopes: [] });
  }
  /** The number of a version within one scope (0: as in the files), for messages. */
  const numberIn = (info: VersionInfo, scope: string) => info.numbers[scope] ?? 0;
  /** "Portal bazowy: wersja 3, Klient T: wersja 1" — the scopes a version changed, with their numbers. */
  const numbersText = (info: VersionInfo) =>
    (info.scopes.length ? info.scopes : ['base']).map((scope) => t('messages.scopeVersion', { scope: scopeLabel(scope), number: numberIn(info, scope) })).join(', ');

  async function draftInfo(row: Row | undefined): Promise<DraftInfo | null> {
    if (!row) return null;
    const base = row.basedOn === null ? undefined : await versionById(row.basedOn);
    const mine = layerOf(row);
    const theirs = layerOf(base);
    const paths = [...new Set([...Object.keys(mine), ...Object.keys(theirs)])]
      .filter((p) => JSON.stringify(mine[p] ?? null) !== JSON.stringify(theirs[p] ?? null))
      .sort();
    return { id: row.id, basedOn: row.basedOn, author: row.author, updatedAt: iso(row.updatedAt)!, paths };
  }

  const invalid = (problems: LayerProblem[]) =>
    new HttpError(400, t('messages.invalid', { count: problems.length }), {
      code: 'CONFIG_INVALID',
      errors: problems.map((p) => ({ field: p.field, message: p.message })),
      problems,
    });

  /** Refuses a layer the check does not pass (only the scopes it changes are loaded). */
  async function requireValid(layer: Layer, scopes?: string[]) {
    const problems = await checkLayer(root, layer, scopes);
    if (problems.length) throw invalid(problems);
  }

  const scopeLabel = (scope: Scope) => (scope === 'base' ? t('diff.base') : variantTitle(root, scope));
  /** Each scope's name: the base portal, each variant by the name its configuration gives it. */
  const scopeNames = () => Object.fromEntries(['base', ...variantNames(root)].map((scope) => [scope, scopeLabel(scope)]));

  // where each text is shown, worked out once per configuration served (a reload brings a new bundle)
  const placesCache = new WeakMap<object, TextPlaces>();
  const places = (): TextPlaces => {
    const bundle = app.config.bundle;
    let found = placesCache.get(bundle);
    if (!found) {
      found = textPlaces(bundle, (key, vars) => app.config.t(key, vars));
      placesCache.set(bundle, found);
    }
    return found;
  };
  /** The studio's declaration (screens of type studio): the namespaces of its own texts. */
  const ownNamespaces = (): string[] => {
    const studio = Object.values(app.config.bundle.screens).find((s) => (s as { type?: string }).type === 'studio') as { ownNamespaces?: string[] } | undefined;
    return studio?.ownNamespaces ?? [];
  };
  /** The languages of the texts (issue 48): the configuration's offered ones (Polish first) that have a folder here. */
  const textLanguages = () => {
    const folders = new Set([SOURCE_LANGUAGE, ...translationLanguages(root)]);
    return app.config.bundle.languages.filter((l) => folders.has(l.id));
  };
  const show = (value: Json | undefined): string => {
    if (value === undefined) return t('diff.none');
    const text = typeof value === 'string' ? `„${value}”` : JSON.stringify(value);
    return text.length > 120 ? text.slice(0, 117) + '…' : text;
  };

  /**
   * Where a changed value is, in words: a text by where it is shown (its key beside it), anything
   * else by its document and path (`screens/vehicles-table.json › columns › marka › hide`).
   */
  function placeOf(path: string, at: Path): string {
    const [, language, ns] = /^locales\/([a-z]{2,3})\/([^/]+)\.json$/.exec(path) ?? [];
    if (ns && at.length && at.every((s) => typeof s === 'string' && s !== ORDER_STEP)) {
      const key = `${ns}:${at.join('.')}`;
      // a translation's change says its language too ("… (car:fields.rejestr, English)")
      const languageName = language === SOURCE_LANGUAGE ? '' : `, ${textLanguages().find((l) => l.id === language)?.name ?? language}`;
      return `${places().placesOf(key, 1)[0]} (${key}${languageName})`;
    }
    return `${path} › ${pathWords(at, { order: t('diff.order') })}`;
  }

  /** The readable changes between two layers: every value users would see differently, document by document. */
  function changesBetween(before: Layer, after: Layer): Change[] {
    const out: Change[] = [];
    const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const layerPath of paths) {
      if (JSON.stringify(before[layerPath] ?? null) === JSON.stringify(after[layerPath] ?? null)) continue;
      const { scope, path } = parseLayerPath(layerPath);
      let was: Json | undefined;
      let now: Json | undefined;
      try {
        was = effectiveDocument(root, scope, path, before);
        now = effectiveDocument(root, scope, path, after);
      } catch {
        out.push({ scope, path, pointer: '', at: [], text: `${scopeLabel(scope)} · ${path}: ${t('diff.unreadable')}` });
        continue;
      }
      for (const change of diffDocuments(was, now) as ValueChange[]) {
        const entry: Change = {
          scope, path, pointer: pointerOf(now ?? was, change.path), at: change.path,
          text: `${scopeLabel(scope)} · ${placeOf(path, change.path)}: ${show(change.before)} → ${show(change.after)}`,
        };
        if (change.before !== undefined) entry.before = change.before;
        if (change.after !== undefined) entry.after = change.after;
        out.push(entry);
      }
    }
    return out;
  }

  /**
   * The trail's entry of a publish or rollback (issue 37): the version that was and the one that is,
   * its comment, and which layer documents changed (their paths; the documents themselves are the
   * versions' own, kept in config_version).
   */
  async function recordPublish(trx: Transaction<DB>, actor: Actor, action: 'publish' | 'rollback', before: Row | undefined, after: Row) {
    const was = layerOf(before);
    const is = layerOf(after);
    const paths = [...new Set([...Object.keys(was), ...Object.keys(is)])].filter((p) => JSON.stringify(was[p]) !== JSON.stringify(is[p])).sort();
    await recordChange(trx, {
      actor, resource: 'config-studio', recordKey: after.id, action,
      changes: { version: [before?.id ?? null, after.id], comment: [null, after.comment ?? null], documents: [null, paths], restoredFrom: [null, after.restoredFrom ?? null] },
    });
  }

  /** The caller's draft, begun from the published layer when there is none. */
  async function ensureDraft(session: Session, trx: Transaction<DB>): Promise<Row> {
    const mine = await draftOf(session, trx);
    if (mine) return mine;
    const current = await published(trx);
    return (await trx
      .insertInto('config_version')
      .values({
        status: 'draft', authorId: session.userId, author: session.login, basedOn: current?.id ?? null,
        documents: jsonb(layerOf(current)),
      })
      .returningAll()
      .executeTakeFirstOrThrow()) as Row;
  }

  function requireDocument(scope: string, path: string) {
    if (!isDocumentPath(path) || (scope !== 'base' && !variantNames(root).includes(scope))) {
      throw new HttpError(404, t('messages.noDocument', { path: `${scope}:${path}` }), { code: 'NO_DOCUMENT' });
    }
  }

  /** The layer with these documents changed as the analyst edited them (each a whole effective document). */
  function withChanges(layer: Layer, changes: { scope: string; path: string; document: Json }[]): Layer {
    const next: Layer = { ...layer };
    // the base portal's changes first: a variant's change is an overlay onto them
    const ordered = [...changes].sort((a, b) => Number(b.scope === 'base') - Number(a.scope === 'base'));
    for (const { scope, path, document } of ordered) {
      requireDocument(scope, path);
      const layerPath = layerPathOf(scope, path);
      let files: Json | undefined;
      try {
        files = filesDocument(root, scope, path, overlaysOf(next));
      } catch {
        files = undefined;
      }
      if (files === undefined) throw new HttpError(404, t('messages.noDocument', { path: layerPath }), { code: 'NO_DOCUMENT' });
      const overlay = overlayBetween(files, document);
      if (overlay === undefined) delete next[layerPath];
      else next[layerPath] = { overlay, touches: touchesOf(files, overlay) };
    }
    return next;
  }

  async function saveDraft(session: Session, change: (layer: Layer) => Layer | Promise<Layer>): Promise<DraftInfo> {
    const row = await db().transaction().execute(async (trx) => {
      const draft = await ensureDraft(session, trx);
      const before = layerOf(draft);
      const layer = await change(before);
      // only the scopes this save changes are loaded again (the rest passed when it was saved)
      const changed = Object.keys(layer).filter((p) => JSON.stringify(layer[p]) !== JSON.stringify(before[p]))
        .concat(Object.keys(before).filter((p) => !(p in layer)));
      const scopes = new Set(changed.map((p) => parseLayerPath(p).scope));
      const all = ['default', ...variantNames(root)];
      if (changed.length) await requireValid(layer, scopes.has('base') ? all : all.filter((v) => scopes.has(v)));
      return (await trx.updateTable('config_version')
        .set({ documents: jsonb(layer), updatedAt: new Date() })
        .where('id', '=', draft.id).returningAll().executeTakeFirstOrThrow()) as Row;
    });
    return (await draftInfo(row))!;
  }

  /** Publishes a layer as the new current version, in the caller's transaction that holds the lock; then every process reloads. */
  async function goLive(): Promise<void> {
    try {
      await app.config.reload();
    } catch (error) {
      app.log.error({ err: error }, 'configuration studio: reload after publishing refused');
    }
    try {
      await announceReload(app);
    } catch (error) {
      app.log.error({ err: error }, 'configuration studio: other processes could not be told to reload');
    }
  }
  const lock = (trx: Transaction<DB>) => sql`select pg_advisory_xact_lock(hashtext(current_schema() || ':config_studio'))`.execute(trx);

  return {
    async overview(session: Session) {
      const [current, draft] = await Promise.all([published(), draftOf(session)]);
      const own = new Set(ownNamespaces());
      const { namespaceNames } = places();
      return {
        scopes: ['base', ...variantNames(root)],
        scopeNames: scopeNames(),
        documents: listDocuments(root),
        namespaces: listDocuments(root).filter((d) => d.kind === 'locale')
          .map((d) => ({ id: d.id, name: namespaceNames[d.id] ?? d.id, own: own.has(d.id) }))
          .sort((a, b) => a.name.localeCompare(b.name, app.config.language.locale)),
        // the languages a text is edited in, side by side (issue 48): Polish first, each by its own name
        languages: textLanguages().map(({ id, name }) => ({ id, name })),
        published: current ? await versionInfo(current) : null,
        draft: await draftInfo(draft),
        stale: !!draft && (draft.basedOn ?? null) !== (current?.id ?? null),
        broken: app.config.layer.problems,
      };
    },

    async document(session: Session, scope: string, path: string) {
      requireDocument(scope, path);
      const [current, draft] = await Promise.all([published(), draftOf(session)]);
      const layer = layerOf(draft ?? current);
      const layerPath = layerPathOf(scope, path);
      let files: Json | undefined;
      let effective: Json | undefined;
      try {
        files = filesDocument(root, scope, path, overlaysOf(layer));
        effective = effectiveDocument(root, scope, path, layer);
      } catch {
        effective = files;
      }
      if (files === undefined) throw new HttpError(404, t('messages.noDocument', { path: layerPath }), { code: 'NO_DOCUMENT' });
      return { scope, path, layerPath, files, effective, changed: layer[layerPath] !== undefined };
    },

    async saveDocuments(session: Session, changes: { scope: string; path: string; document: Json }[]) {
      return { draft: await saveDraft(session, (layer) => withChanges(layer, changes)) };
    },

    async forgetDocument(session: Session, scope: string, path: string) {
      requireDocument(scope, path);
      const current = await published();
      const layerPath = layerPathOf(scope, path);
      const draft = await saveDraft(session, (layer) => {
        const next = { ...layer };
        const theirs = layerOf(current)[layerPath];
        if (theirs) next[layerPath] = theirs;
        else delete next[layerPath];
        return next;
      });
      return { draft };
    },

    /**
     * Texts of a scope whose words or key contain the query (case and Polish letters aside), each with
     * where it is shown (places.ts). `ns` keeps one namespace; without it the studio's own texts
     * (its declaration's ownNamespaces) are left out: they are offered apart, by their namespace.
     */
    async texts(session: Session, scope: string, query: string, ns?: string) {
      const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').replace(/ł/g, 'l').replace(/Ł/g, 'L').toLowerCase();
      const q = fold(query.trim());
      const [current, draft] = await Promise.all([published(), draftOf(session)]);
      const layer = layerOf(draft ?? current);
      const own = new Set(ownNamespaces());
      const where = places();
      const others = textLanguages().filter((l) => l.id !== SOURCE_LANGUAGE);
      type Translation = { id: string; text: string; filesText: string; changed: boolean; missing: boolean };
      const items: { key: string; text: string; filesText: string; changed: boolean; places: string[]; translations: Translation[] }[] = [];
      /** A document as the files give it and as the layer makes it; nothing when it cannot be read. */
      const read = (path: string): { files?: Json; effective?: Json } => {
        try {
          return { files: filesDocument(root, scope, path, overlaysOf(layer)), effective: effectiveDocument(root, scope, path, layer) };
        } catch {
          return {};
        }
      };
      const at = (doc: Json | undefined, steps: string[]) => steps.reduce<Json | undefined>((node, step) => (isPlainObject(node) ? node[step] : undefined), doc);
      for (const doc of listDocuments(root).filter((d) => d.kind === 'locale' && (ns ? d.id === ns : !own.has(d.id)))) {
        requireDocument(scope, doc.path);
        const { files, effective } = read(doc.path);
        if (effective === undefined) continue;
        // the same namespace in each other language (issue 48): its own text of each key, or none (missing)
        const translated = others.map((l) => ({ id: l.id, ...read(`locales/${l.id}/${doc.id}.json`) }));
        const visit = (value: Json | undefined, was: Json | undefined, steps: string[]) => {
          if (items.length >= 100) return;
          if (typeof value === 'string') {
            const full = `${doc.id}:${steps.join('.')}`;
            const translations = translated.map(({ id, files: theirFiles, effective: theirs }): Translation => {
              const text = at(theirs, steps);
              const filesText = at(theirFiles, steps);
              const own = typeof text === 'string' ? text : '';
              return { id, text: own, filesText: typeof filesText === 'string' ? filesText : '', changed: own !== (typeof filesText === 'string' ? filesText : ''), missing: !own.trim() && !!value.trim() };
            });
            if (!q || fold(value).includes(q) || fold(full).includes(q) || translations.some((tr) => fold(tr.text).includes(q))) {
              items.push({ key: full, text: value, filesText: typeof was === 'string' ? was : '', changed: value !== was, places: where.placesOf(full), translations });
            }
          } else if (isPlainObject(value)) {
            for (const [k, v] of Object.entries(value)) visit(v, isPlainObject(was) ? was[k] : undefined, [...steps, k]);
          }
        };
        visit(effective, files, []);
      }
      return { items };
    },

    /**
     * A text in Polish and, side by side, in the other languages (`translations`, by language id:
     * issue 48), in one save of the caller's draft. A language's text may be one it lacks (a
     * missing translation): it is added under the Polish text's key.
     */
    async saveText(session: Session, scope: string, key: string, text: string, translations: Record<string, string> = {}) {
      const match = /^([A-Za-z0-9._-]+):(.+)$/.exec(key);
      const pathIn = (language: string) => (match ? `locales/${language}/${match[1]}.json` : '');
      const unknown = () => new HttpError(400, t('messages.unknownKey', { key }), { code: 'UNKNOWN_KEY', errors: [{ field: 'key', message: t('messages.unknownKey', { key }) }] });
      if (!match || !isDocumentPath(pathIn(SOURCE_LANGUAGE))) throw unknown();
      const offered = new Set(textLanguages().map((l) => l.id));
      for (const language of Object.keys(translations)) {
        if (language === SOURCE_LANGUAGE || !offered.has(language)) {
          const message = t('messages.unknownLanguage', { language });
          throw new HttpError(400, message, { code: 'VALIDATION', errors: [{ field: `translations.${language}`, message }] });
        }
      }
      const steps = match[2].split('.');
      const last = steps[steps.length - 1];
      const { effective } = await this.document(session, scope, pathIn(SOURCE_LANGUAGE));
      const doc = structuredClone(effective) as Record<string, Json>;
      let at: Json | undefined = doc;
      for (const step of steps.slice(0, -1)) at = isPlainObject(at) ? at[step] : undefined;
      if (!isPlainObject(at) || typeof at[last] !== 'string') throw unknown();
      at[last] = text;
      const changes: { scope: string; path: string; document: Json }[] = [{ scope, path: pathIn(SOURCE_LANGUAGE), document: doc }];
      for (const [language, translation] of Object.entries(translations)) {
        const path = pathIn(language);
        const theirs = structuredClone((await this.document(session, scope, path)).effective ?? {}) as Record<string, Json>;
        let node: Record<string, Json> = theirs;
        for (const step of steps.slice(0, -1)) {
          if (!isPlainObject(node[step])) node[step] = {};
          node = node[step] as Record<string, Json>;
        }
        node[last] = translation;
        changes.push({ scope, path, document: theirs });
      }
      return this.saveDocuments(session, changes);
    },

    async draftDiff(session: Session) {
      const [current, draft] = await Promise.all([published(), draftOf(session)]);
      return { changes: draft ? changesBetween(layerOf(current), layerOf(draft)) : [] };
    },

    /** Takes one change of the caller's draft back (a value of draftDiff): the rest of the draft stays. */
    async revertChange(session: Session, scope: string, path: string, at: Path) {
      requireDocument(scope, path);
      const [current, draft] = await Promise.all([published(), draftOf(session)]);
      if (!draft) throw new HttpError(404, t('messages.noDraft'), { code: 'NO_DRAFT' });
      const mine = effectiveDocument(root, scope, path, layerOf(draft));
      const theirs = effectiveDocument(root, scope, path, layerOf(current));
      const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);
      const last = at[at.length - 1];
      const changed = last === ORDER_STEP
        ? diffDocuments(theirs, mine).some((c) => same(c.path, at))
        : !same(valueAt(mine, at), valueAt(theirs, at));
      if (!changed) throw new HttpError(404, t('messages.noChange'), { code: 'NO_CHANGE' });
      const document = revertChange(mine, theirs, at) ?? {};
      return this.saveDocuments(session, [{ scope, path, document }]);
    },

    async discard(session: Session) {
      await db().deleteFrom('config_version').where('status', '=', 'draft').where('authorId', '=', session.userId).execute();
      return { draft: null };
    },

    async rebase(session: Session) {
      const row = await db().transaction().execute(async (trx) => {
        const draft = await draftOf(session, trx);
        if (!draft) throw new HttpError(404, t('messages.noDraft'), { code: 'NO_DRAFT' });
        const [current, base] = await Promise.all([published(trx), draft.basedOn === null ? undefined : versionById(draft.basedOn, trx)]);
        const mine = layerOf(draft);
        const theirs = layerOf(base);
        const newest = layerOf(current);
        const changes: { scope: string; path: string; document: Json }[] = [];
        // the values this draft changed are changed again over the newest version: the analyst's
        // change of a document, as an overlay onto what it was based on, merged onto the newest one
        for (const layerPath of new Set([...Object.keys(mine), ...Object.keys(theirs)])) {
          if (JSON.stringify(mine[layerPath] ?? null) === JSON.stringify(theirs[layerPath] ?? null)) continue;
          const { scope, path } = parseLayerPath(layerPath);
          try {
            const own = overlayBetween(effectiveDocument(root, scope, path, theirs), effectiveDocument(root, scope, path, mine) ?? {});
            const over = effectiveDocument(root, scope, path, newest);
            changes.push({ scope, path, document: own === undefined ? over ?? {} : mergeOverlay(over, own) });
          } catch {
            // the newer version removed what the change places next to: the analyst's document wins
            changes.push({ scope, path, document: effectiveDocument(root, scope, path, mine) ?? {} });
          }
        }
        const next = withChanges(newest, changes);
        return (await trx.updateTable('config_version')
          .set({ documents: jsonb(next), basedOn: current?.id ?? null, updatedAt: new Date() })
          .where('id', '=', draft.id).returningAll().executeTakeFirstOrThrow()) as Row;
      });
      return { draft: await draftInfo(row) };
    },

    async publish(session: Session, comment: string, actor?: Actor) {
      const row = await db().transaction().execute(async (trx) => {
        await lock(trx);
        const draft = await draftOf(session, trx);
        if (!draft) throw new HttpError(404, t('messages.noDraft'), { code: 'NO_DRAFT' });
        const current = await published(trx);
        if ((draft.basedOn ?? null) !== (current?.id ?? null)) {
          const base = draft.basedOn === null ? undefined : await versionById(draft.basedOn, trx);
          const newer = current ? await versionInfo(current, trx) : null;
          throw new HttpError(409, t('messages.stale', { author: current?.author ?? '', versions: newer ? numbersText(newer) : '' }), {
            code: 'CONFIG_STALE',
            published: newer,
            changes: changesBetween(layerOf(base), layerOf(current)),
          });
        }
        await requireValid(layerOf(draft));
        if (current) await trx.updateTable('config_version').set({ status: 'superseded' }).where('id', '=', current.id).execute();
        // a new row rather than the draft's: version numbers then follow the order of publishing
        await trx.deleteFrom('config_version').where('id', '=', draft.id).execute();
        const published_ = (await trx.insertInto('config_version').values({
          status: 'published', authorId: session.userId, author: session.login, createdAt: draft.createdAt, publishedAt: new Date(),
          basedOn: current?.id ?? null, comment, documents: jsonb(layerOf(draft)),
        }).returningAll().executeTakeFirstOrThrow()) as Row;
        if (actor) await recordPublish(trx, actor, 'publish', current, published_);
        return published_;
      });
      await goLive();
      const version = await versionInfo(row);
      return { version, message: t('messages.published', { versions: numbersText(version) }) };
    },

    /**
     * The published versions, newest first. With a scope, only those that changed it, `current`
     * then marking the one in effect for that scope (version 0, as in the files, is every scope's
     * start and is not a row: the studio offers it itself).
     */
    async versions(scope?: string) {
      const all = (await history()).map(infoOf).reverse();
      if (!scope) return { items: all.slice(0, 200) };
      const mine = all.filter((v) => v.scopes.includes(scope)).slice(0, 200);
      return { items: mine.map((v, i) => ({ ...v, current: i === 0 })) };
    },

    /** What a version changed against the one before it (with a scope: in that scope only). */
    async versionDiff(id: number, scope?: string) {
      const row = await versionById(id);
      if (!row) throw new HttpError(404, t('messages.noVersion', { id }), { code: 'NO_VERSION' });
      const before = (await db().selectFrom('config_version').selectAll().where('status', '!=', 'draft').where('id', '<', id)
        .orderBy('id', 'desc').executeTakeFirst()) as Row | undefined;
      const pick = (layer: Layer) => (scope ? entriesOf(layer, scope) : layer);
      return { changes: changesBetween(pick(layerOf(before)), pick(layerOf(row))) };
    },

    /**
     * Publishes an earlier version again, as a new version (rollback). With a scope, only that
     * scope's changes are taken from it — version 0 being the files, none — and every other scope
     * keeps what is published; without one, the whole layer is (version 0: the files everywhere).
     */
    async restore(session: Session, id: number, comment?: string, scope?: string, actor?: Actor) {
      if (scope !== undefined && scope !== 'base' && !variantNames(root).includes(scope)) {
        throw new HttpError(404, t('messages.noDocument', { path: `client-variants/${scope}` }), { code: 'NO_DOCUMENT' });
      }
      const row = await db().transaction().execute(async (trx) => {
        await lock(trx);
        const old = id === 0 ? undefined : await versionById(id, trx);
        if (id !== 0 && !old) throw new HttpError(404, t('messages.noVersion', { id }), { code: 'NO_VERSION' });
        const current = await published(trx);
        const now = layerOf(current);
        const layer = scope === undefined
          ? layerOf(old)
          : { ...Object.fromEntries(Object.entries(now).filter(([p]) => scopeOfPath(p) !== scope)), ...entriesOf(layerOf(old), scope) };
        if (!scopesChanged(now, layer).length) {
          throw new HttpError(409, t('messages.nothingToRestore'), { code: 'NOTHING_TO_RESTORE' });
        }
        await requireValid(layer);
        const number = id === 0 ? 0 : (await history(trx)).find((h) => h.row.id === id)?.numbers[scope ?? 'base'] ?? id;
        const restoredComment = scope === undefined
          ? t('messages.restoredComment', { number })
          : t('messages.restoredScopeComment', { scope: scopeLabel(scope), number });
        if (current) await trx.updateTable('config_version').set({ status: 'superseded' }).where('id', '=', current.id).execute();
        const restored = (await trx.insertInto('config_version').values({
          status: 'published', authorId: session.userId, author: session.login, publishedAt: new Date(), basedOn: current?.id ?? null,
          restoredFrom: id === 0 ? null : id, comment: comment?.trim() || restoredComment, documents: jsonb(layer),
        }).returningAll().executeTakeFirstOrThrow()) as Row;
        if (actor) await recordPublish(trx, actor, 'rollback', current, restored);
        return restored;
      });
      await goLive();
      const version = await versionInfo(row);
      return { version, message: t('messages.restored', { versions: numbersText(version) }) };
    },

    /**
     * The layer as files to commit: a base document whole (the files' one with the change), a
     * variant's document as its overlay file (what the variant's own file said, with the change),
     * the variant's app settings in its variant.json.
     */
    async exportFiles(session: Session, source: 'published' | 'draft') {
      const row = source === 'draft' ? await draftOf(session) : await published();
      const layer = layerOf(row);
      const overlays = overlaysOf(layer);
      const files: Record<string, Json> = {};
      for (const layerPath of Object.keys(layer).sort()) {
        const { scope, path } = parseLayerPath(layerPath);
        const effective = effectiveDocument(root, scope, path, layer);
        if (effective === undefined) continue;
        if (scope === 'base') {
          files[path] = effective;
          continue;
        }
        // the variant's file overlays the base document as exported (the files + the base layer)
        const base = filesDocument(root, 'base', path, {});
        const exportedBase = overlays[path] === undefined ? base : effectiveDocument(root, 'base', path, layer);
        if (path === 'screens/app.json') {
          // a variant's app settings: variant.json's "app", which comes after its screens/app.json
          const variantFile = `client-variants/${scope}/variant.json`;
          const { app: _app, ...variant } = (files[variantFile] ?? readJsonFile(join(root, variantFile))) as Record<string, Json>;
          const app = overlayBetween(mergeOverlay(exportedBase, ownScreensApp(root, scope) ?? {}), effective);
          files[variantFile] = app === undefined ? variant : { ...variant, app };
          continue;
        }
        files[layerPath] = overlayBetween(exportedBase, effective) ?? {};
      }
      return { format: EXPORT_FORMAT, files };
    },

    /** Exported files back into the caller's draft (replacing it): each becomes the change it makes over the files. */
    async importFiles(session: Session, files: Record<string, Json>) {
      const base: { scope: string; path: string; document: Json }[] = [];
      const variants: { scope: string; path: string; file: Json }[] = [];
      for (const [file, content] of Object.entries(files)) {
        const app = /^client-variants\/([^/]+)\/variant\.json$/.exec(file);
        if (app) {
          variants.push({ scope: app[1], path: 'screens/app.json', file: isPlainObject(content) ? (content.app ?? {}) : {} });
          continue;
        }
        const { scope, path } = parseLayerPath(file);
        requireDocument(scope, path);
        if (scope === 'base') base.push({ scope, path, document: content });
        else variants.push({ scope, path, file: content });
      }
      const draft = await saveDraft(session, async () => {
        let layer = withChanges({}, base);
        const overlays = overlaysOf(layer);
        layer = withChanges(layer, variants.map(({ scope, path, file }) => {
          const exportedBase = effectiveDocument(root, 'base', path, layer) ?? filesDocument(root, 'base', path, overlays);
          const under = path === 'screens/app.json' ? mergeOverlay(exportedBase, ownScreensApp(root, scope) ?? {}) : exportedBase;
          return { scope, path, document: mergeOverlay(under, file) };
        }));
        return layer;
      });
      return { draft };
    },

    /** GET /api/ui/config's body for a variant, built with the caller's draft or the published layer. */
    async preview(session: Session, variant: string, source: 'published' | 'draft') {
      if (variant !== 'default' && !variantNames(root).includes(variant)) {
        throw new HttpError(404, t('messages.noDocument', { path: `client-variants/${variant}` }), { code: 'NO_DOCUMENT' });
      }
      const row = source === 'draft' ? (await draftOf(session)) ?? (await published()) : await published();
      try {
        const bundle = loadBundle({ root, variant, version: app.config.bundle.version, layer: overlaysOf(layerOf(row)) });
        const { etag: _etag, resources: _resources, languages, ...body } = bundle;
        // in the studio user's language, as GET /api/ui/config (issue 48)
        return languageView(body, chooseLanguage(languages, [app.config.language.id]), languages);
      } catch (error) {
        if (error instanceof ConfigError) throw invalid(await checkLayer(root, layerOf(row)));
        throw error;
      }
    },

    /** schemas/meta by $id: the JSON editor validates and completes a document with its meta-schema. */
    metaSchemas() {
      const dir = join(root, 'schemas/meta');
      const schemas: Record<string, Json> = {};
      for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
        const schema = readJsonFile(join(dir, name));
        if (isPlainObject(schema) && typeof schema.$id === 'string') schemas[schema.$id] = schema;
      }
      return { schemas };
    },

    /** What every process reads at its reload: the published layer. */
    async publishedLayer() {
      const row = await published();
      return row ? { version: row.id, entries: layerOf(row) } : undefined;
    },
  };
}

const readJsonFile = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

/** A variant's own overlay of the app settings under screens/ (variant.json's "app" comes after it). */
function ownScreensApp(root: string, scope: string): Json | undefined {
  const file = join(root, 'client-variants', scope, 'screens/app.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Json) : undefined;
}

export interface StudioOptions {
  root: string;
  /** How often a process that could not read the published layer at start tries again (ms). */
  retryMs?: number;
}

export default fp<StudioOptions>(
  async (app, opts) => {
    const studio = createStudio(app, opts.root);
    app.decorate('studio', studio);
    app.config.useLayer(() => studio.publishedLayer());
    // the files are served from the start; the published layer joins as soon as the database answers
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const joinLayer = async () => {
      try {
        if (await studio.publishedLayer()) await app.config.reload();
      } catch (error) {
        if (closed) return;
        app.log.warn({ err: error }, 'configuration studio: the published layer is not served yet; trying again');
        timer = setTimeout(() => void joinLayer(), opts.retryMs ?? 30_000);
        timer.unref();
      }
    };
    app.addHook('onReady', joinLayer);
    app.addHook('preClose', async () => {
      closed = true;
      if (timer) clearTimeout(timer);
    });
  },
  { name: 'studio', dependencies: ['config', 'db'] },
);
