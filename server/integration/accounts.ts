/**
 * Integration accounts and their keys in the database (issue 34): what the administrator's calls
 * (server/routes/integration-accounts.ts) read and write. A key is written as its hash alone; its
 * text leaves this module once, in the answer of `createKey`.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { diffRows, recordChange, type Actor } from '../audit/index.ts';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import { generateKey } from './keys.ts';

/** The trail's resource and recorded fields of an account (issue 37). */
const AUDIT_RESOURCE = 'integration-accounts';
const ACCOUNT_FIELDS = ['name', 'clients', 'scopes'] as const;

/** Keys of an account that work at the same time: the old one and its successor, while rotating. */
export const MAX_ACTIVE_KEYS = 2;

export interface AccountValues {
  name: string;
  /** null: every client. */
  clients: string[] | null;
  scopes: string[];
}

export type KeyState = 'active' | 'expired' | 'revoked';

export interface KeyRow {
  id: number;
  accountId: number;
  name: string | null;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  state: KeyState;
}

const KEY_COLUMNS = ['id', 'accountId', 'name', 'displayPrefix', 'createdAt', 'expiresAt', 'revokedAt', 'lastUsedAt', 'lastUsedIp'] as const;

const stateOf = (row: { revokedAt: Date | null; expiresAt: Date }, now: Date): KeyState =>
  row.revokedAt ? 'revoked' : new Date(row.expiresAt) <= now ? 'expired' : 'active';

export function accountsRepository(db: Kysely<DB>) {
  /** The trail's entry of a created account (issue 37). */
  const audit = (trx: Transaction<DB>, actor: Actor, id: number, action: string, before: Record<string, unknown> | null, after: Record<string, unknown>) =>
    recordChange(trx, { actor, resource: AUDIT_RESOURCE, recordKey: id, action, changes: diffRows(before, after, ACCOUNT_FIELDS) });
  return {
    /** The account's row as the table shows it (v_integration_account), or undefined. */
    async row(id: number) {
      return db.selectFrom('v_integration_account').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async exists(id: number): Promise<boolean> {
      return (await db.selectFrom('integration_account').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },

    async nameTaken(name: string, exceptId?: number): Promise<boolean> {
      let q = db.selectFrom('integration_account').select('id').where(sql<boolean>`lower("name") = lower(${name})`);
      if (exceptId !== undefined) q = q.where('id', '<>', exceptId);
      return (await q.executeTakeFirst()) !== undefined;
    },

    /** The given client symbols that no client has. */
    async unknownClients(symbols: readonly string[]): Promise<string[]> {
      if (symbols.length === 0) return [];
      const found = await db.selectFrom('client').select('klient').where('klient', 'in', symbols).execute();
      const known = new Set(found.map((r) => r.klient));
      return symbols.filter((s) => !known.has(s));
    },

    async create(values: AccountValues, actor?: Actor): Promise<number> {
      return db.transaction().execute(async (trx) => {
        const { id } = await trx.insertInto('integration_account')
          .values({ name: values.name, clients: values.clients === null ? null : jsonb(values.clients), scopes: jsonb(values.scopes) })
          .returning('id').executeTakeFirstOrThrow();
        if (actor) await audit(trx, actor, id, 'create', null, { name: values.name, clients: values.clients, scopes: values.scopes });
        return id;
      });
    },

    /** Changes an account; every process forgets its keys' cached sessions at the commit (migration 021). */
    async update(id: number, values: AccountValues, actor?: Actor): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('integration_account').select(ACCOUNT_FIELDS).where('id', '=', id).forUpdate().executeTakeFirst();
        const result = await trx.updateTable('integration_account')
          .set({ name: values.name, clients: values.clients === null ? null : jsonb(values.clients), scopes: jsonb(values.scopes), updatedAt: new Date() })
          .where('id', '=', id).executeTakeFirst();
        if (actor && before) {
          const changes = diffRows(before, { name: values.name, clients: values.clients, scopes: values.scopes }, ACCOUNT_FIELDS);
          if (Object.keys(changes).length) await recordChange(trx, { actor, resource: AUDIT_RESOURCE, recordKey: id, action: 'update', changes });
        }
        return Number(result.numUpdatedRows) > 0;
      });
    },

    async keys(accountId: number, now: Date): Promise<KeyRow[]> {
      const rows = await db.selectFrom('integration_key').select(KEY_COLUMNS).where('accountId', '=', accountId)
        .orderBy('createdAt', 'desc').orderBy('id', 'desc').execute();
      return rows.map((r) => ({ ...r, state: stateOf(r, now) }));
    },

    /**
     * A new key, unless the account has MAX_ACTIVE_KEYS live ones already ('tooMany'). The count
     * and the insert happen under a lock of the account's row, so two administrators clicking at
     * once cannot make a third.
     */
    async createKey(accountId: number, expiresAt: Date, actor?: Actor, name: string | null = null): Promise<{ key: string; row: KeyRow } | 'tooMany' | 'noAccount'> {
      return db.transaction().execute(async (trx: Transaction<DB>) => {
        const account = await trx.selectFrom('integration_account').select('id').where('id', '=', accountId).forUpdate().executeTakeFirst();
        if (!account) return 'noAccount' as const;
        const { live } = await trx.selectFrom('integration_key').select((eb) => eb.fn.countAll<string>().as('live'))
          .where('accountId', '=', accountId).where('revokedAt', 'is', null).where('expiresAt', '>', sql<Date>`now()`)
          .executeTakeFirstOrThrow();
        if (Number(live) >= MAX_ACTIVE_KEYS) return 'tooMany' as const;
        const made = generateKey();
        const row = await trx.insertInto('integration_key')
          .values({ accountId, name, keyHash: made.hash, displayPrefix: made.displayPrefix, expiresAt })
          .returning(KEY_COLUMNS).executeTakeFirstOrThrow();
        // the key itself never: its id, shown prefix and end (server/audit/secrets.ts lists "key")
        // named by its name and shown prefix, never by its id (a reader knows the key by those, issue 49)
        if (actor) await recordChange(trx, { actor, resource: AUDIT_RESOURCE, recordKey: accountId, action: 'create-key', changes: { ...(name ? { keyName: [null, name] } : {}), displayPrefix: [null, made.displayPrefix], expiresAt: [null, expiresAt.toISOString()] } });
        return { key: made.key, row: { ...row, state: stateOf(row, new Date()) } };
      });
    },

    /**
     * Removes the account and its keys (they stop working on every process at the commit: the
     * triggers of migration 021). The trail keeps its entries, this one naming what was removed.
     */
    async remove(id: number, actor?: Actor): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('integration_account').select(ACCOUNT_FIELDS).where('id', '=', id).forUpdate().executeTakeFirst();
        if (!before) return false;
        await trx.deleteFrom('integration_account').where('id', '=', id).execute();
        if (actor) await recordChange(trx, { actor, resource: AUDIT_RESOURCE, recordKey: id, action: 'delete', changes: diffRows(before, null, ACCOUNT_FIELDS) });
        return true;
      });
    },

    /**
     * Revokes a key of the account (again: no change). Every process refuses it from the commit on:
     * the trigger of migration 021 tells their caches, this process's own write clears its own.
     */
    async revokeKey(accountId: number, keyId: number, now: Date, actor?: Actor): Promise<KeyRow | undefined> {
      await db.transaction().execute(async (trx) => {
        const revoked = await trx.updateTable('integration_key').set({ revokedAt: now })
          .where('id', '=', keyId).where('accountId', '=', accountId).where('revokedAt', 'is', null)
          .returning(['name', 'displayPrefix']).executeTakeFirst();
        if (actor && revoked) {
          // the key as its list names it, "Produkcja (pk_ab12…)", as what was revoked: not its id, twice (issue 49)
          const key = revoked.name ? `${revoked.name} (${revoked.displayPrefix}…)` : `${revoked.displayPrefix}…`;
          await recordChange(trx, { actor, resource: AUDIT_RESOURCE, recordKey: accountId, action: 'revoke-key', changes: { revokedKey: [null, key], revokedAt: [null, now.toISOString()] } });
        }
      });
      const row = await db.selectFrom('integration_key').select(KEY_COLUMNS).where('id', '=', keyId).where('accountId', '=', accountId).executeTakeFirst();
      return row && { ...row, state: stateOf(row, now) };
    },
  };
}
