/**
 * The configuration studio's layer (issue 26), the pure part: what an analyst's change of a
 * document is, as an overlay (runtime/core/merge.ts) onto what the files give.
 *
 * - `overlayBetween(base, target)`: the overlay that turns `base` into `target` under mergeOverlay
 *   (objects key by key, id-keyed lists item by item with `$remove` and `$after`/`$before`, anything
 *   else replaced). The studio stores changes this way, so that a later change of the files still
 *   reaches every value the analyst did not change.
 * - `touchesOf(base, overlay)`: the keys and ids of `base` an overlay changes; `missingTouches`
 *   says which of them the files no longer have (the entry is then broken: it no longer applies).
 * - `diffDocuments(before, after)`: the changed values, as JSON pointers with ids in words.
 */
import { isPlainObject, mergeOverlay, type Json } from './merge.ts';

/** One step of a path in a document: a key, or the item of an id-keyed list with this id. */
export type Step = string | { id: string };
export type Path = Step[];

const isIdList = (value: Json | undefined): value is Array<Record<string, Json> & { id: string }> =>
  Array.isArray(value) && value.length > 0 && value.every((item) => isPlainObject(item) && typeof item.id === 'string');

const same = (a: Json | undefined, b: Json | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The overlay turning `base` into `target`; undefined when they are the same. */
export function overlayBetween(base: Json | undefined, target: Json): Json | undefined {
  if (same(base, target)) return undefined;
  if (isPlainObject(base) && isPlainObject(target)) {
    const out: Record<string, Json> = {};
    for (const [key, value] of Object.entries(target)) {
      const sub = Object.hasOwn(base, key) ? overlayBetween(base[key], value) : value;
      if (sub !== undefined) out[key] = sub;
    }
    // a key the target lacks: an overlay cannot delete a key, but null clears it (a missing and a
    // null value read the same in the configuration)
    for (const key of Object.keys(base)) if (!Object.hasOwn(target, key)) out[key] = null;
    return out;
  }
  if (isIdList(base) && Array.isArray(target) && target.every((item) => isPlainObject(item) && typeof item.id === 'string')) {
    return idListOverlay(base, target as Array<Record<string, Json> & { id: string }>);
  }
  return target;
}

function idListOverlay(base: Array<Record<string, Json> & { id: string }>, target: Array<Record<string, Json> & { id: string }>): Json[] {
  const out: Json[] = [];
  const targetIds = new Set(target.map((item) => item.id));
  for (const item of base) if (!targetIds.has(item.id)) out.push({ id: item.id, $remove: true });
  // the order the merge will produce so far: the base's items that stay, in their order
  const order = base.filter((item) => targetIds.has(item.id)).map((item) => item.id);
  target.forEach((item, i) => {
    const previous = i === 0 ? undefined : target[i - 1].id;
    const known = base.find((b) => b.id === item.id);
    const at = order.indexOf(item.id);
    const inPlace = at >= 0 && (i === 0 ? at === 0 : order[at - 1] === previous);
    const entry: Record<string, Json> = { id: item.id };
    if (known) {
      const changed = overlayBetween(known, item) as Record<string, Json> | undefined;
      if (changed) Object.assign(entry, changed, { id: item.id });
    } else Object.assign(entry, item);
    if (!inPlace) {
      if (previous === undefined) entry.$before = order[0] ?? null;
      else entry.$after = previous;
      if (entry.$before === null) delete entry.$before;
      if (at >= 0) order.splice(at, 1);
      const anchor = previous === undefined ? 0 : order.indexOf(previous) + 1;
      order.splice(anchor, 0, item.id);
    }
    if (!known || !inPlace || Object.keys(entry).length > 1) out.push(entry);
  });
  return out;
}

/** Where an overlay changes `base`: the paths of the values it replaces, the items it changes, removes or places next to. */
export function touchesOf(base: Json | undefined, overlay: Json | undefined): Path[] {
  const out: Path[] = [];
  walk(base, overlay, [], out);
  return out;
}

function walk(base: Json | undefined, overlay: Json | undefined, at: Path, out: Path[]): void {
  if (overlay === undefined) return;
  if (isPlainObject(base) && isPlainObject(overlay)) {
    for (const [key, value] of Object.entries(overlay)) {
      if (Object.hasOwn(base, key)) walk(base[key], value, [...at, key], out);
      else if (at.length) out.push(at); // a new key needs its parent
    }
    return;
  }
  if (isIdList(base) && Array.isArray(overlay)) {
    for (const raw of overlay) {
      if (!isPlainObject(raw) || typeof raw.id !== 'string') continue;
      const item = base.find((b) => b.id === raw.id);
      for (const anchor of [raw.$before, raw.$after]) if (typeof anchor === 'string') out.push([...at, { id: anchor }]);
      if (raw.$remove === true || !item) {
        out.push(raw.$remove === true ? [...at, { id: raw.id }] : at);
        continue;
      }
      const { $before: _b, $after: _a, id: _id, ...rest } = raw;
      if (!Object.keys(rest).length) out.push([...at, { id: raw.id }]);
      else walk(item, rest, [...at, { id: raw.id }], out);
    }
    return;
  }
  if (at.length) out.push(at);
}

/** The value at a path, or undefined. */
export function valueAt(doc: Json | undefined, path: Path): Json | undefined {
  let value: Json | undefined = doc;
  for (const step of path) {
    if (typeof step === 'string') value = isPlainObject(value) && Object.hasOwn(value, step) ? value[step] : undefined;
    else value = Array.isArray(value) ? value.find((item) => isPlainObject(item) && item.id === step.id) : undefined;
    if (value === undefined) return undefined;
  }
  return value;
}

/** The touched paths the files no longer have (an id removed, a key renamed). */
export function missingTouches(base: Json | undefined, touches: Path[]): Path[] {
  return touches.filter((path) => valueAt(base, path) === undefined);
}

/** The step of a diff's path that stands for the order of an id-keyed list's items. */
export const ORDER_STEP = '$order';

/**
 * A path in words: `columns › rejestr › width`. The order step is written as `words.order` (the
 * caller's text, from locales/), or left as it is.
 */
export const pathWords = (path: Path, words: { order?: string } = {}): string =>
  path.map((s) => (typeof s !== 'string' ? s.id : s === ORDER_STEP && words.order ? words.order : s)).join(' › ');

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');

/** A path as a JSON pointer into `doc` (ids become their index there). */
export function pointerOf(doc: Json | undefined, path: Path): string {
  let value: Json | undefined = doc;
  const out: string[] = [];
  for (const step of path) {
    if (typeof step === 'string') {
      out.push(escape(step));
      value = isPlainObject(value) ? value[step] : undefined;
    } else {
      const i = Array.isArray(value) ? value.findIndex((item) => isPlainObject(item) && item.id === step.id) : -1;
      out.push(i >= 0 ? String(i) : escape(step.id));
      value = Array.isArray(value) && i >= 0 ? value[i] : undefined;
    }
  }
  return out.length ? '/' + out.join('/') : '';
}

/** A JSON pointer into `doc` as a path (list indexes of id-keyed lists become ids). */
export function pathOf(doc: Json | undefined, pointer: string): Path {
  const out: Path = [];
  let value: Json | undefined = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(value)) {
      const item: Json | undefined = value[Number(key)];
      out.push(isPlainObject(item) && typeof item.id === 'string' ? { id: item.id } : key);
      value = item;
    } else {
      out.push(key);
      value = isPlainObject(value) ? value[key] : undefined;
    }
  }
  return out;
}

export interface ValueChange {
  path: Path;
  before?: Json;
  after?: Json;
}

/** The values that differ between two versions of a document, deepest first where both are objects or id-keyed lists. */
export function diffDocuments(before: Json | undefined, after: Json | undefined, at: Path = []): ValueChange[] {
  if (same(before, after)) return [];
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => diffDocuments(before[key], after[key], [...at, key]));
  }
  if (isIdList(before) && isIdList(after)) {
    const out: ValueChange[] = [];
    const ids = [...new Set([...before.map((i) => i.id), ...after.map((i) => i.id)])];
    for (const id of ids) {
      const b = before.find((i) => i.id === id);
      const a = after.find((i) => i.id === id);
      out.push(...diffDocuments(b, a, [...at, { id }]));
    }
    const order = (list: Array<{ id: string }>, keep: Set<string>) => list.map((i) => i.id).filter((id) => keep.has(id));
    const both = new Set(before.map((i) => i.id).filter((id) => after.some((a) => a.id === id)));
    const was = order(before, both);
    const now = order(after, both);
    if (!same(was, now)) out.push({ path: [...at, ORDER_STEP], before: was, after: now });
    return out;
  }
  const change: ValueChange = { path: at };
  if (before !== undefined) change.before = before;
  if (after !== undefined) change.after = after;
  return [change];
}

/** mergeOverlay that treats an absent overlay as "no change". */
export const applyOverlay = (base: Json | undefined, overlay: Json | undefined): Json | undefined =>
  overlay === undefined ? base : mergeOverlay(base, overlay);
