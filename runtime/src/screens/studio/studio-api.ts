/**
 * The configuration studio's API (docs/config-studio-api.md), every call ADMIN-only on the server.
 * The prefix is the studio screen's `endpoint` (screens/config-studio.json). A refused write
 * rejects with the API client's ApiError; `studioFailure` reads what the studio shows of it:
 * the checks' problems (400 CONFIG_INVALID), the other analyst's changes (409 CONFIG_STALE).
 */
import { api, ApiError } from '../../api/client';

export type Json = any;

export interface DocumentInfo {
  path: string;
  kind: 'screen' | 'locale' | 'translation' | 'schema';
  /** A translation's language (locales/<language>/…). */
  language?: string;
  id: string;
  /** The screen type of a screen document. */
  type?: string;
  /** Its title, an i18n key. */
  title?: string;
  /** A schema document's $id. */
  schemaId?: string;
}

export interface Version {
  id: number;
  status: 'published' | 'superseded';
  author: string;
  createdAt: string;
  publishedAt: string | null;
  comment: string;
  /** Published now; in a scope's list (versions(scope)), the one in effect in that scope. */
  current: boolean;
  restoredFrom: number | null;
  /** Each scope's version number at this version (a scope counts on at each version that changes it; 0: as in the files). */
  numbers: Record<string, number>;
  /** The scopes this version changed. */
  scopes: string[];
}

export interface Draft {
  id: number;
  basedOn: number | null;
  author: string;
  updatedAt: string;
  /** Layer paths changed against its base. */
  paths: string[];
}

/** A step of a changed value's place: a key, or the item of an id-keyed list. */
export type Step = string | { id: string };

export interface Change {
  scope: string;
  path: string;
  pointer: string;
  /** The place as steps: what taking the change back names. */
  at: Step[];
  before?: Json;
  after?: Json;
  /** A readable Polish line. */
  text: string;
}

/** A problem of the checks: `field` is `<layer path>#<JSON pointer>`; the rest is given where the server knows it. */
export interface Problem {
  field: string;
  message: string;
  scope?: string;
  path?: string;
  pointer?: string;
  where?: string;
}

/** A namespace of texts, named as the menu names its screens; own: the studio's own texts. */
export interface Namespace {
  id: string;
  name: string;
  own: boolean;
}

export interface Overview {
  scopes: string[];
  /** Each scope's name: the base portal, each variant by its configuration's name. */
  scopeNames: Record<string, string>;
  documents: DocumentInfo[];
  namespaces: Namespace[];
  /** The languages a text is edited in side by side (issue 48): Polish first, each by its own name. */
  languages: { id: string; name: string }[];
  published: Version | null;
  draft: Draft | null;
  stale: boolean;
  broken: Problem[];
}

export interface StudioDocument {
  scope: string;
  path: string;
  layerPath: string;
  files: Json;
  effective: Json;
  changed: boolean;
}

export interface TextHit {
  key: string;
  text: string;
  filesText: string;
  changed: boolean;
  /** Where it is shown, in the words of the screens ("Dane pojazdu → kolumna"). */
  places: string[];
  /** The text in each other language (issue 48); `missing`: that language has none of its own. */
  translations: { id: string; text: string; filesText: string; changed: boolean; missing: boolean }[];
}

export interface DocumentChange {
  scope: string;
  path: string;
  document: Json;
}

export interface ExportFile {
  format: string;
  files: Record<string, Json>;
}

const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

/** The calls of the contract, under the screen's endpoint. */
export function studioApi(base: string) {
  return {
    overview: (signal?: AbortSignal) => api.get<Overview>(base, { signal }),
    document: (scope: string, path: string, signal?: AbortSignal) => api.get<StudioDocument>(`${base}/document?${query({ scope, path })}`, { signal }),
    saveDocuments: (changes: DocumentChange[]) => api.put<{ draft: Draft }>(`${base}/documents`, { changes }),
    forgetDocument: (scope: string, path: string) => api.delete<{ draft: Draft | null }>(`${base}/document?${query({ scope, path })}`),
    texts: (scope: string, q: string, ns: string, signal?: AbortSignal) =>
      api.get<{ items: TextHit[] }>(`${base}/texts?${query(ns ? { scope, q, ns } : { scope, q })}`, { signal }),
    saveText: (scope: string, key: string, text: string, translations?: Record<string, string>) =>
      api.put<{ draft: Draft }>(`${base}/texts`, translations && Object.keys(translations).length ? { scope, key, text, translations } : { scope, key, text }),
    draftDiff: (signal?: AbortSignal) => api.get<{ changes: Change[] }>(`${base}/draft/diff`, { signal }),
    revert: (change: Pick<Change, 'scope' | 'path' | 'at'>) =>
      api.post<{ draft: Draft }>(`${base}/draft/revert`, { scope: change.scope, path: change.path, at: change.at }),
    discard: () => api.post<{ draft: null }>(`${base}/draft/discard`, {}),
    rebase: () => api.post<{ draft: Draft }>(`${base}/draft/rebase`, {}),
    publish: (comment: string) => api.post<{ version: Version }>(`${base}/publish`, { comment }),
    /** The versions that changed one scope, newest first, `current` the one in effect in it. */
    versions: (scope: string, signal?: AbortSignal) => api.get<{ items: Version[] }>(`${base}/versions?${query({ scope })}`, { signal }),
    versionDiff: (id: number, scope: string, signal?: AbortSignal) => api.get<{ changes: Change[] }>(`${base}/versions/${id}/diff?${query({ scope })}`, { signal }),
    /** Publishes a scope's version again (0: as in the files), the other scopes staying as published. */
    restore: (id: number, scope: string) => api.post<{ version: Version; message: string }>(`${base}/versions/${id}/restore`, { scope }),
    exportLayer: (source: 'published' | 'draft') => api.get<ExportFile>(`${base}/export?${query({ source })}`),
    importLayer: (file: ExportFile) => api.post<{ draft: Draft }>(`${base}/import`, file),
    /** The meta-schemas by $id (schemas/meta), for the JSON editor. */
    metaSchemas: () => api.get<{ schemas: Record<string, Record<string, unknown>> }>(`${base}/meta-schemas`),
  };
}

export type StudioApi = ReturnType<typeof studioApi>;

/** What a refused studio call means for the studio. */
export type StudioFailure =
  | { kind: 'invalid'; problems: Problem[]; detail?: string }
  | { kind: 'stale'; published: Version | null; changes: Change[]; detail?: string }
  | { kind: 'other'; detail?: string };

export function studioFailure(error: unknown): StudioFailure {
  if (!(error instanceof ApiError)) return { kind: 'other' };
  const body = (error.body ?? {}) as Record<string, any>;
  if (error.status === 409 && body.code === 'CONFIG_STALE') {
    return { kind: 'stale', published: body.published ?? null, changes: Array.isArray(body.changes) ? body.changes : [], detail: body.detail };
  }
  // the body's `problems` are its `errors` with their place in words (scope, path, pointer, where)
  const problems = Array.isArray(body.problems) && body.problems.length ? body.problems : body.errors;
  if (error.status === 400 && Array.isArray(problems) && problems.length > 0) {
    return { kind: 'invalid', problems: problems as Problem[], detail: body.detail };
  }
  return { kind: 'other', detail: body.detail };
}
