// the signed-in pages' glyphs: the stylesheet comes with the shell, before it is drawn (icon-font.ts)
import 'bootstrap-icons/font/bootstrap-icons.css';
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from '../config/texts';
import { useConfig } from '../config/ConfigContext';
import type { MenuDecl } from '../config/bundle';
import { useLanding } from '../routing/useNavigateTo';
import { sessionAtom } from '../state/session';
import { Footer } from './Footer';
import { lazyPart } from './lazy-part';
import { SessionGates } from './SessionGates';
import { DEFAULT_MENU_BREAKPOINT, DEFAULT_MENU_WIDTH } from './menu';
import { MAIN_ID } from './PublicLayout';
import { SideMenu } from './SideMenu';
import { TopBar, type PageHelp } from './TopBar';
import { useIsWide } from './useMediaQuery';

/** The phone's notices (issue 47: a new version, no network, the outbox), with the offline code they show. */
const PhoneStatus = lazyPart<object>(() => import('../pwa/PhoneStatus').then((m) => ({ default: m.PhoneStatus })));

/** The signed-in layout: top bar, side menu, the page, footer (a chunk the login page does not load: AppRoutes.tsx). */
export function Shell({ children, pagePath, help }: { children: ReactNode; pagePath: string; help?: PageHelp }) {
  const { t } = useTranslation();
  const { bundle } = useConfig();
  const session = useAtomValue(sessionAtom);
  const menu = bundle.screens.menu as MenuDecl;
  const landing = useLanding();
  const breakpoint = menu.breakpoint ?? DEFAULT_MENU_BREAKPOINT;
  const wide = useIsWide(breakpoint);
  // open by default on wide windows; the offcanvas of narrow windows starts closed
  const [wideOpen, setWideOpen] = useState(true);
  const [narrowOpen, setNarrowOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const previousPath = useRef(pagePath);

  // after navigating to another page (not when a modal opens over it), move focus to the page so
  // keyboard and screen-reader users start there
  useEffect(() => {
    if (pagePath === previousPath.current) return;
    previousPath.current = pagePath;
    window.scrollTo(0, 0);
    mainRef.current?.focus({ preventScroll: true });
  }, [pagePath]);

  // a push subscription the browser replaced reaches the server again (pwa/push-renewal.ts)
  useEffect(() => {
    void import('../pwa/push-renewal').then((m) => m.startPushRenewal(), () => undefined);
  }, []);

  if (!session) return null;
  const style = { '--menu-width': `${menu.width ?? DEFAULT_MENU_WIDTH}px` } as CSSProperties;
  return (
    <div className="app-shell" style={style}>
      <a className="visually-hidden-focusable skip-link" href={`#${MAIN_ID}`}>
        {t('app:skipToContent')}
      </a>
      <TopBar
        session={session}
        landing={landing}
        help={help}
        menuOpen={wide ? wideOpen : narrowOpen}
        onToggleMenu={() => (wide ? setWideOpen((o) => !o) : setNarrowOpen((o) => !o))}
      />
      <div className="app-body">
        <SideMenu wide={wide} open={wide ? wideOpen : narrowOpen} onClose={() => setNarrowOpen(false)} />
        <main id={MAIN_ID} className="app-main" ref={mainRef} tabIndex={-1}>
          <PhoneStatus />
          <SessionGates>{children}</SessionGates>
        </main>
      </div>
      <Footer />
    </div>
  );
}
