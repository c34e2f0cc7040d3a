import infoCircle from 'bootstrap-icons/icons/info-circle.svg?raw';
import { useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../config/texts';
import { firstPaintShown, onFirstPaintGone, servedNoticeOnly, takeServedNotice } from './first-paint';
import { CookieNoticeView } from './PublicFrame';
import { ShellIcon } from './ShellIcon';

/**
 * The acknowledgement, kept a year in a cookie: the server leaves the notice out of the page it
 * draws (server/init/first-paint.ts) and the runtime out of its own. (Until 5 December 2026 it was
 * kept in localStorage too; an acknowledgement kept there alone is asked for once more: the login
 * page's bytes went to signing in without drawing the portal first, LoginScreen.tsx.)
 */
export const COOKIES_ACCEPTED_COOKIE = 'portal.cookies';

const accepted = () => document.cookie.includes(`${COOKIES_ACCEPTED_COOKIE}=1`);

/**
 * The cookie notice: a banner at the bottom until the user acknowledges it (remembered in a
 * cookie). Bootstrap's button markup without react-bootstrap: the login page
 * shows it. While the page the server drew is shown, its notice stands for this one.
 */
export function CookieNotice() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(() => !accepted());
  const served = useSyncExternalStore(onFirstPaintGone, firstPaintShown);
  // the served page may be this notice alone (a signed-in page's first visit): this one is drawn
  // in its place, which goes in the same frame; a press on it meanwhile is this one's
  const inPlaceOfServed = served && servedNoticeOnly();
  const accept = () => {
    // (where cookies are refused, the notice is hidden for this page view only)
    document.cookie = `${COOKIES_ACCEPTED_COOKIE}=1; path=/; max-age=31536000; SameSite=Lax`;
    setVisible(false);
  };
  useLayoutEffect(() => {
    if (inPlaceOfServed && takeServedNotice()) accept();
  }, [inPlaceOfServed]);
  if (!visible || (served && !inPlaceOfServed)) return null;
  return (
    <CookieNoticeView
      label={t('app:cookies.title')} text={t('app:cookies.text')} accept={t('app:cookies.accept')}
      icon={<ShellIcon svg={infoCircle} className="me-2" />} onAccept={accept}
    />
  );
}
