/**
 * Stored settings: the portal's e-mail configuration (email_config, one row) and each user's
 * saved table filters and column views (user_table_filter / user_table_view, scope "self": every
 * call names the user, and another user's row is as good as absent).
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import { readEmailConfig, type EmailConfig } from '../mail/mailer.ts';
import { recordRowChange, type Actor } from '../audit/index.ts';

/** The fields of the e-mail form, as the trail records them. */
const EMAIL_FIELDS = ['smtpHost', 'smtpPort', 'smtpUser', 'smtpPassword', 'smtpEmail', 'smtpSsl'];

export type SavedKind = 'filter' | 'view';
const TABLES = { filter: 'user_table_filter', view: 'user_table_view' } as const;
/** A row of either table, its value in filterModel or columnOrder. */
type SavedRow = { id: number; name: string; tablename: string } & Record<string, unknown>;

export interface SavedSetting {
  id: number;
  name: string;
  tablename: string;
  /** The filter model (filters) or the column order (views). */
  value: unknown;
}

/** Thrown when the user already has a setting of that name for that table. */
export class NameTakenError extends Error {
  constructor() {
    super('a saved setting of this name exists');
  }
}

export function settingsRepository(db: Kysely<DB>) {
  const valueColumn = (kind: SavedKind) => (kind === 'filter' ? 'filterModel' : 'columnOrder');
  const toSetting = (kind: SavedKind, row: SavedRow): SavedSetting =>
    ({ id: row.id, name: row.name, tablename: row.tablename, value: row[valueColumn(kind)] });
  // the two tables have the same shape but for the value's column

  /** Saves the configuration, in the caller's transaction when given (the audit trail's entry goes in it). */
  async function saveEmailConfig(c: EmailConfig, trx: Kysely<DB> = db): Promise<void> {
    await trx.updateTable('email_config').set({
      smtpHost: c.smtpHost, smtpPort: c.smtpPort, smtpUser: c.smtpUser, smtpPassword: c.smtpPassword,
      smtpEmail: c.smtpEmail, smtpSsl: c.smtpSsl, updatedAt: new Date(),
    }).where('id', '=', 1).execute();
  }

  return {
    emailConfig: (): Promise<EmailConfig | null> => readEmailConfig(db),
    saveEmailConfig,

    /**
     * Saves the configuration with its trail entry (issue 37), in one transaction: the fields of the
     * form before and after, the SMTP password only as "zmieniono" (server/audit/secrets.ts).
     */
    async saveEmailConfigWithTrail(actor: Actor, c: EmailConfig): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const before = await readEmailConfig(trx);
        await saveEmailConfig(c, trx);
        await recordRowChange(trx, actor, {
          resource: 'email', recordKey: 1, action: 'update', before: before as Record<string, unknown> | null,
          after: await readEmailConfig(trx) as Record<string, unknown> | null, fields: EMAIL_FIELDS,
        });
      });
    },

    /** A user's saved settings of one table, by name. */
    async saved(kind: SavedKind, userId: number, tablename: string): Promise<SavedSetting[]> {
      const rows = await db.selectFrom(TABLES[kind]).selectAll().where('userId', '=', userId).where('tablename', '=', tablename)
        .orderBy('name').orderBy('id').execute();
      return rows.map((r) => toSetting(kind, r));
    },

    /** Stores a named setting; NameTakenError when the name is taken (also when a concurrent save wins the race). */
    async insertNamed(kind: SavedKind, values: { userId: number; tablename: string; name: string; value: unknown }): Promise<SavedSetting> {
      const taken = await db.selectFrom(TABLES[kind]).select('id')
        .where('userId', '=', values.userId).where('tablename', '=', values.tablename).where('name', '=', values.name)
        .executeTakeFirst();
      if (taken) throw new NameTakenError();
      try {
        const row = await db.insertInto(TABLES[kind])
          .values({ userId: values.userId, tablename: values.tablename, name: values.name, [valueColumn(kind)]: jsonb(values.value) })
          .returningAll().executeTakeFirstOrThrow();
        return toSetting(kind, row);
      } catch (e) {
        if ((e as { code?: string }).code === '23505') throw new NameTakenError();
        throw e;
      }
    },

    /** Deletes one of the user's settings; false when the user has none with this id. */
    async remove(kind: SavedKind, userId: number, id: number): Promise<boolean> {
      const result = await db.deleteFrom(TABLES[kind]).where('id', '=', id).where('userId', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    settings: ReturnType<typeof settingsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('settings', settingsRepository(app.db));
}, { name: 'settings-repository', dependencies: ['db'] });
