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
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fastJsonStringify from 'fast-json-stringify';
import type { Bundle } from './bundle.ts';

/** Schemas of schemas/ as the API uses them: $schema and our x- keywords are for tools, not for requests. */
export function apiSchemas(schemas: Bundle['schemas']): Record<string, any>[] {
  return Object.values(schemas).map(({ $schema: _ignored, ...schema }) => schema);
}

type RouteSchema = { schema: object };
type Validator = ((data: unknown) => boolean) & { errors?: unknown };
type Serializer = (data: unknown) => string;

/** One ajv (draft 2020-12, formats) per bundle, holding every schema of schemas/ so they may $ref each other. */
function ajvFor(bundle: Bundle) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false });
  addFormats(ajv);
  for (const schema of apiSchemas(bundle.schemas)) ajv.addSchema(schema);
  return ajv;
}

/** Compiles per bundle and per route schema, and forgets a bundle once no request holds it. */
function perBundle<T>(build: (bundle: Bundle) => (schema: object) => T) {
  const compilers = new WeakMap<Bundle, { compile: (schema: object) => T; done: WeakMap<object, T> }>();
  return (bundle: Bundle, schema: object): T => {
    let entry = compilers.get(bundle);
    if (!entry) compilers.set(bundle, (entry = { compile: build(bundle), done: new WeakMap() }));
    let compiled = entry.done.get(schema);
    if (!compiled) entry.done.set(schema, (compiled = entry.compile(schema)));
    return compiled;
  };
}

/**
 * Fastify's validator and serializer compilers for an application whose configuration is read
 * through `current()`. Each route schema is compiled against the bundle in use when the route is
 * added, so a broken schema still stops start-up.
 */
export function bundleCompilers(current: () => Bundle) {
  const validatorOf = perBundle((bundle) => {
    const ajv = ajvFor(bundle);
    return (schema) => ajv.compile(schema) as ValidateFunction;
  });
  const serializerOf = perBundle((bundle) => {
    const external = Object.fromEntries(apiSchemas(bundle.schemas).map((s) => [s.$id, s]));
    return (schema) => fastJsonStringify(schema as any, { schema: external }) as Serializer;
  });

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
