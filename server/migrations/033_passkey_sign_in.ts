/**
 * 033 — signing in with a passkey alone (issue 36): the challenge of a password-less, usernameless
 * sign-in. No account is known when the challenge is issued (the browser offers whichever
 * discoverable credential the person picks), so it cannot live in `sign_in_ticket` (which belongs
 * to an account). A row holds the challenge (the primary key: the browser's answer carries it in
 * its signed clientDataJSON, so the answer finds its row), the login screen's choice of role and
 * vehicle made before it (checked once the account is known, as the password step checks them),
 * and a short expiry. The answer takes its row with `delete … returning`, so a replayed answer
 * finds nothing on any server process.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration033: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table passkey_sign_in_challenge (
        "challenge" text primary key,
        "role" text not null,
        "rejestr" text,
        "vin" text,
        "expiresAt" timestamptz not null
      )`,
      `create index passkey_sign_in_challenge_expires on passkey_sign_in_challenge ("expiresAt")`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [`drop table passkey_sign_in_challenge`]);
  },
};
