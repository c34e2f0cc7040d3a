/**
 * The configuration studio's preview (issue 26): any /app address opened with
 * `?studioPreview=draft|published&studioVariant=<variant>&studioRole=<role>` by a signed-in ADMIN
 * shows the portal with the bundle of GET /api/config-studio/preview (the draft's or the published
 * layer, in that variant) instead of GET /api/ui/config, with the chosen role in every condition
 * (config/useConditionContext.ts) and a banner saying so (shell/PreviewBanner.tsx). Screens know
 * nothing of it: they read the bundle and the condition context as always. Data calls stay the
 * administrator's: the server scopes rows by the real session.
 *
 * The preview lives in the loaded configuration, so in-app navigation keeps it; the frame's
 * session storage (previewKey) keeps it over a reload. Loaded by start-up only
 * when the address or the storage asks for a preview, so the portal's first load does not carry it.
 */
import { api, ApiError } from '../api/client';
import type { Bundle, RoleName } from './bundle';
import type { PreviewState } from './ConfigContext';
import { PreviewBanner } from '../shell/PreviewBanner';
import { sessionAtom } from '../state/session';
import { store } from '../state/store';
/**
 * Where this frame keeps its preview: the same key as start-gate.ts `previewKey` (which the
 * entry needs without loading this module; importing it from there would cut the entry's modules
 * into more chunks), as the unit test checks.
 */
export const previewKey = () => `portal.studioPreview${self === top ? '' : '.frame'}`;

export const PREVIEW_SOURCES = ['draft', 'published'] as const;
/** The query parameters of a preview address. */
export const PREVIEW_PARAMS = ['studioPreview', 'studioVariant', 'studioRole', 'studioVariantName'] as const;

export interface PreviewParams {
  source: (typeof PREVIEW_SOURCES)[number];
  variant: string;
  /** A role the studio offers (its declaration's `roles`, checked once the bundle is in: previewRoleOffered). */
  role: string;
  /** The variant's name as its configuration gives it (the studio passes it along), for the banner. */
  variantName?: string;
}

function valid(value: Partial<Record<keyof PreviewParams, unknown>> | null | undefined): PreviewParams | null {
  if (!value) return null;
  const { source, variant, role, variantName } = value;
  if (!PREVIEW_SOURCES.includes(source as PreviewParams['source'])) return null;
  if (typeof role !== 'string' || !/^[A-Z][A-Z0-9_]{0,31}$/.test(role)) return null;
  if (typeof variant !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(variant)) return null;
  const params = { source, variant, role } as PreviewParams;
  // shown as text only; a name out of measure is left out, not the preview
  if (typeof variantName === 'string' && variantName.trim() && variantName.length <= 100) params.variantName = variantName;
  return params;
}

/**
 * The preview asked for: by the address (it wins: the studio opens a new one), else the one this
 * frame keeps (`stored`), else none. A malformed address asks for no preview.
 */
export function previewParams(search: string, stored: string | null): PreviewParams | null {
  const query = new URLSearchParams(search);
  if (query.has('studioPreview')) {
    return valid({ source: query.get('studioPreview'), variant: query.get('studioVariant') ?? 'default', role: query.get('studioRole'), variantName: query.get('studioVariantName') });
  }
  try {
    return valid(stored ? JSON.parse(stored) : null);
  } catch {
    return null;
  }
}

/** The address of the preview's bundle. */
export const previewBundlePath = ({ variant, source }: PreviewParams) => `/config-studio/preview?${new URLSearchParams({ variant, source })}`;

/**
 * Whether the bundle's studio offers this role to preview (the roles of its `studio` screens,
 * screens/config-studio.json): the roles are the configuration's, never a list in the code.
 */
export function previewRoleOffered(bundle: Bundle, role: string): boolean {
  return Object.values(bundle.screens).some((screen) => {
    const decl = screen as { type?: string; roles?: unknown };
    return decl.type === 'studio' && Array.isArray(decl.roles) && decl.roles.includes(role);
  });
}

/**
 * The preview's bundle as the runtime uses it: without the session gates (terms, first password),
 * which concern the administrator who is signed in, not the role shown.
 */
export function previewBundle(bundle: Bundle): Bundle {
  return { ...bundle, app: { ...bundle.app, sessionGates: [] } };
}

/** The address without the preview's parameters (where "end the preview" goes). */
export function withoutPreview(href: string): string {
  const url = new URL(href);
  for (const name of PREVIEW_PARAMS) url.searchParams.delete(name);
  return url.pathname + url.search + url.hash;
}

export function endPreview(): void {
  sessionStorage.removeItem(previewKey());
  location.replace(withoutPreview(location.href));
}

/**
 * At start-up: the preview's bundle and state, or undefined when no preview applies (nothing asked,
 * no session, a session the studio refuses — who may preview is the server's rule, by the studio's
 * access — or a role the studio does not offer: then the kept one is forgotten). A bundle that
 * cannot be had otherwise leaves the portal's own, with a banner saying why.
 */
export async function startPreview(): Promise<{ bundle?: Bundle; state: PreviewState } | undefined> {
  const key = previewKey();
  const params = previewParams(location.search, sessionStorage.getItem(key));
  const forget = () => {
    sessionStorage.removeItem(key);
    return undefined;
  };
  if (!params || !store.get(sessionAtom)) return forget();
  sessionStorage.setItem(key, JSON.stringify(params));
  try {
    const bundle = await api.get<Bundle>(previewBundlePath(params), { quiet: true });
    if (!previewRoleOffered(bundle, params.role)) return forget();
    const query = `${params.source}:${params.variant}:${params.role}`;
    return { bundle: previewBundle(bundle), state: { role: params.role as RoleName, query, Banner: () => <PreviewBanner {...params} onEnd={endPreview} /> } };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return forget();
    const detail = (error instanceof Error ? error.message : String(error)).replace(/[^.!?]$/, '$&.');
    return { state: { Banner: () => <PreviewBanner {...params} failed={detail} onEnd={endPreview} /> } };
  }
}
