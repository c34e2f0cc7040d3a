/**
 * The configuration compiler: reads screens/, schemas/, locales/ and the active client variant's
 * overlays, validates every file against schemas/meta (naming file, JSON pointer and reason),
 * merges overlays by id, cross-checks references (screens, fields, i18n keys) and returns one
 * bundle. Start-up and /api/settings/restart-application use it; a failure keeps nothing half-made.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { mergeOverlay, MergeError, overlayPointer, type Json } from '../../runtime/core/merge.ts';
import { crossCheck } from './cross-check.ts';
import { configuredLanguages, SOURCE_LANGUAGE, type Language } from './languages.ts';
import { personalFieldProblems } from './personal-fields.ts';
import { reportProblems, type ReportDecl, type ReportingDecl } from './report-declaration.ts';
import { ambiguousLabels, importProblems, sectionGroups, type ImportDecl } from './import-declaration.ts';
import { layerFileNames } from './layer-documents.ts';
import { hasKey } from '../../runtime/core/labels.ts';

export type { Bundle, ConfigProblem, LoadOptions, ResourceDecl, RowScope, Screen } from './bundle.ts';
import type { AppFile } from '../../runtime/core/generated/meta.ts';
import type { Bundle, ConfigProblem, EntitySchema, LoadOptions, ResourceDecl, Screen } from './bundle.ts';
import { fileOfType } from './screen-files.ts';

export class ConfigError extends Error {
  constructor(public readonly problems: ConfigProblem[]) {
    super(
      'Invalid configuration:\n' +
        problems.map((p) => `  ${p.file}${p.pointer ? ` at ${p.pointer}` : ''}: ${p.reason}`).join('\n'),
    );
  }
}

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8'));

/** How a problem names a document of the studio's layer: `studio:<layer path>`. */
export const LAYER_PREFIX = 'studio:';

function jsonFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile())
    .sort()
    .map((f) => join(dir, f));
}

function pointerOf(error: ErrorObject): string {
  const extra = error.keyword === 'additionalProperties' ? `/${(error.params as { additionalProperty?: string }).additionalProperty}` : '';
  return (error.instancePath || '') + extra || '/';
}

/** The most useful errors of an ajv run: drop the if/then wrappers that repeat the real reason. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): { pointer: string; reason: string }[] {
  const useful = (errors ?? []).filter((e) => e.keyword !== 'if' && e.keyword !== 'oneOf' && e.keyword !== 'anyOf');
  const chosen = useful.length ? useful : errors ?? [];
  return chosen.slice(0, 10).map((e) => ({
    pointer: pointerOf(e),
    reason:
      e.keyword === 'additionalProperties'
        ? `unknown property "${(e.params as { additionalProperty?: string }).additionalProperty}"`
        : `${e.message}${e.keyword === 'enum' ? `: ${JSON.stringify((e.params as { allowedValues?: unknown[] }).allowedValues)}` : ''}`,
  }));
}

/** Compiled meta-schemas by the text of schemas/meta: every variant of a load, and every reload that changed no meta-schema, reuses them. */
const metaValidators = new Map<string, Ajv2020>();

export function createMetaValidator(root: string) {
  const texts = jsonFiles(join(root, 'schemas/meta')).map((file) => readFileSync(file, 'utf8'));
  const key = createHash('sha256').update(texts.join('\0')).digest('base64url');
  const known = metaValidators.get(key);
  if (known) return known;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  for (const text of texts) ajv.addSchema(JSON.parse(text) as object);
  metaValidators.clear(); // only the newest set is kept: a changed meta-schema never comes back
  metaValidators.set(key, ajv);
  return ajv;
}

/**
 * Whether the entity and API schemas compile, by their text: compiling them is most of a load's
 * time (~70 %), and the variants, every reload and the studio's checks (issue 26) mostly load the
 * same schemas again. The few newest answers are kept.
 */
const compiled = new Map<string, ConfigProblem[]>();
function compileProblems(schemas: Record<string, EntitySchema>, schemaFiles: Record<string, string>): ConfigProblem[] {
  const key = createHash('sha256').update(JSON.stringify([schemas, schemaFiles])).digest('base64url');
  const known = compiled.get(key);
  if (known) return known;
  const problems: ConfigProblem[] = [];
  // Compile them together so that one schema may $ref another.
  const entityAjv = new Ajv2020({ strict: false });
  addFormats(entityAjv);
  for (const schema of Object.values(schemas)) entityAjv.addSchema(schema);
  for (const [id, file] of Object.entries(schemaFiles)) {
    try {
      entityAjv.getSchema(id);
    } catch (e) {
      problems.push({ file, pointer: '', reason: `not a valid JSON Schema: ${(e as Error).message}` });
    }
  }
  if (compiled.size >= 16) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, problems);
  return problems;
}

/** Where a variant's branding images live: client-variants/<variant>/assets (the base configuration's: assets/). */
export const variantAssetsDir = (root: string, variant: string) =>
  variant === 'default' ? join(root, 'assets') : join(root, 'client-variants', variant, 'assets');

export function loadBundle(options: LoadOptions): Bundle {
  const { root } = options;
  const variant = options.variant || 'default';
  const problems: ConfigProblem[] = [];
  const rel = (f: string) => relative(root, f);
  const meta = createMetaValidator(root);

  const validate = (metaId: string, value: unknown, file: string) => {
    const fn = meta.getSchema(metaId);
    if (!fn) return problems.push({ file, pointer: '', reason: `no meta-schema ${metaId}` });
    if (!fn(value)) for (const d of describeSchemaErrors(fn.errors)) problems.push({ file, ...d });
  };
  const read = (file: string): Json | undefined => {
    try {
      return readJson(file);
    } catch (e) {
      problems.push({ file: rel(file), pointer: '', reason: `not valid JSON: ${(e as Error).message}` });
      return undefined;
    }
  };
  const merge = (base: Json | undefined, overlay: Json, file: string, prefix = ''): Json | undefined => {
    try {
      return mergeOverlay(base, overlay);
    } catch (e) {
      if (!(e instanceof MergeError)) throw e;
      problems.push({ file: file.startsWith(LAYER_PREFIX) ? file : rel(file), pointer: prefix + e.pointer, reason: e.message });
      return base;
    }
  };
  /**
   * The variant's overlays, so that a problem found in a merged document names the variant's file
   * when the variant gave the value (and the base file otherwise). `prefix`: where the overlay sits
   * in its file ("/app" in variant.json).
   */
  const overlays: { base: string; file: string; prefix: string; value: Json; merged: () => Json | undefined; layer?: boolean }[] = [];
  const origin = (p: ConfigProblem): ConfigProblem => {
    for (const o of [...overlays].reverse()) {
      const merged = o.merged();
      const at = o.base === p.file && merged !== undefined ? overlayPointer(o.value, merged, p.pointer) : undefined;
      // the studio shows the whole document, so a layer's problem keeps the document's pointer
      if (at !== undefined) return { ...p, file: o.file, pointer: o.layer ? p.pointer : o.prefix + at };
    }
    return p;
  };
  /** The studio's layer (issue 26): the overlay of a document at its layer path, applied after the files of its scope. */
  const layer = options.layer ?? {};
  const applyLayer = (layerPath: string, doc: { value: Json; files: string[] } | undefined, baseFile: string | undefined) => {
    const overlay = layer[layerPath];
    if (overlay === undefined || !doc) return;
    const file = LAYER_PREFIX + layerPath;
    const merged = merge(doc.value, overlay, file);
    if (merged === undefined) return;
    doc.value = merged;
    doc.files = [...doc.files, file];
    if (baseFile) overlays.push({ base: baseFile, file, prefix: '', value: overlay, merged: () => doc.value, layer: true });
  };

  const variantDir = join(root, 'client-variants', variant);
  if (variant !== 'default' && !existsSync(variantDir)) {
    throw new ConfigError([{ file: `client-variants/${variant}`, pointer: '', reason: 'variant folder does not exist' }]);
  }
  const overlayDir = (sub: string) => (variant === 'default' ? undefined : join(variantDir, sub));

  /** Reads a folder of base files and merges the variant's files of the same name onto them. */
  const collect = (sub: string, idOf: (file: string) => string) => {
    const out: Record<string, { value: Json; files: string[] }> = {};
    const names: Record<string, string> = {};
    for (const file of jsonFiles(join(root, sub))) {
      const value = read(file);
      names[idOf(file)] = basename(file);
      if (value !== undefined) out[idOf(file)] = { value, files: [rel(file)] };
    }
    for (const [id, name] of Object.entries(names)) applyLayer(`${sub}/${name}`, out[id], out[id]?.files[0]);
    /** A document of the layer no file has (a creatable folder, layer-documents.ts): the entry is the whole document. */
    const layerOnly = (prefix: string) => {
      for (const name of layerFileNames(layer, prefix, sub)) {
        const id = idOf(join(root, sub, name));
        if (names[id] !== undefined) continue;
        names[id] = name;
        const file = `${LAYER_PREFIX}${prefix}/${name}`;
        const value = merge(undefined, layer[`${prefix}/${name}`], file);
        if (value !== undefined) out[id] = { value, files: [file] };
      }
    };
    layerOnly(sub);
    const od = overlayDir(sub);
    if (od) {
      for (const file of jsonFiles(od)) {
        const value = read(file);
        if (value === undefined) continue;
        const id = idOf(file);
        names[id] = basename(file);
        const base = out[id]?.files[0];
        const merged = merge(out[id]?.value, value, file);
        if (merged !== undefined) out[id] = { value: merged, files: [...(out[id]?.files ?? []), rel(file)] };
        if (base) overlays.push({ base, file: rel(file), prefix: '', value, merged: () => out[id]?.value });
      }
      // the variant's layer on the app settings comes after variant.json's "app" (below)
      for (const [id, name] of Object.entries(names)) {
        if (!(sub === 'screens' && id === 'app')) applyLayer(`client-variants/${variant}/${sub}/${name}`, out[id], out[id]?.files[0]);
      }
      layerOnly(`client-variants/${variant}/${sub}`);
    }
    return out;
  };

  // Screens: one file = one screen, file name = id.
  const screenFiles = collect('screens', (f) => basename(f, '.json'));
  const screens: Record<string, Screen> = {};
  for (const [id, { value, files }] of Object.entries(screenFiles)) {
    validate('meta/screen', value, files.join(' + '));
    screens[id] = value as Screen;
  }

  // Application settings: screens/app.json with the variant's variant.json "app" overlay.
  let app = fileOfType(screens.app, 'app');
  if (!app) problems.push({ file: 'screens/app.json', pointer: '', reason: 'missing' });
  if (variant !== 'default') {
    const vfile = join(variantDir, 'variant.json');
    const v = existsSync(vfile) ? read(vfile) : undefined;
    if (v === undefined) problems.push({ file: rel(vfile), pointer: '', reason: 'missing or unreadable' });
    else {
      validate('meta/variant', v, rel(vfile));
      const overlay = (v as { app?: Json }).app;
      if (overlay && app) {
        app = merge(app as unknown as Json, overlay, vfile, '/app') as unknown as AppFile;
        overlays.push({ base: 'screens/app.json', file: rel(vfile), prefix: '/app', value: overlay, merged: () => app as unknown as Json });
        validate('meta/app', app, `screens/app.json + ${rel(vfile)}`);
      }
    }
  }
  if (variant !== 'default' && app) {
    const doc = { value: app as unknown as Json, files: ['screens/app.json'] };
    applyLayer(`client-variants/${variant}/screens/app.json`, doc, 'screens/app.json');
    if (doc.files.length > 1) {
      app = doc.value as unknown as AppFile;
      validate('meta/app', app, doc.files.join(' + '));
    }
  }
  if (app) screens.app = app as unknown as Screen;
  // Branding images are files of the variant's assets/ folder (served by server/routes/variant-assets.ts)
  const branding = (app?.branding ?? {}) as Record<string, unknown>;
  for (const key of ['logo', 'favicon', 'mailLogo'] as const) {
    const file = branding[key];
    if (typeof file === 'string' && !existsSync(join(variantAssetsDir(root, variant), file))) {
      problems.push({ file: variant === 'default' ? 'screens/app.json' : rel(join(variantDir, 'variant.json')), pointer: `/app/branding/${key}`, reason: `no file ${file} in ${rel(variantAssetsDir(root, variant))}/` });
    }
  }
  // the home-screen icons of the installed portal (issue 47, server/init/manifest.ts)
  const installIcons = ((app?.install as { icons?: Record<string, unknown> } | undefined)?.icons ?? {});
  for (const [key, file] of Object.entries(installIcons)) {
    if (typeof file === 'string' && !existsSync(join(variantAssetsDir(root, variant), file))) {
      problems.push({ file: variant === 'default' ? 'screens/app.json' : rel(join(variantDir, 'variant.json')), pointer: `/app/install/icons/${key}`, reason: `no file ${file} in ${rel(variantAssetsDir(root, variant))}/` });
    }
  }

  // Schemas: entities and API bodies by $id; resources by name.
  const schemas: Record<string, EntitySchema> = {};
  const schemaFiles: Record<string, string> = {};
  for (const sub of ['schemas/entities', 'schemas/api']) {
    for (const [, { value, files }] of Object.entries(collect(sub, (f) => basename(f)))) {
      const schema = value as EntitySchema | undefined;
      if (typeof schema?.$id !== 'string') problems.push({ file: files.join(' + '), pointer: '/$id', reason: 'missing $id' });
      else {
        schemas[schema.$id] = schema;
        schemaFiles[schema.$id] = files.join(' + ');
      }
    }
  }
  problems.push(...compileProblems(schemas, schemaFiles));
  // every entity classifies its personal fields (issue 37, RODO: server/config/personal-fields.ts)
  for (const [id, file] of Object.entries(schemaFiles)) {
    if (file.includes('schemas/entities/')) problems.push(...personalFieldProblems(schemas[id], file));
  }
  const resources: Record<string, ResourceDecl> = {};
  for (const [, { value, files }] of Object.entries(collect('schemas/resources', (f) => basename(f)))) {
    validate('meta/resource', value, files.join(' + '));
    const r = value as unknown as ResourceDecl;
    if (r?.resource) resources[r.resource] = r;
  }

  // Import declarations (issue 34): one file per importable resource, overlaid by the variant (its column aliases).
  const imports: Record<string, ImportDecl> = {};
  const importFiles: Record<string, string> = {};
  for (const [, { value, files }] of Object.entries(collect('schemas/imports', (f) => basename(f)))) {
    const file = files.join(' + ');
    const before = problems.length;
    validate('meta/import', value, file);
    if (problems.length > before) continue;
    const decl = value as unknown as ImportDecl;
    problems.push(...importProblems(decl, schemas).map((p) => ({ file, ...p })));
    if (decl.sections) {
      if (screens[decl.sections]) decl.groups = sectionGroups(screens[decl.sections]);
      else problems.push({ file, pointer: '/sections', reason: `no screen "${decl.sections}"` });
    }
    imports[decl.import] = decl;
    importFiles[decl.import] = file;
  }

  // Reports (issue 46): one file per report, and what they count with; each overlaid by the variant.
  const reports: Record<string, ReportDecl> = {};
  const reportFiles: Record<string, string> = {};
  for (const [name, { value, files }] of Object.entries(collect('schemas/reports', (f) => basename(f)))) {
    const file = files.join(' + ');
    const before = problems.length;
    validate('meta/report', value, file);
    if (problems.length > before) continue;
    const decl = value as unknown as ReportDecl;
    // the report's id is its file's name: one document per report, a new one's id never taken
    if (decl.report !== basename(name, '.json')) {
      problems.push({ file, pointer: '/report', reason: `the report's id must be its file's name "${basename(name, '.json')}"` });
      continue;
    }
    reports[decl.report] = decl;
    reportFiles[decl.report] = file;
    problems.push(...reportProblems(decl).map((p) => ({ file, ...p })));
  }
  const reportingFiles = collect('schemas/reporting', (f) => basename(f));
  let reporting: ReportingDecl | undefined;
  for (const [, { value, files }] of Object.entries(reportingFiles)) {
    const before = problems.length;
    validate('meta/reporting', value, files.join(' + '));
    if (problems.length === before) reporting = value as unknown as ReportingDecl;
  }

  // Locales: one namespace per file.
  const localeFiles = collect('locales/pl', (f) => basename(f, '.json'));
  const pl: Record<string, Record<string, unknown>> = {};
  for (const [ns, { value }] of Object.entries(localeFiles)) pl[ns] = value as Record<string, unknown>;
  // the other languages (issue 48): each over the Polish texts, offered once it has texts of its own
  const locales: Bundle['locales'] = { pl };
  const languages: Language[] = [];
  for (const language of configuredLanguages((app?.config ?? {}) as Record<string, unknown>)) {
    if (language.id === SOURCE_LANGUAGE) {
      languages.push(language);
      continue;
    }
    const own = collect(`locales/${language.id}`, (f) => basename(f, '.json'));
    if (!Object.keys(own).length) continue;
    const texts: Record<string, Record<string, unknown>> = {};
    for (const ns of new Set([...Object.keys(pl), ...Object.keys(own)])) {
      texts[ns] = (own[ns] ? merge(pl[ns] as Json, own[ns].value, own[ns].files.at(-1)!) ?? pl[ns] : pl[ns]) as Record<string, unknown>;
    }
    locales[language.id] = texts;
    languages.push(language);
  }

  // every field of an import is named apart in the mapping (a label text, as the portal's Polish says it)
  const plainText = (key: string) => {
    const [ns, path] = key.includes(':') ? key.split(':', 2) : ['', key];
    const text = path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), pl[ns]);
    return typeof text === 'string' ? text : key;
  };
  // a report's texts (its name, description, own column labels) are keys of locales/pl
  for (const decl of Object.values(reports)) {
    const keys: [string, string | undefined][] = [['/label', decl.label], ['/description', decl.description], ...Object.entries(decl.labels ?? {}).map(([k, v]): [string, string] => [`/labels/${k}`, v])];
    for (const [pointer, key] of keys) {
      if (key !== undefined && !hasKey(pl, key)) problems.push({ file: reportFiles[decl.report], pointer, reason: `text key "${key}" is missing from locales/pl` });
    }
  }
  for (const decl of Object.values(imports)) problems.push(...ambiguousLabels(decl, plainText).map((p) => ({ file: importFiles[decl.import], ...p })));

  const conditions = (screens.conditions ?? { $defs: {} }) as Record<string, unknown>;
  if (problems.length === 0) {
    const found = crossCheck({ screens, schemas, resources, conditions, locales: pl, variant, config: (app?.config ?? {}) as Record<string, unknown> });
    problems.push(...found.map(origin));
  }
  if (problems.length) throw new ConfigError(problems);

  const body = {
    version: options.version ?? '0.0.0',
    variant,
    app: app!,
    config: (app!.config ?? {}) as Record<string, unknown>,
    screens,
    schemas,
    resources,
    imports,
    reports,
    reporting,
    conditions,
    locales,
    languages,
  };
  const etag = '"' + createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27) + '"';
  return { ...body, etag };
}
