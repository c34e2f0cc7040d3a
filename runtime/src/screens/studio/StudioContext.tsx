/**
 * The studio's shared state: the declaration (screens/config-studio.json), the API, the overview
 * (scopes, documents, published version, draft), the chosen scope, the problems of the last
 * refused write and a conflict with another analyst's publication. Every write goes through
 * `write`, which shows what the server said (a toast, the problems beside their fields, the other's
 * changes) and, when it succeeded, reads the overview and the open documents again.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from '../../config/texts';
import type { StudioFile } from '../../../core/generated/meta';
import { showToast } from '../../state/ui';
import { studioApi, studioFailure, type Change, type DocumentInfo, type Overview, type Problem, type StudioApi, type StudioDocument, type Version } from './studio-api';

export type StudioDecl = StudioFile;

export interface Conflict {
  published: Version | null;
  changes: Change[];
}

export interface StudioState {
  screen: StudioDecl;
  screenId: string;
  api: StudioApi;
  overview: Overview | null;
  overviewError: unknown;
  /** The scope being edited: remembered between visits (this browser), the base portal at first. */
  scope: string;
  setScope(scope: string): void;
  /** A scope's name: "Portal bazowy", a variant by the name its configuration gives it. */
  scopeLabel(scope: string): string;
  /** Bumped after every write that succeeded: the tabs read their documents again. */
  revision: number;
  /** The problems of the last write the checks refused. */
  problems: Problem[];
  /** The document whose problems are listed (for the words of its pointers). */
  conflict: Conflict | null;
  clearConflict(): void;
  /** Runs a write; its answer, or undefined when it was refused (what was wrong is shown). */
  write<T>(call: () => Promise<T>, success?: string): Promise<T | undefined>;
  reload(): void;
  /** The tab shown (the status bar's Podgląd opens the preview tab). */
  tab: string;
  setTab(tab: string): void;
}

const StudioContext = createContext<StudioState | null>(null);

export function useStudio(): StudioState {
  const value = useContext(StudioContext);
  if (!value) throw new Error('useStudio() outside the studio');
  return value;
}

/** Where the browser keeps the scope last edited in a studio screen. */
const scopeKey = (screenId: string) => `portal.studio.${screenId}.scope`;
function keptScope(screenId: string): string {
  try {
    return localStorage.getItem(scopeKey(screenId)) || 'base';
  } catch {
    return 'base';
  }
}

export function StudioProvider({ screen, screenId, children }: { screen: StudioDecl; screenId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const api = useMemo(() => studioApi(screen.endpoint), [screen.endpoint]);
  const [overview, setOverview] = useState<Overview | null>(null);
  const [overviewError, setOverviewError] = useState<unknown>(null);
  const [scope, setScopeState] = useState(() => keptScope(screenId));
  const [revision, setRevision] = useState(0);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [tab, setTab] = useState(screen.tabs[0]?.id ?? '');
  const [overviewVersion, setOverviewVersion] = useState(0);
  const mounted = useRef(true);
  useEffect(() => () => void (mounted.current = false), []);

  useEffect(() => {
    const controller = new AbortController();
    api.overview(controller.signal).then(
      (answer) => {
        setOverview(answer);
        setOverviewError(null);
      },
      (error) => !controller.signal.aborted && setOverviewError(error),
    );
    return () => controller.abort();
  }, [api, overviewVersion, revision]);

  const reload = useCallback(() => setOverviewVersion((v) => v + 1), []);

  const write = useCallback(
    async <T,>(call: () => Promise<T>, success?: string): Promise<T | undefined> => {
      setProblems([]);
      try {
        const answer = await call();
        if (!mounted.current) return answer;
        setConflict(null);
        setRevision((r) => r + 1);
        if (success) showToast('success', success, 'config-studio');
        return answer;
      } catch (error) {
        if (!mounted.current) return undefined;
        const failure = studioFailure(error);
        if (failure.kind === 'invalid') {
          setProblems(failure.problems);
          showToast('error', t('config-studio:problems.refused', { count: failure.problems.length }), 'config-studio');
        } else if (failure.kind === 'stale') {
          setConflict({ published: failure.published, changes: failure.changes });
          showToast('warning', t('config-studio:stale.refused'), 'config-studio');
          reload();
        } else {
          showToast('error', failure.detail ?? t('config-studio:failed'), 'config-studio');
        }
        return undefined;
      }
    },
    [t, reload],
  );

  const setScope = useCallback((next: string) => {
    setScopeState(next);
    setProblems([]);
    try {
      localStorage.setItem(scopeKey(screenId), next);
    } catch {
      // a browser that keeps nothing starts at the base portal next time
    }
  }, [screenId]);
  // a kept scope the portal no longer has (a variant removed) gives way to the base portal
  useEffect(() => {
    if (overview && !overview.scopes.includes(scope)) setScopeState('base');
  }, [overview, scope]);
  const scopeLabel = useCallback(
    (s: string) => overview?.scopeNames?.[s] ?? (s === 'base' ? t('config-studio:scope.base') : s),
    [overview, t],
  );

  const value: StudioState = {
    screen, screenId, api, overview, overviewError, scope, setScope, scopeLabel, revision, problems,
    conflict, clearConflict: () => setConflict(null), write, reload, tab, setTab,
  };
  return <StudioContext.Provider value={value}>{children}</StudioContext.Provider>;
}

export interface LoadedDocument {
  doc: StudioDocument | null;
  loading: boolean;
  error: unknown;
}

/** A document of the chosen scope (null path: none), read again after every write. */
export function useStudioDocument(path: string | null | undefined): LoadedDocument {
  const { api, scope, revision } = useStudio();
  const [state, setState] = useState<LoadedDocument>({ doc: null, loading: Boolean(path), error: null });
  useEffect(() => {
    if (!path) {
      setState({ doc: null, loading: false, error: null });
      return;
    }
    const controller = new AbortController();
    setState((s) => ({ doc: s.doc && s.doc.path === path && s.doc.scope === scope ? s.doc : null, loading: true, error: null }));
    api.document(scope, path, controller.signal).then(
      (doc) => setState({ doc, loading: false, error: null }),
      (error) => !controller.signal.aborted && setState({ doc: null, loading: false, error }),
    );
    return () => controller.abort();
  }, [api, scope, path, revision]);
  return state;
}

/** Whether the caller's draft changes the document of this layer path. */
export function useInDraft(): (layerPath: string | undefined) => boolean {
  const { overview } = useStudio();
  return (layerPath) => Boolean(layerPath && overview?.draft?.paths.includes(layerPath));
}

/** The documents of the overview whose screen type is one of `types`. */
export function screensOfTypes(documents: DocumentInfo[] | undefined, types: readonly string[]): DocumentInfo[] {
  return (documents ?? []).filter((d) => d.kind === 'screen' && d.type !== undefined && types.includes(d.type));
}
