/**
 * Who a trail entry names: the signed-in user (id, role, login), the integration key (key, account,
 * the key's name) or the system running a job; with the request's address and a pseudonym of its
 * session. The pseudonym is a hash of the session token's hash, so entries of one session can be
 * grouped without the trail holding anything that could find or resume the session.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

interface Where { label?: string | null; address?: string | null; session?: string | null }
export type Actor =
  | ({ kind: 'user'; userId: number; role: string } & Where)
  | ({ kind: 'integration'; keyId: number; accountId: number } & Where)
  | ({ kind: 'system'; job: string } & Where);

export const sessionPseudonym = (tokenHash: string) => createHash('sha256').update(`audit-session:${tokenHash}`).digest('hex').slice(0, 16);

/** The actor of a request made with a session or an integration key. */
export function actorOf(request: FastifyRequest): Actor {
  const session = request.session;
  const address = request.ip ?? null;
  if (!session) return { kind: 'system', job: 'anonymous-request', address };
  const where = { label: session.login, address, session: session.tokenHash ? sessionPseudonym(session.tokenHash) : null };
  if (session.integration) return { kind: 'integration', keyId: session.integration.keyId, accountId: session.integration.accountId, ...where };
  return { kind: 'user', userId: session.userId, role: session.role, ...where };
}

/** The system doing something on its own (a scheduled job, a command). */
export const systemActor = (job: string): Actor => ({ kind: 'system', job, label: job });
