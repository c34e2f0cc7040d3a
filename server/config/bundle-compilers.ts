/**
 * Request validators and response serializers that follow the configuration in use. Fastify
 * compiles a route's schemas once, when the route is added, and cannot change them after
 * `ready`; the schemas those routes name (`{ $ref: 'row-params#' }`, `{ $ref: 'car#' }` …) live in
 * schemas/ and change with a reload (npm run dev, restart-application). So the compiled function
 * Fastify keeps is a small dispatcher: per call it takes the bundle in use and runs the validator
 * (or serializer) compiled for that bundle, compiled on first use and kept while the bundle is.
 * A reload therefore changes what a body must look like and what an answer carries without
 * rebuilding the application; only the set of paths stays what it was at start (a resource added
 * by a reload needs a restart for its routes, a removed one answers 404).
 */
import { createHash } from 'node:crypto';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySchemaValidationError } from 'fastify';
import type { Bundle, EntitySchema } from './bundle.ts';

/** Schemas of schemas/ as the API uses them: $schema and our x- keywords are for tools, not for requests. */
export function apiSchemas(schemas: Bundle['schemas']): EntitySchema[] {
  return Object.values(schemas).map(({ $schema: _ignored, ...schema }) => schema);
}

type RouteSchema = { schema: object };
/** What Fastify expects of a validator: ajv's error objects are Fastify's validation errors. */
type Validator = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };
type Serializer = (data: unknown) => string;

/** One ajv (draft 2020-12, formats) per bundle, holding every schema of schemas/ so they may $ref each other. */
function ajvFor(bundle: Bundle) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false });
  addFormats(ajv);
  for (const schema of apiSchemas(bundle.schemas)) ajv.addSchema(schema);
  return ajv;
}

/**
 * Compiles per configuration and per route schema, once in the process. A bundle's compiled
 * functions are looked up by the bundle object (every call) and, the first time a bundle is met, by
 * what its schemas say: a reload that changed no schema (a label, a menu), and every app of the
 * process on the same configuration, reuse what was compiled instead of compiling every route's
 * schemas again (fast-json-stringify's build is most of an application's start). The last few
 * configurations are kept; a bundle still in use keeps its own through the WeakMap.
 */
const KEPT_CONFIGURATIONS = 4;
let compilations = 0;
/** How many route schemas this process has compiled (validators and serializers): what the reuse saves shows here. */
export const compiledRouteSchemas = () => compilations;
function perConfiguration<T>(build: (bundle: Bundle) => (schema: object) => T) {
  type Entry = { compile: (schema: object) => T; byObject: WeakMap<object, T>; byText: Map<string, T> };
  const byBundle = new WeakMap<Bundle, Entry>();
  const byContent = new Map<string, Entry>();
  const entryOf = (bundle: Bundle): Entry => {
    let entry = byBundle.get(bundle);
    if (entry) return entry;
    const key = createHash('sha256').update(JSON.stringify(apiSchemas(bundle.schemas))).digest('base64');
    entry = byContent.get(key);
    if (!entry) {
      entry = { compile: build(bundle), byObject: new WeakMap(), byText: new Map() };
      byContent.set(key, entry);
      if (byContent.size > KEPT_CONFIGURATIONS) byContent.delete(byContent.keys().next().value!);
    }
    byBundle.set(bundle, entry);
    return entry;
  };
  return (bundle: Bundle, schema: object): T => {
    const entry = entryOf(bundle);
    let compiled = entry.byObject.get(schema);
    if (compiled) return compiled;
    const text = JSON.stringify(schema);
    compiled = entry.byText.get(text);
    if (!compiled) {
      entry.byText.set(text, (compiled = entry.compile(schema)));
      compilations++;
    }
    entry.byObject.set(schema, compiled);
    return compiled;
  };
}

const validatorOf = perConfiguration((bundle) => {
  const ajv = ajvFor(bundle);
  return (schema) => ajv.compile(schema) as ValidateFunction;
});
const serializerOf = perConfiguration((bundle) => {
  const external = Object.fromEntries(apiSchemas(bundle.schemas).map((s) => [s.$id, s]));
  return (schema) => fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0], { schema: referencedSchemas(schema, external) }) as Serializer;
});

/**
 * The schemas of `external` that `schema` refers to, directly or through one another (`$ref:
 * "car#…"` names car). fast-json-stringify checks and indexes every external schema it is given on
 * every build, so handing each route the whole of schemas/ made each route's serializer cost the
 * whole configuration: most of an application's start.
 */
export function referencedSchemas<S extends object>(schema: unknown, external: Record<string, S>): Record<string, S> {
  const found: Record<string, S> = {};
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key !== '$ref' || typeof value !== 'string') visit(value);
        else {
          const id = value.split('#')[0];
          if (id && external[id] && !found[id]) {
            found[id] = external[id];
            visit(external[id]);
          }
        }
      }
    }
  };
  visit(schema);
  return found;
}

/**
 * Fastify's validator and serializer compilers for an application whose configuration is read
 * through `current()`. Each route schema is compiled against the bundle in use when the route is
 * added, so a broken schema still stops start-up.
 */
export function bundleCompilers(current: () => Bundle) {
  const validatorCompiler = ({ schema }: RouteSchema): Validator => {
    validatorOf(current(), schema);
    const validate: Validator = (data) => {
      const fn = validatorOf(current(), schema);
      const ok = fn(data);
      // Fastify reads the errors from the function it was given, right after the call
      validate.errors = fn.errors;
      return ok;
    };
    return validate;
  };

  const serializerCompiler = ({ schema }: RouteSchema): Serializer => {
    serializerOf(current(), schema);
    return (data) => serializerOf(current(), schema)(data);
  };

  return { validatorCompiler, serializerCompiler };
}
