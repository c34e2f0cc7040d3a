/**
 * The application: start-up behind the blocking loading modal, then the router over the loaded
 * configuration. The overlays (toasts, loading bar, modals, cookie notice) live outside the routes
 * so every page, the login page included, has them.
 */
import { useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router';
import { ConfigContext, type LoadedConfig } from './config/ConfigContext';
import { i18n } from './config/i18n';
import { startApplication } from './config/startup';
import type { MenuDecl } from './config/bundle';
import { AppRoutes } from './routing/AppRoutes';
import { screenRegistry } from './screens/registry';
import { ScreenRegistryContext } from './screens/ScreenRegistryContext';
import { CookieNotice } from './shell/CookieNotice';
import { ErrorModal } from './shell/ErrorModal';
import { LoadingBar } from './shell/LoadingBar';
import { LoadingModal } from './shell/LoadingModal';
import { DEFAULT_MENU_BREAKPOINT } from './shell/menu';
import { GlobalStatementModal } from './shell/StatementModal';
import { Toasts } from './shell/Toasts';
import { showErrorModal } from './state/ui';

type StartupState = { phase: 'loading' } | { phase: 'failed' } | { phase: 'ready'; config: LoadedConfig };

export function App() {
  const [state, setState] = useState<StartupState>({ phase: 'loading' });

  useEffect(() => {
    let cancelled = false;
    startApplication()
      .then((config) => !cancelled && setState({ phase: 'ready', config }))
      .catch(() => {
        if (cancelled) return;
        showErrorModal(i18n.t('app:noConnection'), true);
        setState({ phase: 'failed' });
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const breakpoint = state.phase === 'ready' ? ((state.config.bundle.screens.menu as MenuDecl | undefined)?.breakpoint ?? DEFAULT_MENU_BREAKPOINT) : DEFAULT_MENU_BREAKPOINT;

  return (
    <>
      <LoadingBar />
      {state.phase === 'ready' && (
        <ConfigContext.Provider value={state.config}>
          <ScreenRegistryContext.Provider value={screenRegistry}>
            <BrowserRouter>
              <AppRoutes />
            </BrowserRouter>
          </ScreenRegistryContext.Provider>
          <CookieNotice />
          <GlobalStatementModal />
        </ConfigContext.Provider>
      )}
      <LoadingModal show={state.phase === 'loading'} />
      <ErrorModal />
      <Toasts breakpoint={breakpoint} />
    </>
  );
}
