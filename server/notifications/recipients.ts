/**
 * Who an event reaches, read from the database in the transaction of the change (never from the
 * request): the recipient kinds of screens/notifications.json turned into queries on app_user.
 * Only open accounts count (not deleted, dataDo not passed); the event's roles narrow the list.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { Role } from './events.ts';

export type RecipientKind = 'clientManagers' | 'orderReporter' | 'stationAdvisors' | 'admins' | 'self';

export interface Recipient {
  id: number;
  login: string;
  rola: Role;
  email: string | null;
  klientSymbol: string | null;
  stacjaSerw: string | null;
  pracId: number | null;
}

/** The facts of the record the kinds are read against (its client, station, reporter's e-mail). */
export interface RecordFacts {
  klientSymbol?: string | null;
  stacjaSerw?: string | null;
  zgloEmail?: string | null;
}

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

export async function findRecipients(
  db: Kysely<DB>, kinds: readonly RecipientKind[], record: RecordFacts, roles: readonly Role[], self?: number,
): Promise<Recipient[]> {
  let query = db.selectFrom('app_user')
    .select(['id', 'login', 'rola', 'email', 'klientSymbol', 'stacjaSerw', 'pracId'])
    .where('deletedAt', 'is', null)
    .where((eb) => eb.or([eb('dataDo', 'is', null), eb('dataDo', '>=', sql<string>`current_date`)]))
    .where('rola', 'in', [...roles]);
  query = query.where((eb) => {
    const any = [];
    for (const kind of kinds) {
      if (kind === 'clientManagers' && present(record.klientSymbol)) any.push(eb.and([eb('rola', '=', 'MANAGER'), eb('klientSymbol', '=', record.klientSymbol)]));
      if (kind === 'orderReporter' && present(record.zgloEmail)) any.push(eb(sql`lower("email")`, '=', record.zgloEmail.trim().toLowerCase()));
      if (kind === 'stationAdvisors' && present(record.stacjaSerw)) any.push(eb.and([eb('rola', '=', 'ADVISOR'), eb('stacjaSerw', '=', record.stacjaSerw)]));
      if (kind === 'admins') any.push(eb('rola', '=', 'ADMIN'));
      if (kind === 'self' && self !== undefined) any.push(eb('id', '=', self));
    }
    return any.length ? eb.or(any) : sql<boolean>`false`;
  });
  return (await query.orderBy('id').execute()) as Recipient[];
}
