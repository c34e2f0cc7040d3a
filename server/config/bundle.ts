/**
 * The shapes of the merged configuration (types only, no code): what loadBundle returns and what
 * the cross-check, the row scopes and the routes read. A module of its own so that none of them
 * has to import the loader (which imports them).
 */
import type { AppFile, ResourceFile } from '../../runtime/core/generated/meta.ts';
import type { JsonSchemaObject } from '../../runtime/core/json-schema.ts';

/** One problem of the configuration, with the file and JSON pointer (runtime/core/screen-checks/check-context.ts). */
export type { ConfigProblem } from '../../runtime/core/screen-checks/check-context.ts';

/**
 * A file of screens/ as loaded (checked against its meta-schema): its type, and its other keys as
 * `unknown` until read through its generated type (screen-files.ts `fileOfType`) or narrowed.
 */
export type Screen = { type: string; [key: string]: unknown };

/** An entity or API schema (schemas/entities, schemas/api). */
export type EntitySchema = JsonSchemaObject;

/** A resource file (schemas/resources/*.json), typed from its meta-schema (npm run gen). */
export type ResourceDecl = ResourceFile;

/** Row scope of a role on a resource (ACCESS.md), from the resource meta-schema. */
export type RowScope = NonNullable<NonNullable<ResourceFile['access']>['ADMIN']>;

/** Write and read rules of a resource's domain calls (orders: editable fields, hidden prices, locks, transitions). */
export type ResourceRules = NonNullable<ResourceFile['rules']>;
/** A move of a record's status declared in `rules.transitions` (the approval workflow). */
export type TransitionDecl = NonNullable<ResourceRules['transitions']>[number];

export interface Language {
  /** The folder under locales/: an ISO 639-1 code (pl, en, uk). */
  id: string;
  /** BCP 47 locale of dates and numbers in this language (pl-PL, en-GB, uk-UA). */
  locale: string;
  /** The language's own name, as its speakers write it (shown in the language choice). */
  name: string;
  /** How a day is written and typed in this language: DD.MM.YYYY, DD/MM/YYYY (runtime/core/date-text.ts). */
  datePattern: string;
}

export interface Bundle {
  version: string;
  variant: string;
  app: AppFile;
  config: Record<string, unknown>;
  screens: Record<string, Screen>;
  /** Entity and API schemas by $id. */
  schemas: Record<string, EntitySchema>;
  resources: Record<string, ResourceDecl>;
  /** Import declarations by name (schemas/imports, issue 34). */
  imports: Record<string, import('./import-declaration.ts').ImportDecl>;
  /** Reports by id (schemas/reports, issue 46). */
  reports: Record<string, import('./report-declaration.ts').ReportDecl>;
  /** What the reports count with (schemas/reporting/reporting.json): categories, products, factors. */
  reporting?: import('./report-declaration.ts').ReportingDecl;
  conditions: Record<string, unknown>;
  /**
   * Texts by language and namespace: the source language's (pl) and each offered language's, the
   * latter over the Polish ones (a key a language lacks reads Polish; `npm run check` names it).
   */
  locales: { pl: Record<string, Record<string, unknown>>; [language: string]: Record<string, Record<string, unknown>> };
  /** The languages offered (config.languages that have texts), the default first (config/languages.ts). */
  languages: Language[];
  etag: string;
}

export interface LoadOptions {
  root: string;
  variant?: string;
  version?: string;
  /**
   * The configuration studio's published layer (issue 26, server/studio/): overlays by layer path
   * (`screens/x.json` for the base portal, `client-variants/<v>/screens/x.json` for a variant),
   * each merged after the files of its scope.
   */
  layer?: Record<string, import('../../runtime/core/merge.ts').Json>;
}
