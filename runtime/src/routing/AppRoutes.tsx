/**
 * The router of the route table (screens/routes.json). Every path goes through resolveRoute(), so
 * the route file alone decides what a path shows; react-router provides history and links. A
 * modal route renders over the page it was opened from (the "background" location), or over the
 * landing page when opened directly.
 *
 * The loaded configuration is provided again here, so that a bundle published since start-up
 * replaces it at a navigation (config/bundle-refresh.ts, loaded lazily); a studio preview's banner
 * (config/preview.tsx) is shown over every page. The signed-in shell and the modal of a modal route
 * are chunks of their own: the login page needs neither (issue 33).
 */
import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../config/texts';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ConfigContext, useConfig } from '../config/ConfigContext';
import { useConditionContext } from '../config/useConditionContext';
import { Loading } from '../screens/Loading';
import { ScreenView } from '../screens/ScreenView';
import { PublicLayout } from '../shell/PublicLayout';
import { sessionAtom, sessionRevisionAtom } from '../state/session';
import { landingPath, resolveRoute, type RouteDecision } from './resolve';
import { useRoutesDecl, type RouteState } from './useNavigateTo';

const Shell = lazy(() => import('../shell/Shell').then((m) => ({ default: m.Shell })));
const RouteModal = lazy(() => import('./RouteModal').then((m) => ({ default: m.RouteModal })));
// pages a visitor's first page does not show: no access, not found, signing out
const RouteMessage = lazy(() => import('./RouteMessage').then((m) => ({ default: m.RouteMessage })));
const SignOut = lazy(() => import('./SignOut').then((m) => ({ default: m.SignOut })));

function usePageTitle(decision: RouteDecision) {
  const { t } = useTranslation();
  const { preConfig } = useConfig();
  const routeTitle = 'route' in decision && decision.route.title ? t(decision.route.title) : null;
  useEffect(() => {
    document.title = routeTitle ? `${routeTitle} – ${preConfig.loginAppName}` : preConfig.loginAppName;
  }, [routeTitle, preConfig.loginAppName]);
}

function PageContent({ decision }: { decision: RouteDecision }) {
  const revision = useAtomValue(sessionRevisionAtom);
  switch (decision.kind) {
    case 'screen': {
      // keyed: another screen of the same type must mount afresh (a grid reads its saved state on
      // mount), and so must the same screen when the session's user changed (another vehicle)
      const main = <ScreenView key={`${decision.screenId}#${revision}`} screenId={decision.screenId} presentation="page" />;
      if (!decision.before && !decision.after) return main;
      // screens the route shows beside its own (a strip of reminders above a table, a to-do list with the vehicle's panels)
      const beside = (ids: string[] | undefined, place: string) =>
        (ids ?? []).map((id) => (
          <div key={`${place}:${id}#${revision}`} className={`route-beside route-beside--${place}`}>
            <ScreenView screenId={id} presentation="embedded" />
          </div>
        ));
      return (
        <>
          {beside(decision.before, 'before')}
          {main}
          {beside(decision.after, 'after')}
        </>
      );
    }
    case 'noAccess':
      return (
        <Suspense fallback={<Loading />}>
          <RouteMessage textKey="app:noAccess" />
        </Suspense>
      );
    case 'notFound':
      return (
        <Suspense fallback={<Loading />}>
          <RouteMessage textKey="app:notFound" variant="secondary" />
        </Suspense>
      );
    default:
      return null;
  }
}

export function AppRoutes() {
  const started = useConfig();
  const [config, setConfig] = useState(started);
  // start-up's next configuration (the whole bundle after a visitor's part of it) replaces the one in use
  const [startedWith, setStartedWith] = useState(started);
  if (startedWith !== started) {
    setStartedWith(started);
    setConfig(started);
  }
  const { pathname } = useLocation();
  // a bundle without an ETag (a visitor's part, a preview) is never asked for again
  useEffect(() => void (config.etag && import('../config/bundle-refresh').then((m) => m.onNavigation(config, setConfig))), [pathname]);
  const Banner = config.preview?.Banner;
  return (
    <ConfigContext.Provider value={config}>
      {Banner && <Banner />}
      <Routed />
    </ConfigContext.Provider>
  );
}

function Routed() {
  const location = useLocation();
  const navigate = useNavigate();
  const routes = useRoutesDecl();
  const { conditions } = useConfig();
  const session = useAtomValue(sessionAtom);
  const ctx = useConditionContext();
  const resolve = (pathname: string) => resolveRoute(routes, pathname, session !== null, conditions, ctx);
  const landing = landingPath(routes, conditions, ctx);

  const current = resolve(location.pathname);
  usePageTitle(current);

  if (current.kind === 'redirect') return <Navigate to={current.to} replace />;
  if (current.kind === 'signOut') {
    return (
      <Suspense fallback={<Loading />}>
        <SignOut />
      </Suspense>
    );
  }

  const layout = (decision: RouteDecision, pagePath: string) => {
    const content = <PageContent decision={decision} />;
    const isPublicScreen = decision.kind === 'screen' && decision.route.public;
    const help = decision.kind === 'screen' && decision.help ? { text: decision.help, title: decision.route.title } : undefined;
    return session && !isPublicScreen ? (
      <Suspense fallback={<Loading />}>
        <Shell pagePath={pagePath} help={help}>
          {content}
        </Shell>
      </Suspense>
    ) : (
      <PublicLayout>{content}</PublicLayout>
    );
  };

  // The same element structure whether or not a modal is open, so opening one over a page does
  // not remount (and reload) the page beneath it.
  let page: RouteDecision = current;
  let pagePath = location.pathname;
  let modal: ReactNode = null;
  if (current.kind === 'screen' && current.route.modal) {
    const background = (location.state as RouteState | null)?.background;
    const underneath = background ? resolve(background.pathname) : null;
    const usable = underneath !== null && underneath.kind !== 'redirect' && !(underneath.kind === 'screen' && underneath.route.modal);
    pagePath = usable ? background!.pathname : landing;
    page = usable ? underneath : resolve(landing);
    // back to the page it was opened from; opened directly (no history of ours) → the landing page
    const close = () => (background ? navigate(-1) : navigate(landing, { replace: true }));
    modal = (
      <Suspense fallback={null}>
        <RouteModal route={current.route} screenId={current.screenId} onClose={close} />
      </Suspense>
    );
  }
  return (
    <>
      {layout(page, pagePath)}
      {modal}
    </>
  );
}
