/**
 * ACCESS.md for a recipient, judged when a notification is sent or shown: the recipient as a
 * session (their role, client, station and, for a driver, the vehicle assigned to them today) and
 * the record of the notification read through the resource's own row scope. A record the recipient
 * could not open in the portal is not found here, so nothing is said about it.
 */
import { sql, type Kysely } from 'kysely';
import type { Session } from '../auth/session.ts';
import type { Bundle } from '../config/bundle.ts';
import { byConfiguration } from '../db/configured-tables.ts';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import { scopeExpression } from '../access/row-scope.ts';

export interface RecipientAccount {
  session: Session;
  email: string | null;
  firstName: string;
  lastName: string;
}

/**
 * The recipient as the portal would see them signed in now; undefined when the account is closed
 * (deleted, or its dataDo passed). A driver's vehicle is the one assigned to them (their sign-in
 * may name no other); an advisor's scope is their station (no vehicle signed in with).
 */
export async function recipientAccount(db: Kysely<DB>, userId: number): Promise<RecipientAccount | undefined> {
  const user = await db.selectFrom('app_user')
    .select(['id', 'login', 'rola', 'klientSymbol', 'stacjaSerw', 'pracId', 'email', 'firstName', 'lastName', 'language'])
    .where('id', '=', userId).where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('dataDo', 'is', null), eb('dataDo', '>=', sql<string>`current_date`)]))
    .executeTakeFirst();
  if (!user) return undefined;
  let pojazdId: number | null = null;
  if (user.rola === 'USER' && user.pracId !== null) {
    const car = await db.selectFrom('car').select('pojazdId').where('pracId', '=', user.pracId).orderBy('pojazdId').executeTakeFirst();
    pojazdId = car?.pojazdId ?? null;
  }
  return {
    session: {
      tokenHash: '', userId: user.id, login: user.login, role: user.rola as Session['role'], klientSymbol: user.klientSymbol,
      stacjaSerw: user.stacjaSerw, pojazdId, termsPending: false, firstLogin: false,
      // his e-mails and reports are written in his language (issue 48)
      language: user.language,
    },
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
  };
}

/** The record of a resource by its key, as this session may read it (its view's row); undefined outside the scope. */
export async function visibleRecord(
  db: Kysely<DB>, bundle: Bundle, resourceName: string, key: number, session: Session,
): Promise<Record<string, unknown> | undefined> {
  const resource = bundle.resources[resourceName];
  if (!resource) return undefined;
  try {
    return await byConfiguration(db).selectFrom(resource.source).selectAll()
      .where((eb) => scopeExpression(eb, bundle.resources, resource, session, 'forbidden'))
      .where(sql.ref(resource.key), '=', key)
      .executeTakeFirst();
  } catch (error) {
    // a role the resource does not name at all: the record is not the recipient's to see
    if (error instanceof HttpError) return undefined;
    throw error;
  }
}
