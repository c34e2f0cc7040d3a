/**
 * The rows an import takes, published in the OpenAPI document (issue 34: "with the resource names
 * and fields of the import declarations"): one component schema per declaration of the default
 * variant, `import-row-<name>`, a JSON line's object with the declaration's fields, their types and
 * the file headings they are recognised by. Documentation only: a run checks its rows against the
 * declaration of the caller's own variant (which may overlay more headings), never this schema.
 */
import type { Bundle } from '../config/bundle.ts';
import { resolveFields, type FieldType } from '../config/import-declaration.ts';

export const IMPORT_ROW_PREFIX = 'import-row-';

const JSON_TYPES: Record<FieldType, Record<string, string>> = {
  text: { type: 'string' },
  integer: { type: 'integer' },
  decimal: { type: 'number' },
  date: { type: 'string', format: 'date' },
  datetime: { type: 'string', format: 'date-time' },
  boolean: { type: 'boolean' },
};

export function importRowSchemas(bundle: Bundle): Record<string, unknown> {
  const schemas: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(bundle.imports ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    // an import of files (invoice PDFs) takes files, not JSON lines
    if (decl.files) continue;
    const fields = resolveFields(decl, bundle.schemas as never);
    schemas[`${IMPORT_ROW_PREFIX}${name}`] = {
      title: `A row of the import "${name}" (declaration=${name}; a key needs the scope import:${name})`,
      description: `One JSON line of a run of schemas/imports/${name}.json. Matched by: ${decl.key.join(', ')}.`,
      type: 'object',
      ...(fields.some((f) => f.required) ? { required: fields.filter((f) => f.required).map((f) => f.id) } : {}),
      properties: Object.fromEntries(fields.map((f) => [f.id, {
        ...(JSON_TYPES[f.type] ?? { type: 'string' }),
        ...(f.aliases?.length ? { description: `In a file: ${f.aliases.join(', ')}` } : {}),
      }])),
    };
  }
  return schemas;
}
