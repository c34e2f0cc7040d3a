/**
 * What an integration key may call (issue 34, CONTRACTS.md "Integration keys", ACCESS.md): a key
 * is judged as a MANAGER of its clients (ADMIN when it names every client), and further limited to
 * its scopes:
 *
 *   read:<resource>      the table routes of the resource (`config.keys: 'read'`), within its clients
 *   import:<declaration> the import calls (`config.keys: 'import'`), the handler asks mayImport
 *   webhooks             the webhook calls (`config.keys: 'webhooks'`)
 *   read:reports         the reports' list, runs and exports (`config.keys: 'reports'`, issue 46), within its clients
 *
 * The scopes an account may be given are those of resources a MANAGER reads (a key never reads
 * what only an administrator does, users or the login history, even when it names every client)
 * and of the import declarations of the configuration.
 */
import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { Session } from '../auth/session.ts';
import type { Bundle } from '../config/bundle.ts';
import { effectiveAccess, type Resources } from '../access/row-scope.ts';

export const WEBHOOKS_SCOPE = 'webhooks';
export const REPORTS_SCOPE = 'read:reports';
export const readScope = (resource: string) => `read:${resource}`;
export const importScope = (declaration: string) => `import:${declaration}`;

/** Whether a resource may be read with a key at all: its declaration gives MANAGER a scope. */
export function keyReadable(resources: Resources, name: string): boolean {
  const resource = resources[name];
  return resource !== undefined && effectiveAccess(resource, resources).MANAGER !== undefined;
}

/**
 * The import declarations of the configuration by name. The imports part of issue 34 puts them in
 * the bundle as `imports`; until it does there are none.
 */
function importDeclarations(bundle: Bundle): Record<string, unknown> {
  const imports = (bundle as { imports?: unknown }).imports;
  return imports && typeof imports === 'object' ? (imports as Record<string, unknown>) : {};
}

export interface ScopeChoice {
  scope: string;
  kind: 'read' | 'import' | 'webhooks' | 'reports';
  /** The resource or declaration the scope is about (the browser names it as its menu does). */
  subject: string;
}

/** Every scope an account may be given now, in a stable order: reads, imports, webhooks. */
export function availableScopes(bundle: Bundle): ScopeChoice[] {
  const reads = Object.keys(bundle.resources).filter((name) => keyReadable(bundle.resources, name)).sort()
    .map((name): ScopeChoice => ({ scope: readScope(name), kind: 'read', subject: name }));
  const imports = Object.keys(importDeclarations(bundle)).sort()
    .map((name): ScopeChoice => ({ scope: importScope(name), kind: 'import', subject: name }));
  const reports: ScopeChoice[] = Object.keys(bundle.reports ?? {}).length ? [{ scope: REPORTS_SCOPE, kind: 'reports', subject: 'reports' }] : [];
  return [...reads, ...imports, { scope: WEBHOOKS_SCOPE, kind: 'webhooks', subject: WEBHOOKS_SCOPE }, ...reports];
}

export type KeyVerdict = 'ok' | 'routeClosed' | 'scopeMissing';

/** Whether a key's session may call a route with these options (the auth plugin asks). */
export function keyMayCall(resources: Resources, config: FastifyContextConfig, session: Session): KeyVerdict {
  const scopes = session.integration?.scopes ?? [];
  switch (config.keys) {
    case 'read': {
      const access = config.access;
      const resource = access && typeof access === 'object' && 'resource' in access ? access.resource : undefined;
      if (!resource || !keyReadable(resources, resource)) return 'routeClosed';
      return scopes.includes(readScope(resource)) ? 'ok' : 'scopeMissing';
    }
    case 'import':
      return scopes.some((s) => s.startsWith('import:')) ? 'ok' : 'scopeMissing';
    case 'webhooks':
      return scopes.includes(WEBHOOKS_SCOPE) ? 'ok' : 'scopeMissing';
    case 'reports':
      return scopes.includes(REPORTS_SCOPE) ? 'ok' : 'scopeMissing';
    default:
      return 'routeClosed';
  }
}

/**
 * Whether the caller may run the import declaration `name`: a person (the route's own access has
 * let them in), or a key with `import:<name>`.
 */
export function mayImport(request: Pick<FastifyRequest, 'integration'>, name: string): boolean {
  return !request.integration || request.integration.scopes.includes(importScope(name));
}

/** Whether the caller may use webhooks: a person, or a key with the `webhooks` scope. */
export function mayUseWebhooks(request: Pick<FastifyRequest, 'integration'>): boolean {
  return !request.integration || request.integration.scopes.includes(WEBHOOKS_SCOPE);
}

/**
 * Whether a row of client `klientSymbol` is the caller's to touch as far as the key goes: every
 * client for a person (their own row scope decides), else the key's clients. For an import or a
 * webhook that deals in client symbols rather than the row scope's SQL.
 */
export function keyCoversClient(request: Pick<FastifyRequest, 'integration'>, klientSymbol: string | null): boolean {
  const clients = request.integration?.clients;
  if (!clients || clients === 'all') return true;
  return klientSymbol !== null && clients.includes(klientSymbol);
}
