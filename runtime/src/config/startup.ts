/**
 * Start-up (spec §4 "Session"): pre-configuration, then the configuration bundle, then the texts.
 * A 401 on the pre-configuration signs out (a stale token was sent) and tries once more without
 * it; any other failure is the caller's to show as the blocking 'Brak połączenia z serwerem'.
 */
import { api, ApiError, configureSigning } from '../api/client';
import { showErrorModal, showToast } from '../state/ui';
import { applyBranding } from './branding';
import { makeLoadedConfig, type LoadedConfig } from './ConfigContext';
import { configureFormats } from '../format';
import { applyBundleLocales, i18n } from './i18n';
import type { Bundle, CompatibilityMessage, PreConfig } from './bundle';

/** Keys of the non-blocking compatibility warnings already shown (spec §4 "Initialization errors"). */
export const SHOWN_WARNINGS_KEY = 'portal.initWarningsShown';

async function loadPreConfig(): Promise<PreConfig> {
  try {
    return await api.get<PreConfig>('/init/pre-config', { quiet: true });
  } catch (e) {
    // the client has cleared the session on this 401; the retry goes without the stale token
    if (e instanceof ApiError && e.status === 401) return api.get<PreConfig>('/init/pre-config', { quiet: true });
    throw e;
  }
}

/** The message of a compatibility item: a text key or a text, with REQUIRED and CURRENT filled in. */
export function compatibilityText(item: CompatibilityMessage): string {
  const text = i18n.t(item.initError, { defaultValue: item.initError, REQUIRED: item.required ?? '', CURRENT: item.current ?? '' });
  return text.replaceAll('REQUIRED', item.required ?? '').replaceAll('CURRENT', item.current ?? '');
}

function readShown(): string[] {
  try {
    return JSON.parse(localStorage.getItem(SHOWN_WARNINGS_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

/** Blocking items are always shown; a warning only the first time. */
function showCompatibility(items: CompatibilityMessage[]): void {
  const shown = new Set(readShown());
  for (const item of items) {
    if (item.initializationBlocking) showErrorModal(compatibilityText(item), true);
    else if (!shown.has(item.initError)) {
      showToast('warning', compatibilityText(item));
      shown.add(item.initError);
    }
  }
  try {
    localStorage.setItem(SHOWN_WARNINGS_KEY, JSON.stringify([...shown]));
  } catch {
    // without storage a warning is shown again next time, which is harmless
  }
}

/**
 * Where this frame keeps the studio preview it shows (config/preview.tsx), so that a reload keeps
 * it: a frame's own key, as the studio's preview frame shares the tab's session storage with the studio.
 */
export const previewKey = () => `portal.studioPreview${self === top ? '' : '.frame'}`;

export async function startApplication(): Promise<LoadedConfig> {
  const preConfig = await loadPreConfig();
  configureSigning(preConfig.name);
  document.title = preConfig.loginAppName;
  // a studio preview brings the bundle of its draft (config/preview.tsx, loaded only then)
  const preview = /[?&]studioPreview=/.test(location.search) || sessionStorage.getItem(previewKey()) ? await (await import('./preview')).startPreview() : undefined;
  let etag: string | null = null;
  const bundle = preview?.bundle ?? (await api.get<Bundle>('/ui/config', { quiet: true, onHeaders: (h) => (etag = h.get('etag')) }));
  const branding = applyBundle(bundle);
  showCompatibility(preConfig.compatibility ?? []);
  return makeLoadedConfig(preConfig, bundle, await branding, { etag, preview: preview?.state });
}

/** A bundle's texts and formats applied at once, then its branding (start-up; a newer bundle: config/bundle-refresh.ts). */
export function applyBundle(bundle: Bundle) {
  applyBundleLocales(bundle);
  // every date and number is shown in the configured locale and time zone (screens/app.json config)
  configureFormats(bundle.config);
  // the client variant's colours, favicon and logo (docs/variants.md)
  return applyBranding(bundle);
}
