/**
 * The application: start-up behind the blocking loading modal, then the router over the loaded
 * configuration. The overlays (toasts, loading bar, modals, cookie notice) live outside the routes
 * so every page, the login page included, has them; those a first page rarely shows load with
 * their first use (shell/Overlays.tsx, shell/ErrorModal.tsx).
 */
import { useAtomValue } from 'jotai';
import { startTransition, useEffect, useRef, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { ConfigContext, type LoadedConfig } from './config/ConfigContext';
import { i18n } from './config/i18n';
import { startApplication, startsAsVisitor, type Started } from './config/startup';
import type { MenuDecl } from './config/bundle';
import { AppRoutes } from './routing/AppRoutes';
import { screenRegistry } from './screens/registry';
import { ScreenRegistryContext } from './screens/ScreenRegistryContext';
import { CookieNotice } from './shell/CookieNotice';
import { ErrorModal } from './shell/ErrorModal';
import { LoadingBar } from './shell/LoadingBar';
import { LoadingModal } from './shell/LoadingModal';
import { dropFirstPaint, keepFirstPaint } from './shell/first-paint';
import { DEFAULT_MENU_BREAKPOINT } from './shell/menu';
import { GlobalStatementModal, Toasts } from './shell/Overlays';
import { loadSignedInParts } from './shell/signed-in';
import { FIRST_USE_EVENTS, startedByUse } from './start-gate';
import { sessionAtom } from './state/session';
import { showErrorModal } from './state/ui';

type StartupState = { phase: 'loading' } | { phase: 'failed' } | { phase: 'ready'; config: LoadedConfig };

export function App() {
  const [state, setState] = useState<StartupState>({ phase: 'loading' });
  // the sign-in form the server drew into the page (issue 49) stands in for the loading modal until the runtime draws it
  const [firstPaint] = useState(() => keepFirstPaint(startsAsVisitor()));
  // what is left to do once a visitor's first page is drawn (config/startup.ts); taken once
  const visitor = useRef<Started['visitor'] | null>(null);
  const session = useAtomValue(sessionAtom);

  useEffect(() => {
    let cancelled = false;
    const failed = () => {
      if (cancelled) return;
      dropFirstPaint();
      showErrorModal(i18n.t('app:noConnection'), true);
      setState({ phase: 'failed' });
    };
    // a transition: React draws the page in slices of a few milliseconds, leaving the main thread
    // free between them (issue 33: the first page's blocking time), and keeps what is shown until
    // the page's lazy parts are in rather than flashing their fallbacks
    const ready = (config: LoadedConfig) => !cancelled && startTransition(() => setState({ phase: 'ready', config }));
    startApplication()
      .then(({ config, visitor: rest }) => {
        visitor.current = rest ?? null;
        ready(config);
      })
      .catch(failed);
    return () => {
      cancelled = true;
    };
  }, []);

  // a visitor's page is drawn from part of the bundle: once it is on screen (after its frame), the
  // compatibility messages; when the visitor starts signing in (a key, a click, a touch, a field
  // taking the focus), the signed-in pages' code; once signed in, the bundle of his role (issue 47:
  // server/config/role-view.ts), which replaces the part when in
  const startWhole = useRef<(() => void) | null>(null);
  useEffect(() => {
    const rest = visitor.current;
    if (state.phase !== 'ready' || !state.config.partial || !rest) return;
    visitor.current = null;
    requestAnimationFrame(() => setTimeout(rest.notices));
    const start = () => {
      for (const type of FIRST_USE_EVENTS) window.removeEventListener(type, start, true);
      loadSignedInParts();
    };
    startWhole.current = () => {
      startWhole.current = null;
      start();
      rest.loadWhole().then(
        (config) => startTransition(() => setState({ phase: 'ready', config })),
        () => {
          showErrorModal(i18n.t('app:noConnection'), true);
          setState({ phase: 'failed' });
        },
      );
    };
    // the runtime started on his first use of the served page (start-gate.ts): he has started already
    if (startedByUse()) start();
    else for (const type of FIRST_USE_EVENTS) window.addEventListener(type, start, { capture: true, passive: true });
  }, [state]);

  // signed in: his pages wait for his role's bundle behind the loading modal
  const waitingForWhole = state.phase === 'ready' && state.config.partial === true && session !== null;
  useEffect(() => {
    if (waitingForWhole) startWhole.current?.();
  }, [waitingForWhole]);

  const breakpoint = state.phase === 'ready' ? ((state.config.bundle.screens.menu as MenuDecl | undefined)?.breakpoint ?? DEFAULT_MENU_BREAKPOINT) : DEFAULT_MENU_BREAKPOINT;

  return (
    <>
      <LoadingBar />
      {state.phase === 'ready' && (
        <ConfigContext.Provider value={state.config}>
          {!waitingForWhole && (
            <ScreenRegistryContext.Provider value={screenRegistry}>
              <BrowserRouter>
                <AppRoutes />
              </BrowserRouter>
            </ScreenRegistryContext.Provider>
          )}
          <CookieNotice />
          <GlobalStatementModal />
        </ConfigContext.Provider>
      )}
      <LoadingModal show={(state.phase === 'loading' && !firstPaint) || waitingForWhole} />
      <ErrorModal />
      <Toasts breakpoint={breakpoint} />
    </>
  );
}
