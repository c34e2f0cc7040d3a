/**
 * The second factor of a sign-in (issue 36): TOTP (RFC 6238, otplib), one-time recovery codes and
 * passkeys (WebAuthn, @simplewebauthn/server), and the short-lived ticket that carries a sign-in
 * from the password to the second factor. Storage only and the checks of a code; the routes
 * (routes/second-factor.ts, routes/account-security.ts) decide what a caller is told. A change of
 * an account's factors runs in the caller's transaction (`trx`), where the security service
 * (services/account-security.ts) records its trail entry and, for a reset, ends the sessions.
 *
 * - A TOTP secret is sealed (crypto/secret-box.ts, key from TOTP_SECRET_KEY): it is needed again
 *   at every sign-in. A code is accepted once: the time step of the last accepted code is kept and
 *   a code of that step or an earlier one is a replay (otplib's afterTimeStep). One step of clock
 *   drift is tolerated either way (epochTolerance 30 s), as authenticator apps need.
 * - Recovery codes: 80 random bits each, shown once, stored as SHA-256 salted with the account (a
 *   fast hash suffices for a random code; a sign-in finds the code by its hash). A used code stays, marked used.
 * - A ticket: 32 random bytes the browser holds, stored as SHA-256, valid TICKET_MINUTES, spent by
 *   a successful second step, and by MAX_TICKET_TRIES wrong ones (each also counts towards the
 *   sign-in lock-out of the login and address, like a wrong password).
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { SecretBox } from '../crypto/secret-box.ts';
import type { DB } from '../db/types.generated.ts';

export const TICKET_MINUTES = 5;
export const MAX_TICKET_TRIES = 5;
export const RECOVERY_CODE_COUNT = 10;
/** Seconds of clock drift tolerated each way: one 30-second step. */
const TOTP_TOLERANCE_S = 30;

export type SecondFactorMethod = 'totp' | 'recovery' | 'passkey';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** A recovery code as stored: salted with the account, so equal codes of two accounts differ and no table of hashes serves all. */
const recoveryHash = (userId: number, code: string) => sha256(`recovery:${userId}:${code}`);

/** The box TOTP secrets are sealed in: its own key (TOTP_SECRET_KEY) and HKDF info. */
export function totpBox(operatorSecret: string | undefined): SecretBox {
  return new SecretBox(operatorSecret, {
    developmentKey: 'fleet-portal development TOTP key: set TOTP_SECRET_KEY in production',
    salt: 'fleet-portal two-factor',
    info: 'totp-secret-encryption',
  });
}

/** Ten recovery codes like `K7QX-M2PA-9RTB-4HWZ` (80 bits; letters and digits that cannot be misread). */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  return Array.from({ length: count }, () => {
    const chars = Array.from({ length: 16 }, () => alphabet[randomInt(alphabet.length)]).join('');
    return chars.match(/.{4}/g)!.join('-');
  });
}

/** A recovery code as typed (spaces, lower case, without the dashes) in its stored form. */
export const normalizeRecoveryCode = (code: string) => code.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/(.{4})(?!$)/g, '$1-');

export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
}

export function secondFactorStore(db: Kysely<DB>, box: SecretBox, clock: () => Date = () => new Date()) {
  /** The factors an account has: a confirmed TOTP, its unused recovery codes, its passkeys. */
  async function factorsOf(userId: number) {
    const totp = await db.selectFrom('user_totp').select(['confirmedAt']).where('userId', '=', userId).executeTakeFirst();
    const { left } = await db.selectFrom('user_recovery_code').select(sql<string>`count(*)`.as('left'))
      .where('userId', '=', userId).where('usedAt', 'is', null).executeTakeFirstOrThrow();
    const passkeys = await db.selectFrom('user_passkey').select(['id', 'name', 'createdAt', 'lastUsedAt']).where('userId', '=', userId).orderBy('id').execute();
    return { totp: Boolean(totp?.confirmedAt), recoveryCodesLeft: Number(left), passkeys };
  }

  return {
    factorsOf,

    /** Whether the account has a second factor (a confirmed TOTP or a passkey). */
    async hasFactor(userId: number): Promise<boolean> {
      const f = await factorsOf(userId);
      return f.totp || f.passkeys.length > 0;
    },

    /** The methods offered at the second step, in the order the screen offers them. */
    async methodsOf(userId: number): Promise<SecondFactorMethod[]> {
      const f = await factorsOf(userId);
      return [...(f.totp ? ['totp', 'recovery'] as const : []), ...(f.passkeys.length ? ['passkey'] as const : [])];
    },

    /** A new (unconfirmed) secret for the account, replacing an unconfirmed one; null when TOTP is on already. */
    async beginTotp(userId: number, label: string, issuer: string): Promise<TotpEnrolment | null> {
      const current = await db.selectFrom('user_totp').select('confirmedAt').where('userId', '=', userId).executeTakeFirst();
      if (current?.confirmedAt) return null;
      const secret = generateSecret();
      const sealed = box.seal(secret);
      await db.insertInto('user_totp').values({ userId, secretSealed: sealed, confirmedAt: null, lastStep: null })
        .onConflict((oc) => oc.column('userId').doUpdateSet({ secretSealed: sealed, lastStep: null, createdAt: clock() })).execute();
      const otpauthUrl = generateURI({ issuer, label, secret });
      return { secret, otpauthUrl, qrDataUrl: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 220 }) };
    },

    /**
     * Checks a code against the account's secret (confirmed or, with `pending`, the one being
     * enrolled) and, when right, spends its time step. False for a wrong, expired or replayed code.
     */
    async checkTotp(userId: number, code: string, { pending = false } = {}): Promise<boolean> {
      if (!/^\d{6}$/.test(code)) return false;
      const row = await db.selectFrom('user_totp').select(['secretSealed', 'confirmedAt', 'lastStep']).where('userId', '=', userId).executeTakeFirst();
      if (!row || Boolean(row.confirmedAt) === pending) return false;
      const secret = box.open(row.secretSealed);
      const last = row.lastStep === null ? undefined : Number(row.lastStep);
      const result = await verify({
        secret, token: code, epoch: Math.floor(clock().getTime() / 1000), epochTolerance: TOTP_TOLERANCE_S,
        // a step after the last one only (within the tolerated window: otplib refuses a bound beyond it)
        ...(last !== undefined && last < Math.floor(clock().getTime() / 30_000) + 1 ? { afterTimeStep: last } : {}),
      }).catch(() => ({ valid: false as const }));
      if (!result.valid) return false;
      // the step the code belongs to: now's, moved by the drift the check found
      const step = Math.floor(clock().getTime() / 30_000) + result.delta;
      if (last !== undefined && step <= last) return false;
      // spend the step in the same statement that checks it: two requests racing with one code, one wins
      const spent = await db.updateTable('user_totp').set({ lastStep: step })
        .where('userId', '=', userId)
        .where((eb) => eb.or([eb('lastStep', 'is', null), eb('lastStep', '<', step)]))
        .executeTakeFirst();
      return Number(spent.numUpdatedRows) === 1;
    },

    /** Confirms the enrolment and makes new recovery codes (answered once, stored hashed), in the caller's transaction. */
    async confirmTotp(trx: Transaction<DB>, userId: number): Promise<string[]> {
      await trx.updateTable('user_totp').set({ confirmedAt: clock() }).where('userId', '=', userId).execute();
      return replaceRecoveryCodes(trx, userId);
    },

    /** New recovery codes, in the caller's transaction; the old ones stop working. */
    regenerateRecoveryCodes: (trx: Transaction<DB>, userId: number) => replaceRecoveryCodes(trx, userId),

    /** Spends a recovery code of the account; false when it is not one or was used. */
    async useRecoveryCode(userId: number, code: string): Promise<boolean> {
      const spent = await db.updateTable('user_recovery_code').set({ usedAt: clock() })
        .where('userId', '=', userId).where('codeHash', '=', recoveryHash(userId, normalizeRecoveryCode(code))).where('usedAt', 'is', null)
        .executeTakeFirst();
      return Number(spent.numUpdatedRows) === 1;
    },

    /** Switches TOTP off, in the caller's transaction: the secret and the recovery codes go. */
    async disableTotp(trx: Transaction<DB>, userId: number): Promise<void> {
      await trx.deleteFrom('user_recovery_code').where('userId', '=', userId).execute();
      await trx.deleteFrom('user_totp').where('userId', '=', userId).execute();
    },

    /**
     * An administrator's reset, in the caller's transaction: every factor of the account goes (and
     * its sign-in tickets); it enrols again at the next sign-in. Answers what was removed.
     */
    async resetAll(trx: Transaction<DB>, userId: number): Promise<{ totp: boolean; passkeys: number; recoveryCodes: number }> {
      const recoveryCodes = (await trx.deleteFrom('user_recovery_code').where('userId', '=', userId).executeTakeFirst()).numDeletedRows;
      const totp = (await trx.deleteFrom('user_totp').where('userId', '=', userId).executeTakeFirst()).numDeletedRows;
      const passkeys = (await trx.deleteFrom('user_passkey').where('userId', '=', userId).executeTakeFirst()).numDeletedRows;
      await trx.deleteFrom('sign_in_ticket').where('userId', '=', userId).execute();
      return { totp: totp > 0n, passkeys: Number(passkeys), recoveryCodes: Number(recoveryCodes) };
    },

    // ---- passkeys ----
    passkeysOf: (userId: number) => db.selectFrom('user_passkey').selectAll().where('userId', '=', userId).orderBy('id').execute(),
    passkeyByCredential: (credentialId: string) => db.selectFrom('user_passkey').selectAll().where('credentialId', '=', credentialId).executeTakeFirst(),
    // a passkey's change runs in the caller's transaction (the security service records its entry there)
    /** Adds a passkey; answers its id. */
    async addPasskey(trx: Transaction<DB>, userId: number, p: { credentialId: string; publicKey: string; counter: number; transports: string[]; name: string }): Promise<number> {
      const row = await trx.insertInto('user_passkey').values({
        userId, credentialId: p.credentialId, publicKey: p.publicKey, counter: p.counter, transports: p.transports.join(',') || null, name: p.name, createdAt: clock(),
      }).returning('id').executeTakeFirstOrThrow();
      return Number(row.id);
    },
    /** Renames one of the account's passkeys; answers its name before, or undefined when the account has no such passkey. */
    async renamePasskey(trx: Transaction<DB>, userId: number, id: number, name: string): Promise<string | undefined> {
      const before = await trx.selectFrom('user_passkey').select('name').where('id', '=', id).where('userId', '=', userId).forUpdate().executeTakeFirst();
      if (!before) return undefined;
      await trx.updateTable('user_passkey').set({ name }).where('id', '=', id).where('userId', '=', userId).execute();
      return before.name;
    },
    /** Removes one of the account's passkeys; answers its name, or undefined when the account has no such passkey. */
    async removePasskey(trx: Transaction<DB>, userId: number, id: number): Promise<string | undefined> {
      const removed = await trx.deleteFrom('user_passkey').where('id', '=', id).where('userId', '=', userId).returning('name').executeTakeFirst();
      return removed?.name;
    },
    async passkeyUsed(id: number, counter: number): Promise<void> {
      await db.updateTable('user_passkey').set({ counter, lastUsedAt: clock() }).where('id', '=', id).execute();
    },

    // ---- a sign-in with a passkey alone (migration 033) ----
    /** Keeps the challenge of a usernameless sign-in with the login screen's role and vehicle choice, for TICKET_MINUTES. */
    async newPasskeySignIn(challenge: string, choice: { role: string; rejestr?: string | null; vin?: string | null }): Promise<void> {
      const now = clock();
      await db.deleteFrom('passkey_sign_in_challenge').where('expiresAt', '<', now).execute();
      await db.insertInto('passkey_sign_in_challenge').values({
        challenge, role: choice.role, rejestr: choice.rejestr ?? null, vin: choice.vin ?? null, expiresAt: new Date(now.getTime() + TICKET_MINUTES * 60_000),
      }).execute();
    },
    /** Takes a live challenge once (deleted as it is read, so a replay finds nothing on any process); undefined when unknown, spent or expired. */
    async takePasskeySignIn(challenge: string) {
      return db.deleteFrom('passkey_sign_in_challenge').where('challenge', '=', challenge).where('expiresAt', '>', clock())
        .returning(['challenge', 'role', 'rejestr', 'vin']).executeTakeFirst();
    },

    // ---- tickets ----
    /** A new ticket; answers the ticket itself (only its hash is stored). */
    async newTicket(t: { userId: number; purpose: 'SIGN_IN' | 'REGISTER_PASSKEY'; role?: string | null; pojazdId?: number | null }): Promise<string> {
      const ticket = randomBytes(32).toString('base64url');
      const now = clock();
      // old tickets go with any new one: the table stays small without a job of its own
      await db.deleteFrom('sign_in_ticket').where('expiresAt', '<', now).execute();
      await db.insertInto('sign_in_ticket').values({
        ticketHash: sha256(ticket), userId: t.userId, purpose: t.purpose, role: t.role ?? null, pojazdId: t.pojazdId ?? null,
        challenge: null, attempts: 0, expiresAt: new Date(now.getTime() + TICKET_MINUTES * 60_000),
      }).execute();
      return ticket;
    },
    /** A live ticket of the purpose, or undefined (unknown, expired, spent). */
    async ticket(ticket: string, purpose: 'SIGN_IN' | 'REGISTER_PASSKEY') {
      if (typeof ticket !== 'string' || ticket.length > 100) return undefined;
      const row = await db.selectFrom('sign_in_ticket').selectAll().where('ticketHash', '=', sha256(ticket)).where('purpose', '=', purpose).executeTakeFirst();
      if (!row || new Date(row.expiresAt).getTime() < clock().getTime() || row.attempts >= MAX_TICKET_TRIES) return undefined;
      return row;
    },
    async setChallenge(ticket: string, challenge: string): Promise<void> {
      await db.updateTable('sign_in_ticket').set({ challenge }).where('ticketHash', '=', sha256(ticket)).execute();
    },
    /** A wrong try with the ticket; the last allowed one spends it. */
    async ticketFailed(ticket: string): Promise<void> {
      await db.updateTable('sign_in_ticket').set((eb) => ({ attempts: eb('attempts', '+', 1) })).where('ticketHash', '=', sha256(ticket)).execute();
    },
    /** Spends the ticket; false when another request spent it first. */
    async spendTicket(ticket: string): Promise<boolean> {
      const r = await db.deleteFrom('sign_in_ticket').where('ticketHash', '=', sha256(ticket)).executeTakeFirst();
      return Number(r.numDeletedRows) === 1;
    },
  };

  async function replaceRecoveryCodes(trx: Kysely<DB>, userId: number): Promise<string[]> {
    const codes = newRecoveryCodes();
    await trx.deleteFrom('user_recovery_code').where('userId', '=', userId).execute();
    await trx.insertInto('user_recovery_code').values(codes.map((code) => ({ userId, codeHash: recoveryHash(userId, code), usedAt: null }))).execute();
    return codes;
  }
}

export type SecondFactorStore = ReturnType<typeof secondFactorStore>;
