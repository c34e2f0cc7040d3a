/**
 * One-time download tokens (DESIGN.md §3, issue 4). A file that opens in a new window (an Excel
 * export, an invoice PDF) cannot send the bearer header, so the signed-in page first asks for a
 * token and the new window presents it in the URL. A token is therefore:
 * - random (32 bytes) and stored only as its SHA-256, like a session token;
 * - bound to what it opens (`kind` + `refId`, e.g. 'invoice' + faktId), so it cannot open another file;
 * - bound to the session that asked for it (download_token."sessionHash", migration 004): signing
 *   out, an ended session or a password change that ends other sessions kills the link too;
 * - single-use and short-lived: redeeming marks it used in the same UPDATE that checks it, so two
 *   windows racing for one token cannot both win, on any number of server processes.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { hashToken, type Session } from '../auth/sessions.ts';

/** A link is meant to be opened right away; a few minutes cover a slow window or a retry. */
export const DOWNLOAD_TOKEN_TTL_MS = 3 * 60 * 1000;

export interface TokenTarget {
  /** What the token opens, e.g. 'invoice' or 'excel:order'. */
  kind: string;
  /** Which record of that kind (faktId, export_file id …), as text. */
  refId: string;
}

/** Issues a token for the caller's session; expired tokens are pruned on the way. */
export async function issueDownloadToken(db: Kysely<DB>, session: Session, target: TokenTarget, ttlMs = DOWNLOAD_TOKEN_TTL_MS): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.deleteFrom('download_token').where('expiresAt', '<', new Date()).execute();
  await db
    .insertInto('download_token')
    .values({
      tokenHash: hashToken(token),
      userId: session.userId,
      sessionHash: session.tokenHash,
      kind: target.kind,
      refId: target.refId,
      expiresAt: new Date(Date.now() + ttlMs),
    })
    .execute();
  return token;
}

/** Who redeemed a token: the user it was issued to, and what it opens. */
export interface RedeemedToken {
  userId: number;
  refId: string;
}

/** Tokens as they arrive in a URL: base64url of 32 bytes; anything else is never looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Spends a token for `kind` (and, when given, exactly `refId`): answers who it was issued to, or
 * null when it is unknown, already used, expired, for something else, or its session has ended.
 * A token presented for the wrong file is not spent, so a mistyped id does not burn a good link.
 */
export async function redeemDownloadToken(db: Kysely<DB>, token: unknown, kind: string, refId?: string): Promise<RedeemedToken | null> {
  if (typeof token !== 'string' || !TOKEN_SHAPE.test(token)) return null;
  const now = new Date();
  let q = db
    .updateTable('download_token')
    .set({ usedAt: now })
    .where('tokenHash', '=', hashToken(token))
    .where('kind', '=', kind)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', now)
    // the issuing session must still be live (a revoked one has taken its tokens with it)
    .where((eb) =>
      eb.exists(
        eb.selectFrom('user_session as s').select(sql`1`.as('one')).whereRef('s.tokenHash', '=', 'download_token.sessionHash').where('s.expiresAt', '>', now),
      ),
    );
  if (refId !== undefined) q = q.where('refId', '=', refId);
  const row = await q.returning(['userId', 'refId']).executeTakeFirst();
  return row ? { userId: Number(row.userId), refId: String(row.refId) } : null;
}
