/**
 * The Fastify application, built in tiers (as fastify/demo does): external plugins, then the
 * app's own plugins (config, db, errors, auth, signature), then routes. Tests build it with an
 * in-memory or throwaway database and call it with inject(); main.ts adds listening.
 */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import authPlugin from './plugins/auth.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import { compression, runtimeFiles } from './plugins/delivery.ts';
import errorsPlugin from './plugins/errors.ts';
import limitsPlugin, { DEFAULT_SERVER_LIMITS, serverLimits, type ServerLimits } from './plugins/limits.ts';
import signaturePlugin from './plugins/signature.ts';
import carRoutes from './routes/car.ts';
import initRoutes from './routes/init.ts';
import invoiceFileRoutes from './routes/invoice-files.ts';
import emailSettingsRoutes from './routes/email-settings.ts';
import passwordRoutes from './routes/passwords.ts';
import settingsRoutes from './routes/settings.ts';
import termsRoutes from './routes/terms.ts';
import userAuthRoutes from './routes/user-auth.ts';
import userTableSettingsRoutes from './routes/user-table-settings.ts';
import tableRoutes from './resources/table-routes.ts';
import excelRoutes from './resources/excel-routes.ts';
import { loadBundle } from './config/load-bundle.ts';

export interface AppOptions {
  db: Kysely<any>;
  root: string;
  variant?: string;
  version: string;
  /** Folder of the built runtime; served with a fallback to index.html for client-side routes. */
  staticDir?: string;
  logger?: boolean;
  /** Request time-outs and load shedding (plugins/limits.ts); main.ts reads them from the environment. */
  limits?: Partial<ServerLimits>;
}

/** Schemas of schemas/ as the API uses them: $schema and our x- keywords are for tools, not for requests. */
function apiSchemas(schemas: Record<string, Record<string, any>>) {
  return Object.values(schemas).map(({ $schema: _ignored, ...schema }) => schema);
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const load = { root: options.root, variant: options.variant, version: options.version };
  // Fails fast, before anything listens, with file, pointer and reason.
  const initial = loadBundle(load);

  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const app = Fastify({
    ...serverLimits(limits),
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { strict: false } },
  });

  // One ajv (draft 2020-12, formats) validates every request body against schemas/.
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, useDefaults: true, removeAdditional: false });
  addFormats(ajv);
  const schemas = apiSchemas(initial.schemas);
  for (const schema of schemas) {
    ajv.addSchema(schema);
    app.addSchema(schema);
  }
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

  // The API documentation is public, like the API's own description of itself should be.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/docs')) route.config = { ...(route.config ?? {}), public: true };
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Portal klienta flotowego – API', version: options.version },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  await app.register(configPlugin, { load });
  await app.register(dbPlugin, { db: options.db });
  await app.register(errorsPlugin);
  await app.register(limitsPlugin, { limits });
  await app.register(compression);
  await app.register(authPlugin);
  await app.register(signaturePlugin);

  await app.register(initRoutes);
  await app.register(userAuthRoutes);
  await app.register(termsRoutes);
  await app.register(passwordRoutes);
  await app.register(settingsRoutes);
  await app.register(emailSettingsRoutes);
  await app.register(carRoutes);
  await app.register(tableRoutes);
  await app.register(excelRoutes);
  await app.register(userTableSettingsRoutes);
  await app.register(invoiceFileRoutes);

  await app.register(runtimeFiles, { staticDir: options.staticDir });
  return app;
}
