/**
 * The persons of Dziennik zmian's "Kto" filter (issue 49): the accounts and integration keys that
 * appear in the trail, found by name, login or key, each with the value the table filters on —
 * the view's `actor` (`user:<id>`, `key:<id>`; migration 055), which audit_entry_actor_at serves in
 * the table's order. A person is listed when the trail holds at least one entry of theirs: one
 * probe of that index per candidate, so the list costs the accounts and keys it reads, never the
 * trail's size. A deleted account stays listed (its entries stay); the system's jobs are not
 * persons (the "Rodzaj" column chooses them).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';

/** One choice of a table's column filter (schemas/api/filter-options.schema.json). */
export interface FilterOption {
  value: string;
  label: string;
  detail?: string;
}

/** `%`, `_` and `\` are literal in the typed text. */
const like = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * At most `limit` persons whose name, login (accounts) or account, key name or key prefix (keys)
 * contains `text` (any case), sorted by what the list shows; `more` when there are others.
 */
export async function trailActors(
  db: Kysely<DB>,
  text: string,
  limit: number,
  keyDetail: (prefix: string) => string,
  language = 'pl',
): Promise<{ items: FilterOption[]; more: boolean }> {
  const pattern = like(text.trim());
  const users = await db.selectFrom('app_user as u')
    .select(['u.id', 'u.login', 'u.firstName', 'u.lastName'])
    .where(sql<boolean>`exists (select 1 from v_audit_entry a where a."actor" = 'user:' || u."id"::text)`)
    .where((eb) => eb.or([
      eb('u.login', 'ilike', pattern),
      eb(sql`u."lastName" || ' ' || u."firstName"`, 'ilike', pattern),
      eb(sql`u."firstName" || ' ' || u."lastName"`, 'ilike', pattern),
    ]))
    .orderBy(sql`lower(u."lastName")`).orderBy(sql`lower(u."firstName")`).orderBy('u.login')
    .limit(limit + 1)
    .execute();
  const keys = await db.selectFrom('integration_key as k')
    .innerJoin('integration_account as c', 'c.id', 'k.accountId')
    .select(['k.id', 'k.name', 'k.displayPrefix', 'c.name as account'])
    .where(sql<boolean>`exists (select 1 from v_audit_entry a where a."actor" = 'key:' || k."id"::text)`)
    .where((eb) => eb.or([eb('c.name', 'ilike', pattern), eb('k.name', 'ilike', pattern), eb('k.displayPrefix', 'ilike', pattern)]))
    .orderBy(sql`lower(c."name")`).orderBy(sql`lower(coalesce(k."name", ''))`).orderBy('k.id')
    .limit(limit + 1)
    .execute();
  const options: FilterOption[] = [
    ...users.map((u) => ({ value: `user:${u.id}`, label: `${u.lastName} ${u.firstName}`.trim() || u.login, detail: u.login })),
    ...keys.map((k) => ({ value: `key:${k.id}`, label: k.name ? `${k.account}: ${k.name}` : k.account, detail: keyDetail(k.displayPrefix) })),
  ];
  const collator = new Intl.Collator(language, { sensitivity: 'base' });
  options.sort((a, b) => collator.compare(a.label, b.label) || collator.compare(a.detail ?? '', b.detail ?? ''));
  return { items: options.slice(0, limit), more: options.length > limit };
}
