/**
 * The router of the route table (screens/routes.json). Every path goes through resolveRoute(), so
 * the route file alone decides what a path shows; react-router provides history and links. A
 * modal route renders over the page it was opened from (the "background" location), or over the
 * landing page when opened directly.
 *
 * The loaded configuration is provided again here, so that a bundle published since start-up
 * replaces it at a navigation (config/bundle-refresh.ts, loaded lazily); a studio preview's banner
 * (config/preview.tsx) is shown over every page.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ConfigContext, useConfig } from '../config/ConfigContext';
import { useConditionContext } from '../config/useConditionContext';
import { ScreenView } from '../screens/ScreenView';
import { PublicLayout, Shell } from '../shell/Shell';
import { sessionAtom, sessionRevisionAtom } from '../state/session';
import { landingPath, resolveRoute, type RouteDecision } from './resolve';
import { RouteMessage } from './RouteMessage';
import { RouteModal } from './RouteModal';
import { SignOut } from './SignOut';
import { useRoutesDecl, type RouteState } from './useNavigateTo';

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
      return <RouteMessage textKey="app:noAccess" />;
    case 'notFound':
      return <RouteMessage textKey="app:notFound" variant="secondary" />;
    default:
      return null;
  }
}

export function AppRoutes() {
  const [config, setConfig] = useState(useConfig());
  const { pathname } = useLocation();
  useEffect(() => void import('../config/bundle-refresh').then((m) => m.onNavigation(config, setConfig)), [pathname]);
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
  if (current.kind === 'signOut') return <SignOut />;

  const layout = (decision: RouteDecision, pagePath: string) => {
    const content = <PageContent decision={decision} />;
    const isPublicScreen = decision.kind === 'screen' && decision.route.public;
    const help = decision.kind === 'screen' && decision.route.help ? { text: decision.route.help, title: decision.route.title } : undefined;
    return session && !isPublicScreen ? (
      <Shell pagePath={pagePath} help={help}>
        {content}
      </Shell>
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
    modal = <RouteModal route={current.route} screenId={current.screenId} onClose={close} />;
  }
  return (
    <>
      {layout(page, pagePath)}
      {modal}
    </>
  );
}
