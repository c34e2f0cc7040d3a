/**
 * The configuration studio's API (docs/config-studio-api.md), every call ADMIN-only on the server.
 * The prefix is the studio screen's `endpoint` (screens/config-studio.json). A refused write
 * rejects with the API client's ApiError; `studioFailure` reads what the studio shows of it:
 * the checks' problems (400 CONFIG_INVALID), the other analyst's changes (409 CONFIG_STALE).
 */
import { api, ApiError } from '../../api/client';
import type {
  StudioChanges, StudioCreateRequest, StudioDocument as StudioDocumentAnswer, StudioDocumentsRequest, StudioDraft, StudioFiles, StudioInvalid, StudioOverview, StudioTexts, StudioVersions,
} from '../../../core/generated/api';

export type Json = any;

/*
 * The shapes of the answers come from their schemas (schemas/api/studio-*.schema.json, generated
 * into runtime/core/generated/api.ts by `npm run gen`): the names below only pick their parts.
 */
export type DocumentInfo = StudioOverview['documents'][number];

export type Version = StudioVersions['items'][number];

export type Draft = NonNullable<StudioDraft['draft']>;

/** A change of the draft or of a version, with its place as steps (`at`). */
export type Change = StudioChanges['changes'][number];

/** A step of a changed value's place: a key, or the item of an id-keyed list. */
export type Step = Change['at'][number];

/**
 * A problem of the checks: `field` is `<layer path>#<JSON pointer>`; the rest is given where the
 * server knows it (a 400's `problems`; its plain `errors` carry field and message only).
 */
export type Problem = NonNullable<StudioInvalid['errors']>[number] & Partial<Omit<NonNullable<StudioInvalid['problems']>[number], 'field' | 'message'>>;

/** A namespace of texts, named as the menu names its screens; own: the studio's own texts. */
export type Namespace = StudioOverview['namespaces'][number];

export type Overview = StudioOverview;

export type StudioDocument = StudioDocumentAnswer;

export type TextHit = StudioTexts['items'][number];

/** A document the draft takes (PUT documents). */
export type DocumentChange = StudioDocumentsRequest['changes'][number];

export type ExportFile = StudioFiles;

const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

/** The calls of the contract, under the screen's endpoint. */
export function studioApi(base: string) {
  return {
    overview: (signal?: AbortSignal) => api.get<Overview>(base, { signal }),
    document: (scope: string, path: string, signal?: AbortSignal) => api.get<StudioDocument>(`${base}/document?${query({ scope, path })}`, { signal }),
    saveDocuments: (changes: DocumentChange[]) => api.put<{ draft: Draft }>(`${base}/documents`, { changes }),
    /** A new document (a report) in the draft, with the new texts it names (POST document; 409 when the path is taken). */
    createDocument: (change: StudioCreateRequest) => api.post<{ draft: Draft }>(`${base}/document`, change),
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
