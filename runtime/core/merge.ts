/**
 * Overlay merge, used for screens, schemas and locales alike (DESIGN.md §2).
 *
 * - Plain objects merge deeply, key by key.
 * - Arrays whose items all carry an `id` merge item by item: an overlay item with a known id
 *   merges into it; `{ "id": "x", "$remove": true }` removes it; a new item is appended, or placed
 *   with `"$before": "otherId"` / `"$after": "otherId"`. An existing item may move the same way.
 * - Any other array, and every scalar, replaces the base value.
 * - `null` in an overlay removes the key (so an overlay can clear a value; the configuration
 *   reads a missing and a null value alike, and the studio's overlays take keys back this way).
 * Neither input is mutated.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const OVERLAY_DIRECTIVES = ['$remove', '$before', '$after'] as const;

export function isPlainObject(v: unknown): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isIdArray(a: Json[]): a is Array<Record<string, Json> & { id: string }> {
  return a.length > 0 && a.every((item) => isPlainObject(item) && typeof item.id === 'string');
}

function stripDirectives(item: Record<string, Json>): Record<string, Json> {
  const { $remove: _r, $before: _b, $after: _a, ...rest } = item;
  return rest;
}

function place<T extends { id: string }>(list: T[], item: T, before: Json | undefined, after: Json | undefined, path: string): void {
  const anchor = typeof before === 'string' ? before : typeof after === 'string' ? after : undefined;
  const at = anchor === undefined ? -1 : list.findIndex((x) => x.id === anchor);
  if (at < 0) {
    if (anchor !== undefined) throw new MergeError(`anchor id "${anchor}" not found`, `${path}/${typeof before === 'string' ? '$before' : '$after'}`);
    list.push(item);
  } else list.splice(typeof before === 'string' ? at : at + 1, 0, item);
}

/** A mistake of an overlay; `pointer` is where in the overlay file it is (JSON pointer). */
export class MergeError extends Error {
  constructor(message: string, readonly pointer = '') {
    super(message);
  }
}

const escapeSegment = (key: string | number) => String(key).replaceAll('~', '~0').replaceAll('/', '~1');

function mergeIdArrays(base: Array<Record<string, Json> & { id: string }>, overlay: Json[], path: string): Json[] {
  const missing = overlay.findIndex((o) => !(isPlainObject(o) && typeof o.id === 'string'));
  if (missing >= 0) throw new MergeError('every item of an overlay on an id-keyed list must carry an "id"', `${path}/${missing}`);
  const result = base.map((x) => x);
  (overlay as Array<Record<string, Json> & { id: string }>).forEach((raw, i) => {
    const at = `${path}/${i}`;
    const index = result.findIndex((x) => x.id === raw.id);
    if (raw.$remove === true) {
      // removing what is not there is a mistake (a misspelt id, or a base that changed): say so
      if (index < 0) throw new MergeError(`"$remove" of id "${raw.id}", which the base list does not have`, at);
      result.splice(index, 1);
      return;
    }
    const moves = raw.$before !== undefined || raw.$after !== undefined;
    if (index >= 0) {
      const merged = merge(result[index], stripDirectives(raw), at) as Record<string, Json> & { id: string };
      if (moves) {
        result.splice(index, 1);
        place(result, merged, raw.$before, raw.$after, at);
      } else result[index] = merged;
    } else {
      place(result, stripDirectives(raw) as Record<string, Json> & { id: string }, raw.$before, raw.$after, at);
    }
  });
  return result;
}

/** Merge `overlay` onto `base` and return the result; a mistake throws a MergeError naming its place in the overlay. */
export function mergeOverlay(base: Json | undefined, overlay: Json | undefined): Json {
  return merge(base, overlay, '');
}

function merge(base: Json | undefined, overlay: Json | undefined, path: string): Json {
  if (overlay === undefined) return base === undefined ? null : base;
  if (base === undefined) return cleanNew(overlay);
  if (isPlainObject(base) && isPlainObject(overlay)) {
    const out: Record<string, Json> = { ...base };
    for (const [key, value] of Object.entries(overlay)) {
      if (value === null) delete out[key];
      else out[key] = merge(base[key], value, `${path}/${escapeSegment(key)}`);
    }
    return out;
  }
  if (Array.isArray(base) && Array.isArray(overlay) && isIdArray(base)) return mergeIdArrays(base, overlay, path);
  return cleanNew(overlay);
}

/**
 * Where a value of a merged document came from in the overlay: the overlay's JSON pointer for the
 * merged document's `pointer`, or undefined when the overlay did not give that value (it is the
 * base's). Items of id-keyed lists are found by id, since an overlay's list holds only the items it
 * changes, in its own order.
 */
export function overlayPointer(overlay: Json, merged: Json, pointer: string): string | undefined {
  if (!pointer || pointer === '/') return undefined;
  let o: Json | undefined = overlay;
  let m: Json | undefined = merged;
  const out: string[] = [];
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (Array.isArray(m)) {
      if (!Array.isArray(o)) return undefined;
      const item: Json | undefined = m[Number(key)];
      const j: number = isPlainObject(item) && typeof item.id === 'string' ? o.findIndex((x) => isPlainObject(x) && x.id === item.id) : Number(key);
      if (!(j >= 0 && j < o.length)) return undefined;
      out.push(String(j));
      o = o[j];
      m = item;
    } else if (isPlainObject(m)) {
      if (!isPlainObject(o) || !Object.hasOwn(o, key)) return undefined;
      out.push(escapeSegment(key));
      o = o[key];
      m = m[key];
    } else return undefined;
  }
  return '/' + out.join('/');
}

/** A value that did not exist in the base: drop directives from id-keyed items inside it. */
function cleanNew(value: Json): Json {
  if (Array.isArray(value)) {
    return value
      .filter((v) => !(isPlainObject(v) && v.$remove === true))
      .map((v) => (isPlainObject(v) ? cleanNew(stripDirectives(v)) : v));
  }
  if (isPlainObject(value)) {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = cleanNew(v);
    return out;
  }
  return value;
}
