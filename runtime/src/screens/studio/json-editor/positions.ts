/**
 * Where a JSON pointer (RFC 6901) is in the editor's text, read from the lang-json syntax tree, so
 * that a finding about `/columns/3/width` (the editor's own schema check, or the server's checks)
 * is marked on that value. The tree tolerates text that is not (yet) valid JSON: a pointer whose
 * end cannot be found gives the deepest place that was found, marked as `exact: false`.
 */
import { ensureSyntaxTree, syntaxTree } from '@codemirror/language';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';

export interface PointerPlace {
  /** The value's range (for an object or an array: all of it). */
  from: number;
  to: number;
  /** The range of the property name whose value this is, when it is a property's value. */
  keyFrom?: number;
  keyTo?: number;
  /** False when only a part of the pointer was found (then the range is that part's). */
  exact: boolean;
}

const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);

export function pointerTokens(pointer: string): string[] {
  const bare = pointer.startsWith('#') ? decodeURIComponent(pointer.slice(1)) : pointer;
  if (bare === '') return [];
  return bare.replace(/^\//, '').split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function children(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) out.push(child);
  return out;
}

function keyText(state: EditorState, name: SyntaxNode): string {
  const raw = state.doc.sliceString(name.from, name.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"|"$/g, '');
  }
}

/** The syntax tree of the whole text (parsed to its end within `timeoutMs`, else as far as it got). */
export function wholeTree(state: EditorState, timeoutMs = 200) {
  return ensureSyntaxTree(state, state.doc.length, timeoutMs) ?? syntaxTree(state);
}

/** The place of `pointer` in the text, or null when the text has no JSON value at all. */
export function placeOfPointer(state: EditorState, pointer: string): PointerPlace | null {
  const top = wholeTree(state).topNode;
  let node = children(top).find((c) => VALUE_NODES.has(c.name));
  if (!node) return null;
  let key: SyntaxNode | undefined;
  for (const token of pointerTokens(pointer)) {
    let next: SyntaxNode | undefined;
    let nextKey: SyntaxNode | undefined;
    if (node.name === 'Object') {
      // the last property of that name wins, as in JSON.parse
      for (const property of children(node).filter((c) => c.name === 'Property').reverse()) {
        const name = property.getChild('PropertyName');
        if (name && keyText(state, name) === token) {
          nextKey = name;
          next = children(property).find((c) => VALUE_NODES.has(c.name));
          // a property still without its value: its name is the place
          if (!next) return { from: name.from, to: name.to, keyFrom: name.from, keyTo: name.to, exact: false };
          break;
        }
      }
    } else if (node.name === 'Array' && /^(0|[1-9]\d*)$/.test(token)) {
      next = children(node).filter((c) => VALUE_NODES.has(c.name))[Number(token)];
    }
    if (!next) return { from: node.from, to: node.to, ...(key ? { keyFrom: key.from, keyTo: key.to } : {}), exact: false };
    node = next;
    key = nextKey;
  }
  return { from: node.from, to: node.to, ...(key ? { keyFrom: key.from, keyTo: key.to } : {}), exact: true };
}

/**
 * The range to underline for a finding about a place: a short value itself; an object or array
 * (which may span many lines) by its property name, or by its opening bracket when it has none;
 * `onKey` (an unknown or misspelt property) by the property name.
 */
export function markRange(state: EditorState, place: PointerPlace, onKey = false): { from: number; to: number } {
  const hasKey = place.keyFrom !== undefined && place.keyTo !== undefined;
  if (onKey && hasKey) return { from: place.keyFrom!, to: place.keyTo! };
  const long = state.doc.lineAt(place.from).number !== state.doc.lineAt(place.to).number || place.to - place.from > 120;
  if (!long) return { from: place.from, to: place.to };
  if (hasKey) return { from: place.keyFrom!, to: place.keyTo! };
  return { from: place.from, to: Math.min(place.to, place.from + 1) };
}
