/**
 * "Zmienione pola" of Dziennik zmian by their labels (issue 49, migration 042): the view
 * v_audit_entry names a changed field by the label audit_field_label holds for its resource, so
 * the list shows and filters by what a reader sees. The labels are the configuration's
 * (./labels.ts `label(resource, field)`): this plugin writes them at start and again when the
 * configuration in use is no longer the one written (a reload, a studio publish), checked by the
 * calls that read the trail's list (/api/audit/…). The default variant's words are written: the
 * trail is the administrator's, one list for every variant. Each offered language's labels are
 * written (migration 054), so the column filters by the words of the reader's language too
 * (server/audit/record-names.ts); the view shows the source language's.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Bundle } from '../config/bundle.ts';
import type { DB } from '../db/types.generated.ts';
import { SOURCE_LANGUAGE } from '../config/languages.ts';
import { entityOfResource, fieldNamer } from './labels.ts';

const CHUNK = 1_000;

export interface FieldLabel { language: string; resource: string; field: string; label: string }

/**
 * Every (resource, field) the configuration can name, with its label in each offered language when
 * that is not the code itself.
 */
export function fieldLabelsOf(bundle: Bundle): FieldLabel[] {
  return bundle.languages.flatMap((language) => labelsIn(bundle, language.id));
}

/** The labels of one language (a key its texts lack reads as the source language's, as on the screens). */
function labelsIn(bundle: Bundle, language: string): FieldLabel[] {
  const schema = bundle.schemas['audit-entry'] as { properties?: { resource?: { enum?: unknown[] } } } | undefined;
  const resources = (schema?.properties?.resource?.enum ?? []).filter((r): r is string => typeof r === 'string');
  // which fields have a label: the source language's texts name every key the others may
  const locales = bundle.locales[SOURCE_LANGUAGE];
  const namer = fieldNamer(bundle, (key) => key, {}, language);
  const keysOf = (ns: string | undefined) => {
    const fields = ns ? locales[ns]?.fields : undefined;
    return fields && typeof fields === 'object' ? Object.keys(fields) : [];
  };
  const out: FieldLabel[] = [];
  for (const resource of resources) {
    const entity = entityOfResource(bundle, resource);
    const fields = new Set<string>([
      ...Object.keys((entity ? bundle.schemas[entity]?.properties : undefined) ?? {}),
      ...keysOf(entity), ...keysOf(resource), ...keysOf('audit'),
    ]);
    for (const field of fields) {
      const label = namer.label(resource, field);
      if (label !== field) out.push({ language, resource, field, label });
    }
  }
  return out;
}

/** Writes the labels; rows of fields no longer named are removed. Safe beside another process doing the same. */
export async function writeFieldLabels(db: Kysely<DB>, bundle: Bundle): Promise<void> {
  const rows = fieldLabelsOf(bundle);
  await db.transaction().execute(async (trx) => {
    const stored = await trx.selectFrom('audit_field_label').select(['language', 'resource', 'field', 'label']).execute();
    const keyOf = (r: Omit<FieldLabel, 'label'>) => `${r.language}\u0000${r.resource}\u0000${r.field}`;
    const wanted = new Map(rows.map((r) => [keyOf(r), r.label]));
    const have = new Map(stored.map((r) => [keyOf(r), r.label]));
    const gone = stored.filter((r) => !wanted.has(keyOf(r)));
    const changed = rows.filter((r) => have.get(keyOf(r)) !== r.label);
    for (const r of gone) {
      await trx.deleteFrom('audit_field_label').where('language', '=', r.language).where('resource', '=', r.resource).where('field', '=', r.field).execute();
    }
    for (let from = 0; from < changed.length; from += CHUNK) {
      await trx.insertInto('audit_field_label').values(changed.slice(from, from + CHUNK))
        .onConflict((oc) => oc.columns(['language', 'resource', 'field']).doUpdateSet((eb) => ({ label: eb.ref('excluded.label') })))
        .execute();
    }
  });
}

export default fp(async (app) => {
  let written: Bundle | undefined;
  let writing: Promise<void> | undefined;
  const defaultBundle = () => app.config.forVariant(app.config.variants[0] ?? '').bundle;
  const ensure = async () => {
    const bundle = defaultBundle();
    if (bundle === written) return;
    if (!writing) {
      writing = writeFieldLabels(app.db, bundle).then(() => { written = bundle; }).finally(() => { writing = undefined; });
    }
    await writing;
  };
  // a server started on a database not yet migrated (the OpenAPI check) writes them at the first read instead
  app.addHook('onReady', async () => ensure().catch((err) => app.log.warn({ err }, 'audit field labels not written at start')));
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/api/audit/')) await ensure();
  });
}, { name: 'audit-field-labels' });
