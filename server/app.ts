/**
 * The Fastify application, built in tiers (as fastify/demo does): external plugins, then the
 * app's own plugins (config, db, errors, auth, signature), then routes. Tests build it with an
 * in-memory or throwaway database and call it with inject(); main.ts adds listening.
 */
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import swagger, { type SwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import authPlugin, { declareScopeAccess, requireAccessDeclarations, type DeclaredRoute } from './plugins/auth.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import { compression, runtimeFiles } from './plugins/delivery.ts';
import variantAssetRoutes from './routes/variant-assets.ts';
import errorsPlugin from './plugins/errors.ts';
import limitsPlugin, { DEFAULT_SERVER_LIMITS, serverLimits, type ServerLimits } from './plugins/limits.ts';
import requestLogPlugin, { requestLogOptions } from './plugins/request-log.ts';
import { openapiOptions, requireOperationDeclarations } from './plugins/openapi.ts';
import { importRowSchemas } from './imports/openapi.ts';
import { webhooksSection } from './webhooks/openapi.ts';
import webhooksService, { type WebhookOptions } from './webhooks/service.ts';
import webhookRoutes from './routes/webhooks.ts';
import secondFactorPlugin, { type SecondFactorOptions } from './repositories/second-factor.ts';
import secondFactorRoutes from './routes/second-factor.ts';
import passkeySignInRoutes from './routes/passkey-sign-in.ts';
import accountSecurityRoutes from './routes/account-security.ts';
import signaturePlugin from './plugins/signature.ts';
import metricsPlugin, { type MetricsAppOptions } from './metrics/plugin.ts';
import carRoutes from './routes/car.ts';
import orderRoutes from './routes/orders.ts';
import initRoutes from './routes/init.ts';
import invoiceFileRoutes from './routes/invoice-files.ts';
import emailSettingsRoutes from './routes/email-settings.ts';
import auditRoutes from './routes/audit.ts';
import passwordRoutes from './routes/passwords.ts';
import settingsRoutes from './routes/settings.ts';
import termsRoutes from './routes/terms.ts';
import userAuthRoutes from './routes/user-auth.ts';
import ssoRoutes from './routes/sso.ts';
import userTableSettingsRoutes from './routes/user-table-settings.ts';
import attachmentRoutes from './routes/attachments.ts';
import contractRoutes from './routes/contract.ts';
import noteRoutes from './routes/notes.ts';
import usersAdminRoutes from './routes/users-admin.ts';
import personalDataRoutes from './routes/personal-data.ts';
// issue 14: damages, handovers and returns, readings, employees
import assignmentRoutes from './routes/assignments.ts';
import counterRoutes from './routes/counter.ts';
import idempotencyPlugin from './plugins/idempotency.ts';
import damageRoutes from './routes/damages.ts';
import employeeRoutes from './routes/employees.ts';
import reminderRoutes from './routes/reminders.ts';
import remindersService from './reminders/service.ts';
import digestService from './notifications/digest.ts';
import auditRetention from './audit/retention-job.ts';
import auditFieldLabels from './audit/field-labels.ts';
import cockpitRoutes from './routes/cockpit.ts';
import reportRoutes from './routes/reports.ts';
import reportSubscriptionRoutes from './routes/report-subscriptions.ts';
import pushService, { type PushOptions } from './push/service.ts';
import pushRoutes from './routes/push.ts';
import { pushSection } from './push/openapi.ts';
import reportSubscriptions from './reports/subscriptions.ts';
import cockpitRepository from './repositories/cockpit.ts';
import notificationsService, { type NotificationOptions } from './notifications/service.ts';
import notificationRoutes from './routes/notifications.ts';
import accountLanguageRoutes from './routes/account-language.ts';
import studioService from './studio/service.ts';
import configStudioRoutes from './routes/config-studio.ts';
import importsService from './imports/service.ts';
import importRoutes from './routes/imports.ts';
import anomaliesService from './anomalies/service.ts';
import anomalyRoutes from './routes/fuel-anomalies.ts';
// issue 47: vehicle inspections from declared checklists
import inspectionsService from './inspections/service.ts';
import inspectionRoutes from './routes/inspections.ts';
import integrationAccountRoutes from './routes/integration-accounts.ts';
import assignmentsRepository from './repositories/assignments.ts';
import counterRepository from './repositories/counter.ts';
import damagesRepository from './repositories/damages.ts';
import employeesRepository from './repositories/employees.ts';
import writeRules from './repositories/write-rules.ts';
import tableRoutes from './resources/table-routes.ts';
import excelRoutes from './resources/excel-routes.ts';
import { apiSchemas, bundleCompilers } from './config/bundle-compilers.ts';
import { loadVariants, type VariantSet } from './config/variants.ts';
import tableQueriesPlugin from './resources/table-queries.ts';
import loginHistoryRepository from './repositories/login-history.ts';
import sessionsRepository from './repositories/sessions.ts';
import settingsRepository from './repositories/settings.ts';
import termsRepository from './repositories/terms.ts';
import usersRepository from './repositories/users.ts';
import ordersRepository from './repositories/orders.ts';
import orderService from './services/orders.ts';
import writeService from './services/write.ts';
import sessionService from './services/sessions.ts';
import passwordService from './services/passwords.ts';
import accountService from './services/accounts.ts';
import noteService from './services/notes.ts';
import securityService from './services/account-security.ts';
import employeeService from './services/employees.ts';
import readingService from './services/vehicle-readings.ts';
import assignmentService from './services/assignments.ts';
import damageService from './services/damages.ts';
import attachmentsRepository from './repositories/attachments.ts';
import notesRepository from './repositories/notes.ts';
import contractsRepository from './repositories/contracts.ts';
import type { Bundle } from './config/bundle.ts';
import type { DB } from './db/types.generated.ts';

export interface AppOptions {
  db: Kysely<DB>;
  root: string;
  variant?: string;
  version: string;
  /** Folder of the built runtime; served with a fallback to index.html for client-side routes. */
  staticDir?: string;
  /** The request log (plugins/request-log.ts): one JSON line per request; off unless true. */
  logger?: boolean;
  /** Where the log lines go (tests capture them); default standard output. */
  logStream?: NodeJS.WritableStream;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (lock-out and call limits
   * count per address): Fastify's trustProxy — "true", a hop count, or addresses/CIDRs separated
   * by commas. Unset: the address of the connection.
   */
  trustProxy?: string;
  /**
   * The configuration, when the caller loaded it already: every served variant (main.ts, which
   * needs the database's time zone first) or one bundle alone (tests); otherwise loaded here.
   */
  bundle?: Bundle | VariantSet;
  /** Request time-outs and load shedding (plugins/limits.ts); main.ts reads them from the environment. */
  limits?: Partial<ServerLimits>;
  /**
   * Names this process in an `X-Served-By` header on every answer (main.ts: INSTANCE_ID and the
   * process id), so that an operator behind a load balancer sees which process answered. Unset: no header.
   */
  servedBy?: string;
  /** The time "now" for what depends on the day (the reminders' urgencies); tests fix it. Unset: the system clock. */
  clock?: () => Date;
  /** Tests only: the per-address call limits (security.rateLimit) are lifted, whatever configuration is served, reloads included. */
  liftRateLimits?: boolean;
  /**
   * Notifications (issue 25): `worker: false` keeps this process from delivering e-mails and
   * running scheduled jobs (tests that do not deliver; notifications are still written);
   * `publicUrl` is the portal's address in e-mail links (main.ts: PUBLIC_URL; default
   * http://localhost:3000); tests shorten the polling and the retry delay.
   */
  notifications?: Partial<Omit<NotificationOptions, 'root'>>;
  /**
   * Metrics (issue 33, server/metrics/): this process's instance, and GET /metrics on this port
   * when only METRICS_TOKEN is set (main.ts). Unset: counted, never served.
   */
  metrics?: MetricsAppOptions;
  /** Webhooks (issue 35): main.ts gives WEBHOOK_SECRET_KEY and WEBHOOK_ALLOW_HOSTS; tests shorten the schedule. */
  webhooks?: WebhookOptions;
  /** Two-factor sign-in (issue 36): main.ts gives TOTP_SECRET_KEY and SECOND_FACTOR_OPTIONAL; tests lift the requirement unless they test it. */
  secondFactor?: SecondFactorOptions;
  /** Web Push (issue 47): main.ts gives VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY, VAPID_SUBJECT and PUSH_ALLOW_HOSTS (WEBHOOK_SECRET_KEY seals a generated key). */
  push?: PushOptions;
}

function trustProxyOption(value: string | undefined): boolean | number | string | undefined {
  if (!value) return undefined;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, with its access declaration (the route-access test walks it). */
    declaredRoutes: DeclaredRoute[];
    /** Now, as AppOptions.clock says. */
    clock: () => Date;
  }
}


/**
 * Security headers on every answer (docs/security.md "Security headers"). The CSP is what the
 * runtime needs and no more: scripts only from the server itself, never inline (no <script>
 * block, no on… attribute); eval only because the runtime's form validation (ajv, compiled from
 * the configuration's schemas at run time) builds its validators with new Function;
 * styles also inline (ag-grid and React-Bootstrap inject <style> and style attributes); images
 * and fonts also as data: (Bootstrap's icons in CSS) and blob:; the PDF viewer's worker from the
 * server or a blob:; calls only to the server. Swagger UI at /api/docs lives with the same policy.
 * No upgrade-insecure-requests and HSTS without subdomains: TLS is the reverse proxy's business,
 * and the portal must not decide for the client's other sites.
 */
const securityHeaders = {
  global: true,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      baseUri: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-eval'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      frameAncestors: ["'self'"],
      formAction: ["'self'"],
    },
  },
  strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: false },
};

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const load = { root: options.root, variant: options.variant, version: options.version };
  // The one load at start; fails fast, before anything listens, with file, pointer and reason.
  const loaded = options.bundle ?? loadVariants(load);
  // the default variant's schemas describe the API (all variants share the base entity schemas)
  const initial = 'bundles' in loaded ? loaded.bundles.get(loaded.defaultVariant)! : loaded;

  const limits = { ...DEFAULT_SERVER_LIMITS, ...options.limits };
  const app = Fastify({
    ...serverLimits(limits),
    // one line per request, request ids (X-Request-Id), redaction: plugins/request-log.ts
    ...requestLogOptions({ enabled: options.logger === true, stream: options.logStream }),
    bodyLimit: 1024 * 1024,
    // How long one plugin's start, or one onReady hook (the job queue's start, the configuration's
    // listening connection, the studio's layer), may take before start-up fails. Fastify's 10 s
    // was passed on a busy machine by the job queue's start alone (its schema check and
    // supervision on an embedded database, CI: "Plugin did not start in time"); a start that
    // takes two minutes is an operator's problem to see, not a slow disk's.
    pluginTimeout: 120_000,
    // a hop count is a number for Fastify (its typings leave it out)
    trustProxy: trustProxyOption(options.trustProxy) as boolean | string | undefined,
    ajv: { customOptions: { strict: false } },
    // a path the router cannot even match (a parameter longer than the router takes, a malformed
    // escape) is bad input like any other: 400 with the one error body, never Fastify's own 414
    frameworkErrors: (_error, request, reply: FastifyReply) => {
      const detail = app.hasDecorator('config') ? app.config.t('errors:badValue') : 'Bad Request';
      void reply.code(400).header('x-request-id', request.id).type('application/json; charset=utf-8')
        .send(JSON.stringify({ statusCode: 400, code: 'BAD_URL', detail, requestId: request.id }));
    },
  });

  // Request bodies are validated, and answers serialised, against schemas/ as the bundle in use
  // holds them, so a reload changes them too (config/bundle-compilers.ts). Fastify keeps its own
  // copy for the OpenAPI document, which describes the configuration of the start.
  for (const schema of apiSchemas(initial.schemas)) app.addSchema(schema);
  const compilers = bundleCompilers(() => (app.hasDecorator('config') ? app.config.bundle : initial));
  app.setValidatorCompiler(compilers.validatorCompiler); // ajv's error objects are what Fastify expects
  app.setSerializerCompiler(compilers.serializerCompiler);

  // Deny by default: a route without an access declaration stops start-up (plugins/auth.ts).
  // First of all hooks, so it sees every route, the plugins' ones too.
  app.decorate('declaredRoutes', requireAccessDeclarations(app));
  app.decorate('clock', options.clock ?? (() => new Date()));
  // Likewise a documented route without its operation (operationId, summary, tag): plugins/openapi.ts.
  const documentedRoutes = requireOperationDeclarations(app);

  await app.register(helmet, securityHeaders);
  if (options.servedBy) {
    const servedBy = options.servedBy;
    app.addHook('onRequest', (_request, reply, done) => {
      reply.header('x-served-by', servedBy);
      done();
    });
  }
  // The OpenAPI document (/api/docs/json): one rule makes every operation's id, tag, security and
  // error answers from the routes' declarations (plugins/openapi.ts).
  await app.register(swagger, openapiOptions(documentedRoutes, { webhooks: () => ({ ...webhooksSection(initial), ...pushSection() }), schemas: () => importRowSchemas(initial) }) as unknown as SwaggerOptions);
  // The API documentation is public, like the API's own description of itself should be.
  await app.register(async (docs) => {
    declareScopeAccess(docs, 'public');
    await docs.register(swaggerUi, { routePrefix: '/api/docs' });
  });

  // Tier 1, the app's own plugins: each declares what it depends on (fastify-plugin checks it).
  await app.register(configPlugin, { load, initial: loaded });
  // the request's id in its context and answer, before anything can refuse it (issue 33)
  await app.register(requestLogPlugin);
  await app.register(errorsPlugin);
  await app.register(dbPlugin, { db: options.db });
  // issue 33: every answer counted by its route pattern; GET /metrics (server/metrics/)
  await app.register(metricsPlugin, options.metrics ?? {});
  // per-route limits only (server/rate-limit.ts): sign-in and the forgotten-password calls
  await app.register(rateLimit, { global: false });
  app.decorate('rateLimitsLifted', options.liftRateLimits === true);
  await app.register(limitsPlugin, { limits });
  await app.register(compression);
  await app.register(authPlugin);
  await app.register(signaturePlugin);
  await app.register(idempotencyPlugin);

  // Tier 2, services and repositories on app.*: routes call them instead of writing SQL.
  await app.register(tableQueriesPlugin);
  await app.register(usersRepository);
  await app.register(sessionsRepository);
  await app.register(secondFactorPlugin, options.secondFactor ?? {});
  await app.register(termsRepository);
  await app.register(loginHistoryRepository);
  await app.register(settingsRepository);
  await app.register(ordersRepository);
  // issue 25: the outbox, the delivery worker on the job queue, the caller's notifications
  await app.register(notificationsService, {
    ...options.notifications,
    publicUrl: options.notifications?.publicUrl ?? 'http://localhost:3000',
    root: options.root,
  });
  // issue 45: the one write path's trail entry and declared events, in the write's transaction
  await app.register(writeService);
  await app.register(orderService);
  await app.register(attachmentsRepository);
  await app.register(notesRepository);
  // issue 45: what the routes did in transactions of their own (sign-out and sessions, passwords, accounts, notes)
  await app.register(sessionService);
  await app.register(passwordService);
  await app.register(accountService);
  await app.register(noteService);
  // issue 45: an account's second factor, passkeys and lock-outs, each change with its entry
  await app.register(securityService);
  await app.register(contractsRepository);
  // issue 14
  await app.register(writeRules);
  await app.register(damagesRepository);
  // issue 45: a damage report with its notifications, event and entry (services/damages.ts)
  await app.register(damageService);
  await app.register(assignmentsRepository);
  // issue 45: a vehicle's handover and return with their entries and events (services/assignments.ts)
  await app.register(assignmentService);
  await app.register(counterRepository);
  // issue 45: a reading with its entry and its event (services/vehicle-readings.ts)
  await app.register(readingService);
  await app.register(employeesRepository);
  // issue 45: an employee added with its entry (services/employees.ts)
  await app.register(employeeService);
  // issue 24
  await app.register(remindersService);
  // issue 25: the daily digest of the reminders and the failure summary, on the notifications' queue
  await app.register(digestService);
  // issue 46: reports e-mailed weekly or monthly to their subscribers, on the same queue
  await app.register(reportSubscriptions);
  // issue 47: Web Push, one more channel of the notifications, delivered on their queue
  await app.register(pushService, {
    secretKey: options.webhooks?.secretKey,
    publicUrl: options.notifications?.publicUrl ?? 'http://localhost:3000',
    ...options.push,
  });
  // issue 37: entries of the audit trail older than screens/app.json audit.keepDays, removed nightly and recorded
  await app.register(auditRetention);
  await app.register(auditFieldLabels);
  await app.register(webhooksService, { worker: options.notifications?.worker, ...options.webhooks });
  await app.register(cockpitRepository);
  // issue 26: the configuration studio's versions; its published layer joins the configuration
  await app.register(studioService, { root: options.root });
  // issue 34: import runs on the job queue
  await app.register(importsService);
  // issue 46: the fuel anomalies found, announced and explained
  await app.register(anomaliesService);
  // issue 47: vehicle inspections (their failed items open damages and service orders)
  await app.register(inspectionsService);

  // Tier 3, routes.
  await app.register(initRoutes);
  await app.register(userAuthRoutes);
  await app.register(ssoRoutes);
  await app.register(secondFactorRoutes);
  await app.register(passkeySignInRoutes);
  await app.register(accountSecurityRoutes);
  await app.register(termsRoutes);
  await app.register(passwordRoutes);
  await app.register(settingsRoutes);
  await app.register(emailSettingsRoutes);
  await app.register(auditRoutes);
  await app.register(carRoutes);
  await app.register(tableRoutes);
  await app.register(excelRoutes);
  await app.register(userTableSettingsRoutes);
  await app.register(invoiceFileRoutes);
  await app.register(orderRoutes);
  // issue 13: attachments, notes, contract positions, users administration
  await app.register(attachmentRoutes);
  await app.register(noteRoutes);
  await app.register(contractRoutes);
  await app.register(usersAdminRoutes);
  await app.register(personalDataRoutes);
  // issue 14
  await app.register(damageRoutes);
  await app.register(assignmentRoutes);
  await app.register(counterRoutes);
  await app.register(employeeRoutes);
  // issue 24
  await app.register(reminderRoutes);
  await app.register(cockpitRoutes);
  await app.register(reportRoutes);
  await app.register(anomalyRoutes);
  await app.register(inspectionRoutes);
  await app.register(reportSubscriptionRoutes);
  await app.register(pushRoutes);
  // issue 25
  await app.register(notificationRoutes);
  await app.register(accountLanguageRoutes);
  await app.register(webhookRoutes);
  await app.register(configStudioRoutes);
  // issue 34
  await app.register(importRoutes);
  // issue 34: integration accounts and their keys
  await app.register(integrationAccountRoutes);

  // issue 15: the branding images of the request's variant
  await app.register(variantAssetRoutes, { root: options.root });

  await app.register(runtimeFiles, { staticDir: options.staticDir });
  return app;
}
