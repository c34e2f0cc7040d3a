/**
 * User accounts (app_user) and what hangs on them: the vehicle a sign-in names, failed sign-ins
 * (sign_in_failure, per login name and client address) and password reset codes. The routes
 * (user-auth.ts, passwords.ts, invoice-files.ts) call these instead of writing SQL.
 */
import fp from 'fastify-plugin';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import type { Session } from '../auth/sessions.ts';
import type { DB } from '../db/types.generated.ts';

export interface Lockout { maxFailures: number; windowMinutes: number; lockMinutes: number }

/** What a sign-in or a vehicle change names: USER by plate and assignment, ADVISOR by plate and VIN end. */
export interface VehicleChoice {
  role: 'USER' | 'MANAGER' | 'ADVISOR';
  rejestr?: string | null;
  vin?: string | null;
}

/** What the administrator's form writes to an account (the role only on create). */
export interface AccountValues {
  login: string;
  firstName: string;
  lastName: string;
  email: string;
  telefon: string | null;
  telefonKom: string | null;
  dataOd?: string;
  dataDo: string;
  klientSymbol: string | null;
  stacjaSerw: string | null;
  /** The identity provider's claim value naming the person (single sign-on matched by a claim, issue 36). */
  ssoSubject: string | null;
}

export function usersRepository(db: Kysely<DB>) {
  const account = () => db.selectFrom('app_user');

  return {
    byLogin: (login: string) => account().selectAll().where('login', '=', login).executeTakeFirst(),
    /** A live account (a deleted one, migration 011, is kept only for its history). */
    byId: (id: number) => account().selectAll().where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst(),
    /** Login names compare without case where a person types them (the forgotten-password form). */
    byLoginIgnoringCase: (login: string) => account().select(['id', 'login', 'rola', 'firstName', 'lastName', 'email', 'passwordHash', 'firstLogin'])
      .where(sql`lower("login")`, '=', login.trim().toLowerCase()).executeTakeFirst(),
    /** The accounts of an e-mail address that are still open (dataDo not passed). */
    openByEmail: (email: string) => account().select(['id', 'login', 'email'])
      .where(sql`lower("email")`, '=', email.trim().toLowerCase())
      .where('deletedAt', 'is', null)
      .where((eb) => eb.or([eb('dataDo', 'is', null), eb('dataDo', '>=', sql<string>`current_date`)]))
      .execute(),

    /** The vehicle a sign-in (or an advisor's switch) names, or undefined when it does not fit. */
    async vehicleFor(choice: VehicleChoice, user: { pracId: number | null }) {
      const plate = (choice.rejestr ?? '').trim().toUpperCase();
      let q = db.selectFrom('car').select(['pojazdId', 'rejestr', 'marka', 'aktStanLicz']).where(sql`upper("rejestr")`, '=', plate);
      if (choice.role === 'USER') q = q.where('pracId', '=', user.pracId ?? -1);
      else q = q.where(sql`upper(right("nrPodw", 6))`, '=', (choice.vin ?? '').trim().toUpperCase());
      return q.executeTakeFirst();
    },

    /**
     * The user a download token was issued to, as a session for a row check (no vehicle: a
     * vehicle scope then matches nothing). Null when the account is gone.
     */
    async asSession(userId: number): Promise<Session | null> {
      const user = await account().select(['id', 'login', 'rola', 'klientSymbol', 'stacjaSerw']).where('id', '=', userId).where('deletedAt', 'is', null).executeTakeFirst();
      if (!user) return null;
      return { tokenHash: '', userId: user.id, login: user.login, role: user.rola as Role, klientSymbol: user.klientSymbol, stacjaSerw: user.stacjaSerw, pojazdId: null, termsPending: false, firstLogin: false };
    },

    /** Minutes a login name stays locked for this address (0: not locked). */
    async lockedMinutes(login: string, address: string): Promise<number> {
      const row = await db.selectFrom('sign_in_failure').select('lockedUntil')
        .where('login', '=', login).where('address', '=', address).executeTakeFirst();
      const ms = row?.lockedUntil ? new Date(row.lockedUntil).getTime() - Date.now() : 0;
      return ms > 0 ? Math.ceil(ms / 60_000) : 0;
    },

    /**
     * Counts a failed sign-in of a login name from an address, known or unknown alike; the
     * failure that reaches the limit locks the name for this address. The account's
     * "failedLogins" mirrors the count (for an unknown login the update touches no row, so both
     * take the same work). Answers whether this failure locked the name (the lock-outs' metric).
     */
    async recordFailure(login: string, address: string, { maxFailures, windowMinutes, lockMinutes }: Lockout,
      record?: (trx: Transaction<DB>, lockedUntil: Date | null) => Promise<unknown>): Promise<boolean> {
      const now = new Date();
      const windowStart = new Date(now.getTime() - windowMinutes * 60_000);
      return db.transaction().execute(async (trx) => {
        // rows whose window and lock are both over are forgotten
        await trx.deleteFrom('sign_in_failure').where('lastFailedAt', '<', windowStart)
          .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<', now)])).execute();
        const { failures } = await trx.insertInto('sign_in_failure')
          .values({ login, address, failures: 1, lastFailedAt: now, lockedUntil: null })
          .onConflict((oc) => oc.columns(['login', 'address']).doUpdateSet({
            failures: sql`case when sign_in_failure."lastFailedAt" >= ${windowStart} then sign_in_failure."failures" + 1 else 1 end`,
            lastFailedAt: now,
            lockedUntil: null,
          }))
          .returning('failures').executeTakeFirstOrThrow();
        const locks = Number(failures) >= maxFailures;
        const lockedUntil = locks ? new Date(now.getTime() + lockMinutes * 60_000) : null;
        if (locks) {
          await trx.updateTable('sign_in_failure').set({ failures: 0, lockedUntil })
            .where('login', '=', login).where('address', '=', address).execute();
        }
        // The account's own lockedUntil is not touched: it ends the account's sessions
        // (auth/sessions.ts), and a stranger's guesses from another address must not sign the owner out.
        await trx.updateTable('app_user').set({ failedLogins: locks ? 0 : Number(failures), lastFailedAt: now })
          .where('login', '=', login).execute();
        // the trail's entries (issue 37: the failure, the lock-out) are the transaction's last statements
        await record?.(trx, lockedUntil);
        return locks;
      });
    },

    /**
     * The lock-outs of an account's login in force now, one per address it was locked from (the
     * name as typed at sign-in, in any case), the latest-ending first.
     */
    async lockoutsOf(login: string): Promise<{ address: string; lockedUntil: Date }[]> {
      const rows = await db.selectFrom('sign_in_failure').select(['address', 'lockedUntil'])
        .where(sql`lower("login")`, '=', login.toLowerCase()).where('lockedUntil', '>', new Date())
        .orderBy('lockedUntil', 'desc').orderBy('address').execute();
      return rows.map((r) => ({ address: r.address, lockedUntil: new Date(r.lockedUntil!) }));
    },

    /**
     * An administrator's unlock: forgets every failure and lock-out of the account's login, from
     * every address, and the account's count, in the caller's transaction (where the security
     * service records its entry). Answers how many lock-outs were in force.
     */
    async clearLockouts(trx: Transaction<DB>, user: { id: number; login: string }): Promise<number> {
      const removed = await trx.deleteFrom('sign_in_failure').where(sql`lower("login")`, '=', user.login.toLowerCase())
        .returning('lockedUntil').execute();
      const now = Date.now();
      const lockouts = removed.filter((r) => r.lockedUntil && new Date(r.lockedUntil).getTime() > now).length;
      await trx.updateTable('app_user').set({ failedLogins: 0, lastFailedAt: null, lockedUntil: null }).where('id', '=', user.id).execute();
      return lockouts;
    },

    /** The language the user chose (issue 48); null: none, the configuration's default. */
    async languageOf(userId: number): Promise<string | null> {
      return (await db.selectFrom('app_user').select('language').where('id', '=', userId).executeTakeFirst())?.language ?? null;
    },

    /** Keeps the user's language on his account (Ustawienia → Język, the sign-in page's choice). */
    async setLanguage(userId: number, language: string): Promise<void> {
      await db.updateTable('app_user').set({ language }).where('id', '=', userId).execute();
    },

    /** A successful sign-in forgets the failures of this name and address, and the account's count. */
    async clearFailures(user: { id: number; login: string; failedLogins: number; lockedUntil: Date | null }, address: string): Promise<void> {
      await db.deleteFrom('sign_in_failure').where('login', '=', user.login).where('address', '=', address).execute();
      if (user.failedLogins > 0 || user.lockedUntil) {
        await db.updateTable('app_user').set({ failedLogins: 0, lastFailedAt: null, lockedUntil: null }).where('id', '=', user.id).execute();
      }
    },

    /** The administrator's side (issue 13, server/routes/users-admin.ts). */
    admin: {
      /** Whether a login is taken by any account, deleted ones included (their history keeps the name), ignoring case. */
      async loginTaken(login: string, exceptId?: number): Promise<boolean> {
        let q = account().select('id').where(sql`lower("login")`, '=', login.trim().toLowerCase());
        if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
        return (await q.executeTakeFirst()) !== undefined;
      },
      clientExists: async (klient: string) => (await db.selectFrom('client').select('klient').where('klient', '=', klient).executeTakeFirst()) !== undefined,
      stationExists: async (stacjaSerw: string) => (await db.selectFrom('service_station').select('stacjaSerw').where('stacjaSerw', '=', stacjaSerw).executeTakeFirst()) !== undefined,
      async create(trx: Transaction<DB>, values: AccountValues & { rola: Role }): Promise<number> {
        const row = await trx.insertInto('app_user').values({ ...values, firstLogin: true }).returning('id').executeTakeFirstOrThrow();
        return row.id;
      },
      async update(trx: Transaction<DB>, id: number, values: AccountValues): Promise<boolean> {
        const result = await trx.updateTable('app_user').set(values).where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
        return Number(result.numUpdatedRows) === 1;
      },
      /**
       * Deletes an account but keeps its history readable (docs/decisions.md "Deleting a user"):
       * the row stays with its login and name for the login and acceptance histories; it can no
       * longer sign in (no password, end date passed), asks for no reset codes, and is gone from
       * the users table. Its sessions are ended by the caller in the same transaction.
       */
      async softDelete(trx: Transaction<DB>, id: number): Promise<boolean> {
        const result = await trx.updateTable('app_user')
          .set({ deletedAt: new Date(), passwordHash: null, dataDo: sql<string>`current_date - 1`, firstLogin: true })
          .where('id', '=', id).where('deletedAt', 'is', null).executeTakeFirst();
        await trx.deleteFrom('password_reset').where('userId', '=', id).execute();
        return Number(result.numUpdatedRows) === 1;
      },
      /** Clients whose symbol or name contains the text (the user form's client autocomplete). */
      clients(searchText: string, limit: number) {
        const like = `%${searchText.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return db.selectFrom('client').select(['klient', 'klientNazwa'])
          .where((eb) => eb.or([eb(sql`lower("klient")`, 'like', like), eb(sql`lower(coalesce("klientNazwa", ''))`, 'like', like)]))
          .orderBy('klientNazwa').orderBy('klient').limit(limit).execute();
      },
      /** Service stations whose symbol or name contains the text (the user form's station autocomplete). */
      stations(searchText: string, limit: number) {
        const like = `%${searchText.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        return db.selectFrom('service_station').select(['stacjaSerw', 'nazwa as stacjaNazwa'])
          .where((eb) => eb.or([eb(sql`lower("stacjaSerw")`, 'like', like), eb(sql`lower("nazwa")`, 'like', like)]))
          .orderBy('nazwa').orderBy('stacjaSerw').limit(limit).execute();
      },
    },

    /** Password reset codes (stored as hashes; one pending code per account). */
    resets: {
      /** Replaces the account's earlier code, inside the caller's transaction (the mail goes in the same one). */
      async replace(trx: Transaction<DB>, userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
        await trx.deleteFrom('password_reset').where('userId', '=', userId).execute();
        await trx.insertInto('password_reset').values({ tokenHash, userId, expiresAt }).execute();
      },
      pending: (userId: number) => db.selectFrom('password_reset').select(['tokenHash', 'attempts', 'expiresAt'])
        .where('userId', '=', userId).where('usedAt', 'is', null).where('expiresAt', '>', new Date())
        .orderBy('createdAt', 'desc').executeTakeFirst(),
      async countAttempt(tokenHash: string): Promise<void> {
        await db.updateTable('password_reset').set({ attempts: sql`"attempts" + 1` }).where('tokenHash', '=', tokenHash).execute();
      },
      /** Marks the code used; false when a parallel request used it first. */
      async spend(trx: Transaction<DB>, tokenHash: string): Promise<boolean> {
        const spent = await trx.updateTable('password_reset').set({ usedAt: new Date() })
          .where('tokenHash', '=', tokenHash).where('usedAt', 'is', null).executeTakeFirst();
        return Number(spent.numUpdatedRows) === 1;
      },
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    users: ReturnType<typeof usersRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('users', usersRepository(app.db));
}, { name: 'users-repository', dependencies: ['db'] });
