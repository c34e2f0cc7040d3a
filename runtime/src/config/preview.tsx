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
import { api } from '../api/client';
import type { Bundle, RoleName } from './bundle';
import type { PreviewState } from './ConfigContext';
import { PreviewBanner } from '../shell/PreviewBanner';
import { sessionAtom } from '../state/session';
import { store } from '../state/store';
/**
 * Where this frame keeps its preview: the same key as config/startup.ts `previewKey` (which the
 * entry needs without loading this module; importing it from there would cut the entry's modules
 * into more chunks), as the unit test checks.
 */
export const previewKey = () => `portal.studioPreview${self === top ? '' : '.frame'}`;

export const PREVIEW_SOURCES = ['draft', 'published'] as const;
export const PREVIEW_ROLES = ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] as const;
/** The query parameters of a preview address. */
export const PREVIEW_PARAMS = ['studioPreview', 'studioVariant', 'studioRole'] as const;

export interface PreviewParams {
  source: (typeof PREVIEW_SOURCES)[number];
  variant: string;
  role: (typeof PREVIEW_ROLES)[number];
}

function valid(value: Partial<Record<keyof PreviewParams, unknown>> | null | undefined): PreviewParams | null {
  if (!value) return null;
  const { source, variant, role } = value;
  if (!PREVIEW_SOURCES.includes(source as PreviewParams['source'])) return null;
  if (!PREVIEW_ROLES.includes(role as PreviewParams['role'])) return null;
  if (typeof variant !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(variant)) return null;
  return { source, variant, role } as PreviewParams;
}

/**
 * The preview asked for: by the address (it wins: the studio opens a new one), else the one this
 * frame keeps (`stored`), else none. A malformed address asks for no preview.
 */
export function previewParams(search: string, stored: string | null): PreviewParams | null {
  const query = new URLSearchParams(search);
  if (query.has('studioPreview')) {
    return valid({ source: query.get('studioPreview'), variant: query.get('studioVariant') ?? 'default', role: query.get('studioRole') });
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
 * or not an administrator's session: then the kept one is forgotten). A bundle that cannot be had
 * leaves the portal's own, with a banner saying why.
 */
export async function startPreview(): Promise<{ bundle?: Bundle; state: PreviewState } | undefined> {
  const key = previewKey();
  const params = previewParams(location.search, sessionStorage.getItem(key));
  if (!params || store.get(sessionAtom)?.user.rola !== 'ADMIN') {
    sessionStorage.removeItem(key);
    return undefined;
  }
  sessionStorage.setItem(key, JSON.stringify(params));
  try {
    const bundle = await api.get<Bundle>(previewBundlePath(params), { quiet: true });
    return { bundle: previewBundle(bundle), state: { role: params.role as RoleName, Banner: () => <PreviewBanner {...params} onEnd={endPreview} /> } };
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error)).replace(/[^.!?]$/, '$&.');
    return { state: { Banner: () => <PreviewBanner {...params} failed={detail} onEnd={endPreview} /> } };
  }
}
