/**
 * What a single sign-on keeps between its steps (migration 028), in the database that every
 * process behind the load balancer shares: the flows started (state, nonce, PKCE verifier, the
 * browser's cookie) and the callbacks' outcomes waiting for the runtime. Only hashes of the values
 * a browser carries (state, cookie, handoff code) are stored. Each row is taken once: read and
 * deleted in one statement, so a replay, on any process, finds nothing.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/types.generated.ts';
import type { Actor } from '../../audit/index.ts';
import type { WriteService } from '../../services/write.ts';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** How long a person may spend at the provider's pages between the start and the callback. */
export const FLOW_TTL_MS = 10 * 60_000;
/** How long the runtime has to pick up a callback's outcome (it does so as the page loads). */
export const HANDOFF_TTL_MS = 60_000;

export interface Flow { variant: string; nonce: string; codeVerifier: string; redirectUri: string; browserHash: string }

export function ssoStore(db: Kysely<DB>) {
  return {
    async startFlow(state: string, flow: Flow): Promise<void> {
      // the flows nobody finished go as new ones start (the expiry index keeps this cheap)
      await db.deleteFrom('sso_flow').where('expiresAt', '<', sql<Date>`now()`).execute();
      await db.insertInto('sso_flow').values({ stateHash: sha256(state), ...flow, expiresAt: new Date(Date.now() + FLOW_TTL_MS) }).execute();
    },
    /** The flow of a state, once; undefined when unknown, already taken or expired. */
    async takeFlow(state: string): Promise<Flow | undefined> {
      const row = await db.deleteFrom('sso_flow').where('stateHash', '=', sha256(state)).returningAll().executeTakeFirst();
      if (!row || new Date(row.expiresAt).getTime() < Date.now()) return undefined;
      return { variant: row.variant, nonce: row.nonce, codeVerifier: row.codeVerifier, redirectUri: row.redirectUri, browserHash: row.browserHash };
    },
    async handOff(code: string, variant: string, outcome: { userId: number } | { refusal: string }): Promise<void> {
      await db.deleteFrom('sso_handoff').where('expiresAt', '<', sql<Date>`now()`).execute();
      await db.insertInto('sso_handoff').values({
        codeHash: sha256(code), variant, expiresAt: new Date(Date.now() + HANDOFF_TTL_MS),
        userId: 'userId' in outcome ? outcome.userId : null,
        refusal: 'refusal' in outcome ? outcome.refusal : null,
      }).execute();
    },
    async takeHandoff(code: string) {
      const row = await db.deleteFrom('sso_handoff').where('codeHash', '=', sha256(code)).returningAll().executeTakeFirst();
      if (!row || new Date(row.expiresAt).getTime() < Date.now()) return undefined;
      return { variant: row.variant, userId: row.userId === null ? null : Number(row.userId), refusal: row.refusal };
    },

    /** Live accounts (not deleted) the provider's person may be: by e-mail (any case) or by the claim value the administrator set. */
    candidates(by: 'email' | 'claim', value: string) {
      let q = db.selectFrom('app_user').select(['id', 'login', 'rola', 'klientSymbol']).where('deletedAt', 'is', null);
      q = by === 'email' ? q.where(sql`lower("email")`, '=', value.trim().toLowerCase()) : q.where('ssoSubject', '=', value);
      return q.orderBy('id').limit(20).execute();
    },

    /**
     * An account made by a first sign-in (app.sso.createUsers): no password, nothing to change at
     * first sign-in; recorded in the trail with every field it was made with, in its transaction
     * (issue 45), the single sign-on as its author.
     */
    async createAccount(values: { login: string; firstName: string; lastName: string; email: string; rola: string; klientSymbol: string; ssoSubject: string | null }, writes: WriteService, actor: Actor): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.insertInto('app_user').values({ ...values, firstLogin: false, passwordHash: null, dataDo: null }).returning('id').executeTakeFirstOrThrow();
        const id = Number(row.id);
        await writes.record(trx, { actor, resource: 'users', key: id, action: 'create', after: values });
        return id;
      });
    },
    /** A free login from a wish (the e-mail's name): the wish, or it with .2, .3 … */
    async freeLogin(wish: string): Promise<string> {
      const base = wish.slice(0, 44) || 'sso';
      const taken = new Set((await db.selectFrom('app_user').select(sql<string>`lower("login")`.as('l'))
        .where(sql`lower("login")`, 'like', `${base.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`).execute()).map((r) => r.l));
      for (let n = 1; ; n++) {
        const login = n === 1 ? base : `${base}.${n}`;
        if (!taken.has(login.toLowerCase())) return login;
      }
    },
  };
}
