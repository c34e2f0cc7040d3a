/**
 * 009 — the login history stores codes, not texts (issue 10): "rodzaj" is the event
 * (SIGN_IN, SIGN_OUT, VEHICLE_CHANGE) and "uwagi" the outcome (SUCCESS, BAD_CREDENTIALS, LOCKED …);
 * the screen shows them in Polish through valueLabels (locales/pl/login.json history.kinds and
 * history.reasons), so a change of wording no longer rewrites history. A vehicle change used to
 * keep the new plate in "uwagi": it moves to a column of its own, "rejestr".
 *
 * Existing rows are converted from the texts the server wrote until now (and the bulk seed's);
 * a text this migration does not know stays as it was and is shown as it was. `down` turns the
 * codes back into those texts.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Event code → the text stored before 009. */
export const KIND_TEXTS: Record<string, string> = {
  SIGN_IN: 'Logowanie',
  SIGN_OUT: 'Wylogowanie',
  VEHICLE_CHANGE: 'Zmiana pojazdu',
};

/** Outcome code → the texts stored before 009 (the first one is written back by `down`). */
export const REASON_TEXTS: Record<string, string[]> = {
  SUCCESS: ['Zalogowano'],
  BAD_CREDENTIALS: ['Błędny login, hasło lub rola', 'Błędny login lub hasło'],
  ACCOUNT_EXPIRED: ['Konto nieaktywne'],
  PASSWORD_EXPIRED: ['Hasło wygasło'],
  LOCKED: ['Konto czasowo zablokowane'],
  SIGNED_OUT: ['Wylogowano'],
  VEHICLE_NOT_ASSIGNED: ['Pojazd o podanym numerze rejestracyjnym nie jest przypisany do tego użytkownika'],
  VEHICLE_NOT_FOUND: ['Nie znaleziono pojazdu o podanym numerze rejestracyjnym i końcówce VIN'],
};

const VIEW = (withPlate: boolean) => sql.raw(`create view v_login_history as
  select "id", "login", "loginDate", "uwagi", "rola", "rodzaj", "success"${withPlate ? ', "rejestr"' : ''}
  from login_history`);

export const migration009: Migration = {
  async up(db: Kysely<any>) {
    await sql`alter table login_history add column "rejestr" varchar(20)`.execute(db);
    // a successful vehicle change kept the new plate where the outcome goes
    const known = Object.values(REASON_TEXTS).flat();
    await db.updateTable('login_history')
      .set({ rejestr: sql`"uwagi"`, uwagi: 'VEHICLE_CHANGED' })
      .where('rodzaj', '=', KIND_TEXTS.VEHICLE_CHANGE).where('success', '=', true)
      .where((eb) => eb.or([eb('uwagi', 'is', null), eb('uwagi', 'not in', known)]))
      .execute();
    for (const [code, text] of Object.entries(KIND_TEXTS)) {
      await db.updateTable('login_history').set({ rodzaj: code }).where('rodzaj', '=', text).execute();
    }
    for (const [code, texts] of Object.entries(REASON_TEXTS)) {
      await db.updateTable('login_history').set({ uwagi: code }).where('uwagi', 'in', texts).execute();
    }
    await sql`drop view v_login_history`.execute(db);
    await VIEW(true).execute(db);
  },
  async down(db: Kysely<any>) {
    await sql`drop view v_login_history`.execute(db);
    await VIEW(false).execute(db);
    for (const [code, texts] of Object.entries(REASON_TEXTS)) {
      await db.updateTable('login_history').set({ uwagi: texts[0] }).where('uwagi', '=', code).execute();
    }
    await db.updateTable('login_history').set({ uwagi: sql`"rejestr"` }).where('uwagi', '=', 'VEHICLE_CHANGED').execute();
    for (const [code, text] of Object.entries(KIND_TEXTS)) {
      await db.updateTable('login_history').set({ rodzaj: text }).where('rodzaj', '=', code).execute();
    }
    await sql`alter table login_history drop column "rejestr"`.execute(db);
  },
};
