/**
 * Start-up (spec §4 "Session"): pre-configuration, then the configuration bundle, then the texts.
 * A 401 on the pre-configuration signs out (a stale token was sent) and tries once more without
 * it; any other failure is the caller's to show as the blocking 'Brak połączenia z serwerem'.
 * A visitor (no session) is shown the sign-in form as soon as the pre-configuration is in — it
 * is in the page itself when the server wrote it there — from its `guest` part of the bundle
 * (issue 33); once signed in, the part of his role follows (issue 47: server/config/role-view.ts).
 */
import { api, ApiError, configureSigning } from '../api/client';
import { screenRegistry } from '../screens/registry';
import { loadSignedInParts } from '../shell/signed-in';
import { isPreviewing } from '../start-gate';
import { currentToken, sessionAtom } from '../state/session';
import { store } from '../state/store';
import { showErrorModal, showToast } from '../state/ui';
import { applyBranding } from './branding';
import { makeLoadedConfig, type LoadedConfig } from './ConfigContext';
import { configureFormats } from '../format-settings';
import { applyBundleLocales, i18n } from './i18n';
import type { Bundle, CompatibilityMessage, PreConfig } from './bundle';

/** Keys of the non-blocking compatibility warnings already shown (spec §4 "Initialization errors"). */
export const SHOWN_WARNINGS_KEY = 'portal.initWarningsShown';

/**
 * The pre-configuration the server wrote into the page (plugins/delivery.ts): a visitor's start-up
 * takes it from there rather than asking (issue 33). A start-up with a session asks, with its
 * token: its variant may be its client's.
 */
function preConfigInPage(): PreConfig | null {
  const text = document.getElementById('pre-config')?.textContent;
  if (!text || currentToken()) return null;
  try {
    return JSON.parse(text) as PreConfig;
  } catch {
    return null;
  }
}

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

/** Whether start-up will draw a visitor's first page (the sign-in form) rather than a signed-in user's or a studio preview. */
export const startsAsVisitor = () => !currentToken() && !isPreviewing();

/**
 * What start-up gives the application: the configuration to draw the first page from and, when
 * that is a visitor's part of the bundle (`config.partial`), the rest: the compatibility messages
 * to show once that page is drawn, and the bundle to load once signed in — what the sign-in form
 * does not need does not share the network and the processor with it (issue 33), and it is the
 * part of the signed-in user's role (issue 47), which only his session can ask for.
 */
export interface Started {
  config: LoadedConfig;
  visitor?: { notices(): void; loadWhole(): Promise<LoadedConfig> };
}

export async function startApplication(): Promise<Started> {
  // what the first page will need is asked for at once, side by side: the pre-configuration (when
  // the page does not carry it), for a visitor the sign-in form's code, for a signed-in user the
  // bundle and the shell's code (issue 33: they were asked one after another)
  const previewing = isPreviewing();
  const visitor = !currentToken() && !previewing;
  if (!visitor) loadSignedInParts();
  else for (const type of screenRegistry.values()) if (type.guestFirst) type.load?.().catch(() => undefined);
  // what the first page reads is worked out by a module of its own, asked for beside the bundle (askFirstPage)
  const firstReads = !visitor && !previewing ? import('../routing/first-reads') : undefined;
  let etag: string | null = null;
  const askBundle = () => api.get<Bundle>('/ui/config', { quiet: true, onHeaders: (h) => (etag = h.get('etag')) });
  const inPage = preConfigInPage();
  const bundleCall = previewing || (visitor && inPage?.guest) ? undefined : askBundle();
  // answered or not, the bundle call must not be left rejected unheard while the pre-configuration fails
  bundleCall?.catch(() => undefined);
  const preConfig = inPage ?? (await loadPreConfig());
  configureSigning(preConfig.name);
  document.title = preConfig.loginAppName;

  // a visitor: the sign-in form is drawn from the pre-configuration's part of the bundle, as soon
  // as it is in; his role's part follows his sign-in (App.tsx)
  const guest = preConfig.guest as Bundle | undefined;
  if (guest && visitor && !currentToken()) {
    const branding = await applyBundle(guest);
    const loadWhole = async () => {
      const firstPage = import('../routing/first-reads');
      const bundle = await (bundleCall ?? askBundle());
      const whole = makeLoadedConfig(preConfig, bundle, branding, { etag });
      await askFirstPage(firstPage, whole);
      // the same look (the same bundle, as a rule): its logo is not fetched again
      if (JSON.stringify(bundle.app.branding) !== JSON.stringify(guest.app.branding)) return { ...whole, branding: await applyBundle(bundle) };
      applyBundleLocales(bundle);
      configureFormats(bundle.config);
      return whole;
    };
    const notices = () => showCompatibility(preConfig.compatibility ?? []);
    return { config: makeLoadedConfig(preConfig, guest, branding, { etag: null, partial: true }), visitor: { notices, loadWhole } };
  }

  // a studio preview brings the bundle of its draft (config/preview.tsx, loaded only then)
  const preview = previewing ? await (await import('./preview')).startPreview() : undefined;
  const bundle = preview?.bundle ?? (await (bundleCall ?? askBundle()));
  const config = makeLoadedConfig(preConfig, bundle, {}, { etag, preview: preview?.state });
  if (firstReads) await askFirstPage(firstReads, config);
  const branding = applyBundle(bundle);
  showCompatibility(preConfig.compatibility ?? []);
  return { config: { ...config, branding: await branding } };
}

/**
 * The first page's data and code asked for as soon as the bundle is in — at a start-up with a
 * session, and as a visitor signs in — before its texts are taken in and not after the page's code
 * has come and drawn it (issue 47, routing/first-reads.ts). Settled once they are asked: the page
 * is drawn only then, or a screen or gate drawn while the module that asks was still on its way
 * (it is asked beside the bundle, and may come after it) would ask for the same data itself, and
 * the answer asked ahead would go unused (a CI run saw /api/terms/status asked twice at sign-in).
 * A module that failed to come leaves the screens to ask for themselves, as before.
 */
async function askFirstPage(firstPage: Promise<typeof import('../routing/first-reads')>, { bundle, conditions }: LoadedConfig): Promise<void> {
  const session = store.get(sessionAtom);
  if (!session) return;
  const module = await firstPage.catch(() => undefined);
  module?.askFirstReads(bundle, conditions, session, location.pathname);
}

/** A bundle's texts and formats applied at once, then its branding (start-up; a newer bundle: config/bundle-refresh.ts). */
export function applyBundle(bundle: Bundle) {
  applyBundleLocales(bundle);
  // every date and number is shown in the configured locale and time zone (screens/app.json config)
  configureFormats(bundle.config);
  // the client variant's colours, favicon and logo (docs/variants.md)
  return applyBranding(bundle);
}
