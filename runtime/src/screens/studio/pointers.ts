/**
 * JSON pointers (RFC 6901) as the studio uses them: reading a place of a document, and finding the
 * problems of the checks that concern a place. A problem's `field` is `<layer path>#<pointer>`
 * (docs/config-studio-api.md); the studio shows it beside the input that writes that place and
 * in the list of every problem.
 */
import type { Problem } from './studio-api';

export const escapeToken = (token: string | number) => String(token).replace(/~/g, '~0').replace(/\//g, '~1');
export const unescapeToken = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** Builds a pointer from its tokens: ['columns', 3, 'width'] → '/columns/3/width'. */
export const pointer = (...tokens: (string | number)[]) => tokens.map((t) => `/${escapeToken(t)}`).join('');

export function tokensOf(ptr: string): string[] {
  if (ptr === '' || ptr === '/') return ptr === '/' ? [''] : [];
  return ptr.replace(/^\//, '').split('/').map(unescapeToken);
}

/** The value at a pointer, or undefined. */
export function getAt(doc: unknown, ptr: string): any {
  let node: any = doc;
  for (const token of tokensOf(ptr)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[token];
  }
  return node;
}

export interface ProblemPlace {
  layerPath: string;
  pointer: string;
}

/** Splits a problem's `field` (`screens/menu.json#/groups/0/items/3/route`). A field without '#' is a whole file. */
export function placeOf(problem: Pick<Problem, 'field' | 'pointer'>): ProblemPlace {
  const at = problem.field.indexOf('#');
  if (at < 0) return { layerPath: problem.field, pointer: problem.pointer ?? '' };
  let ptr = problem.field.slice(at + 1);
  try {
    ptr = decodeURIComponent(ptr);
  } catch {
    // a pointer with a bare % is taken as it is
  }
  return { layerPath: problem.field.slice(0, at), pointer: ptr };
}

/** Whether `inner` is `outer` or a place inside it. */
export function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(`${outer}/`) || outer === '';
}

/** The problems of one place of a document: exactly there, or (`deep`) anywhere inside it. */
export function problemsAt(problems: Problem[], layerPath: string, ptr: string, deep = false): Problem[] {
  return problems.filter((p) => {
    const place = placeOf(p);
    if (place.layerPath !== layerPath) return false;
    return deep ? within(place.pointer, ptr) : place.pointer === ptr;
  });
}

/**
 * Where a problem is, in words: the server's own words when it gave them, else the pointer's
 * tokens, an array item named by its id when the document is at hand (`columns › rejestr › width`).
 */
export function whereInWords(problem: Problem, doc?: unknown): string {
  if (problem.where) return problem.where;
  const tokens = tokensOf(placeOf(problem).pointer);
  const words: string[] = [];
  let node: any = doc;
  for (const token of tokens) {
    const next = node && typeof node === 'object' ? node[token] : undefined;
    words.push(Array.isArray(node) && next && typeof next === 'object' && typeof next.id === 'string' ? next.id : token);
    node = next;
  }
  return words.join(' › ');
}

/** The message without the place in words the server puts before it ("columns › rejestr › width: …"). */
export function reasonOf(problem: Problem): string {
  return problem.where && problem.message.startsWith(`${problem.where}: `) ? problem.message.slice(problem.where.length + 2) : problem.message;
}

/** A stable DOM id for the message of a place (aria-describedby of its input). */
export function messageId(prefix: string, layerPath: string, ptr: string): string {
  return `${prefix}-${`${layerPath}${ptr}`.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}
