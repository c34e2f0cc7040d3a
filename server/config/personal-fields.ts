/**
 * Which fields of an entity are a person's data (issue 37, RODO): declared once per entity, in its
 * schema (schemas/entities/<entity>.schema.json), as the keyword
 *
 *   "x-personal": { "<field>": "<kind>", … }     — {} when the entity names nobody
 *
 * The kind says what the field holds and so what anonymisation writes in its place
 * (server/personal-data/anonymise.ts): a name or a login gets the pseudonym, the rest is emptied.
 * A property that looks personal by its name or format but is not (a client's town) says so next
 * to itself: "x-personal": false.
 *
 * `personalFieldProblems` is the rule `npm run check` and start-up apply: every entity schema
 * classifies itself, names only its own properties with a known kind, and leaves no property that
 * looks personal (PERSONAL_HINTS, format "email") unclassified. A new entity, or a new field such
 * as `kierowcaTelefon`, therefore cannot reach the portal without someone deciding whether the
 * export and the anonymisation must cover it.
 */
import type { ConfigProblem, EntitySchema } from './bundle.ts';

export const PERSONAL_KINDS = ['name', 'login', 'email', 'phone', 'address', 'identifier', 'network'] as const;
export type PersonalKind = (typeof PERSONAL_KINDS)[number];

/**
 * Property names that look like a person's data, with the kind they suggest. Polish and English
 * stems as the portal's columns spell them (zgloNazwiskoImie, telefonKom, sprawcaUlica …).
 */
export const PERSONAL_HINTS: readonly { pattern: RegExp; kind: PersonalKind }[] = [
  { pattern: /e-?mail/i, kind: 'email' },
  { pattern: /telef|phone/i, kind: 'phone' },
  { pattern: /imie|nazwisk|nazImie|firstName|lastName|surname|^name$|autor|odbiorca|zatwierdzil|przyjal|uzytkPojazdu|^opWydal$|^opOdebral$/i, kind: 'name' },
  { pattern: /^login$|ssoSubject|actorLabel/i, kind: 'login' },
  { pattern: /ulica|kodPoczt|miejscow|adres|address/i, kind: 'address' },
  { pattern: /nrPrac|pesel|dowod/i, kind: 'identifier' },
  { pattern: /userAgent/i, kind: 'network' },
];

/** The kind a property's name or format suggests, or null when it does not look personal. */
export function looksPersonal(name: string, property: Record<string, unknown> | undefined): PersonalKind | null {
  if (property?.format === 'email') return 'email';
  return PERSONAL_HINTS.find((h) => h.pattern.test(name))?.kind ?? null;
}

/** The declared personal fields of an entity schema and their kinds ({} when none or undeclared). */
export function personalFields(schema: unknown): Record<string, PersonalKind> {
  const declared = (schema as { 'x-personal'?: unknown } | undefined)?.['x-personal'];
  return declared && typeof declared === 'object' && !Array.isArray(declared) ? (declared as Record<string, PersonalKind>) : {};
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** The problems of one entity schema's declaration, each with its file and JSON pointer. */
export function personalFieldProblems(schema: EntitySchema, file: string): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const properties: Record<string, Record<string, unknown>> = schema.properties ?? {};
  const declared = schema['x-personal'];
  if (declared === undefined) {
    problems.push({ file, pointer: '/x-personal', reason: 'the entity does not declare its personal fields: add "x-personal" (field → kind, {} when it names nobody)' });
    return problems;
  }
  if (!declared || typeof declared !== 'object' || Array.isArray(declared)) {
    problems.push({ file, pointer: '/x-personal', reason: 'must be an object of field → kind ({} when the entity names nobody)' });
    return problems;
  }
  for (const [field, kind] of Object.entries(declared as Record<string, unknown>)) {
    const pointer = `/x-personal/${escape(field)}`;
    if (!Object.hasOwn(properties, field)) problems.push({ file, pointer, reason: `"${field}" is not a property of the entity` });
    else if (properties[field]?.['x-personal'] === false) problems.push({ file, pointer, reason: `"${field}" is declared personal here and not personal on the property` });
    if (!PERSONAL_KINDS.includes(kind as PersonalKind)) problems.push({ file, pointer, reason: `kind "${String(kind)}" is not one of ${PERSONAL_KINDS.join(', ')}` });
  }
  for (const [field, property] of Object.entries(properties)) {
    if (Object.hasOwn(declared, field)) continue;
    const flag = property?.['x-personal'];
    if (flag !== undefined && flag !== false) {
      problems.push({ file, pointer: `/properties/${escape(field)}/x-personal`, reason: 'only false is allowed on a property (declare personal fields in the entity\'s "x-personal")' });
      continue;
    }
    if (flag === false) continue;
    const kind = looksPersonal(field, property);
    if (kind) {
      problems.push({
        file, pointer: `/properties/${escape(field)}`,
        reason: `"${field}" looks like personal data (${kind}): list it in "x-personal", or mark the property "x-personal": false`,
      });
    }
  }
  return problems;
}
