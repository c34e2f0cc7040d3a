/**
 * Which API calls the phone keeps for a moment without a network (issue 47): declared in the
 * configuration (screens/app.json `offline`: `reads`, the GET paths whose last answers a page may
 * show offline; `sends`, the submissions that wait in the outbox), never listed in code. A pattern
 * is an API path without /api; `{name}` stands for one path segment; the query is not part of it.
 */
export interface OfflineDecl {
  reads?: string[];
  sends?: string[];
}

/** The start-up's own calls: without them no page opens, so a signed-in user's are always kept. */
export const START_UP_READS = ['/init/pre-config', '/ui/config'];

const toRegExp = (pattern: string) =>
  new RegExp(`^${pattern.split('/').map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);

/** A test of a call's path (its query ignored) against the declared patterns. */
export function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const expressions = patterns.map(toRegExp);
  return (path) => {
    const bare = path.split(/[?#]/)[0];
    return expressions.some((e) => e.test(bare));
  };
}

export interface OfflinePaths {
  reads(path: string): boolean;
  sends(path: string): boolean;
}

export function offlinePaths(decl: OfflineDecl | undefined): OfflinePaths {
  return { reads: pathMatcher([...START_UP_READS, ...(decl?.reads ?? [])]), sends: pathMatcher(decl?.sends ?? []) };
}
