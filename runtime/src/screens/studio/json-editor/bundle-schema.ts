/**
 * One self-contained JSON Schema out of the project's meta-schemas (schemas/meta/*.schema.json),
 * for the JSON editor: they are draft 2020-12 files that refer to each other by `$id`
 * (`common#/$defs/i18nKey`, `form-field`), and an editor's validator, completion and hover see one
 * schema only. Every schema the root reaches is put whole under the root's `$defs` (named after its
 * `$id`) and every `$ref` is rewritten to point there, so the result has local references only.
 */
export type JsonSchemaObject = Record<string, unknown>;

const BASE = 'https://schema.invalid/';

/** `ref` resolved against the `$id` it is written under ('meta/table' + 'common' → 'meta/common'). */
export function resolveSchemaId(base: string, ref: string): string {
  const href = new URL(ref, new URL(base, BASE)).href;
  return href.startsWith(BASE) ? href.slice(BASE.length) : href;
}

const isObject = (v: unknown): v is JsonSchemaObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The name of a bundled schema under `$defs`: its `$id` with only the characters a pointer takes as they are. */
const defName = (id: string) => `bundled_${id.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * `rootId`: the `$id` of the schema to start from ('meta/table'; the last part alone, 'table', is
 * enough when it is unambiguous). `allSchemas`: the schemas it may refer to, a list or an object of
 * them (keyed by anything: each is known by its own `$id`). Throws when a reference names a schema
 * that is not given, so that a broken set shows at once rather than as a silent editor.
 */
export function bundleSchema(rootId: string, allSchemas: Iterable<JsonSchemaObject> | Record<string, JsonSchemaObject>): JsonSchemaObject {
  const list: JsonSchemaObject[] = Symbol.iterator in Object(allSchemas) ? [...(allSchemas as Iterable<JsonSchemaObject>)] : Object.values(allSchemas);
  const byId = new Map<string, JsonSchemaObject>();
  for (const schema of list) if (typeof schema.$id === 'string') byId.set(resolveSchemaId('', schema.$id), schema);

  const wanted = resolveSchemaId('', rootId);
  let rootKey = byId.has(wanted) ? wanted : undefined;
  if (!rootKey) {
    const endings = [...byId.keys()].filter((id) => id.endsWith(`/${rootId}`));
    if (endings.length === 1) rootKey = endings[0];
  }
  if (!rootKey) throw new Error(`bundleSchema: no schema with $id "${rootId}"`);
  const root = byId.get(rootKey)!;

  const ownDefs = isObject(root.$defs) ? root.$defs : {};
  const names = new Map<string, string>(); // $id → name under $defs
  const taken = new Set(Object.keys(ownDefs));
  const bundled: Record<string, JsonSchemaObject> = {};
  const pending: string[] = [];

  const nameOf = (id: string): string => {
    let name = names.get(id);
    if (name === undefined) {
      name = defName(id);
      for (let n = 2; taken.has(name); n++) name = `${defName(id)}_${n}`;
      taken.add(name);
      names.set(id, name);
      pending.push(id);
    }
    return name;
  };

  /** A copy of `node` (written under `$id` `base`, placed at `#${at}` of the result) with local references only. */
  const rewrite = (node: unknown, base: string, at: string, from: string): unknown => {
    if (Array.isArray(node)) return node.map((item) => rewrite(item, base, at, from));
    if (!isObject(node)) return node;
    const out: JsonSchemaObject = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.$ref = rewriteRef(value, base, at, from);
      else out[key] = rewrite(value, base, at, from);
    }
    return out;
  };

  const rewriteRef = (ref: string, base: string, at: string, from: string): string => {
    const hash = ref.indexOf('#');
    const target = hash < 0 ? ref : ref.slice(0, hash);
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    if (target === '') return `#${at}${fragment}`;
    let id = resolveSchemaId(base, target);
    if (!byId.has(id) && byId.has(resolveSchemaId('', target))) id = resolveSchemaId('', target);
    if (!byId.has(id)) throw new Error(`bundleSchema: "${ref}" (in ${from}) names a schema that is not given`);
    if (id === rootKey) return `#${fragment}`;
    return `#/$defs/${nameOf(id)}${fragment}`;
  };

  const { $id: _rootId, $defs: _rootDefs, ...rootBody } = root;
  const result = rewrite(rootBody, rootKey, '', rootKey) as JsonSchemaObject;
  const defs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ownDefs)) defs[key] = rewrite(value, rootKey, '', rootKey);
  while (pending.length) {
    const id = pending.shift()!;
    const { $id: _id, $schema: _schema, ...body } = byId.get(id)!;
    bundled[names.get(id)!] = rewrite(body, id, `/$defs/${names.get(id)}`, id) as JsonSchemaObject;
  }
  const allDefs = { ...defs, ...bundled };
  return Object.keys(allDefs).length ? { ...result, $defs: allDefs } : result;
}
