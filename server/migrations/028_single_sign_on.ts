/**
 * 028 — single sign-on per client (issue 36, docs/decisions.md "Single sign-on per client").
 *
 * `app_user.ssoSubject`: the value of the identity provider's claim that names this person, set by
 * the administrator in the user dialog, for a variant whose `app.sso.match` is `{ by: "claim" }`
 * (an e-mail can change or be shared; an IdP's object id cannot). Indexed for the callback's look-up;
 * not unique: two clients' IdPs may issue the same value, the callback keeps the accounts of the
 * IdP's own variant.
 *
 * `sso_flow`: one row per sign-in started (GET /api/user/sso/start): the hash of its `state`, the
 * variant whose IdP it went to, the `nonce` and PKCE `codeVerifier` the callback needs, the redirect
 * URI it named, and the hash of the random value of the browser's short-lived cookie (so a callback
 * is completed only in the browser that started it). In the database, not in a process's memory,
 * so that the process behind the load balancer that gets the callback is not the one that must
 * remember it. The callback deletes the row as it reads it: a replayed state finds nothing.
 *
 * `sso_handoff`: what a callback decided, picked up once by the runtime (POST /api/user/sso/session)
 * under a random code it carries in the URL fragment: the account to sign in, or the refusal's code.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const USER_COLUMNS = ['id', 'login', 'rola', 'firstName', 'lastName', 'email', 'telefon', 'telefonKom', 'dataOd', 'dataDo', 'pwdDo', 'klientSymbol', 'stacjaSerw', 'pracId', 'firstLogin', 'failedLogins', 'lockedUntil', 'createdAt']
  .map((c) => `u."${c}"`).join(', ');

/** v_users of migration 011, with the SSO claim value last (a view's columns may only be added at its end). */
const usersView = (withSubject: boolean) => `create or replace view v_users as
  select ${USER_COLUMNS},
    cl."klientNazwa",
    st."nazwa" as "stacjaNazwa"${withSubject ? `,
    u."ssoSubject"` : ''}
  from app_user u
  left join client cl on cl."klient" = u."klientSymbol"
  left join service_station st on st."stacjaSerw" = u."stacjaSerw"
  where u."deletedAt" is null`;

export const migration028: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table app_user add column "ssoSubject" text`,
      // a session signed in through the client's identity provider: its second factor is the provider's (decisions "Single sign-on")
      `alter table user_session add column "viaIdentityProvider" boolean not null default false`,
      `create index app_user_sso_subject on app_user ("ssoSubject") where "ssoSubject" is not null`,
      usersView(true),
      `create table sso_flow (
        "stateHash" text primary key,
        "variant" text not null,
        "nonce" text not null,
        "codeVerifier" text not null,
        "redirectUri" text not null,
        "browserHash" text not null,
        "createdAt" timestamptz not null default now(),
        "expiresAt" timestamptz not null
      )`,
      `create index sso_flow_expires on sso_flow ("expiresAt")`,
      `create table sso_handoff (
        "codeHash" text primary key,
        "variant" text not null,
        "userId" bigint references app_user on delete cascade,
        "refusal" text,
        "createdAt" timestamptz not null default now(),
        "expiresAt" timestamptz not null,
        check (("userId" is null) <> ("refusal" is null))
      )`,
      `create index sso_handoff_expires on sso_handoff ("expiresAt")`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `alter table user_session drop column "viaIdentityProvider"`,
      `drop table sso_handoff`,
      `drop table sso_flow`,
      `drop view v_users`,
      usersView(false),
      `drop index app_user_sso_subject`,
      `alter table app_user drop column "ssoSubject"`,
    ]);
  },
};
