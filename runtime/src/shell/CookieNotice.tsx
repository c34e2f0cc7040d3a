import infoCircle from 'bootstrap-icons/icons/info-circle.svg?raw';
import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../config/texts';
import { firstPaintShown, onFirstPaintGone } from './first-paint';
import { CookieNoticeView } from './PublicFrame';
import { ShellIcon } from './ShellIcon';

export const COOKIES_ACCEPTED_KEY = 'portal.cookiesAccepted';
/** The same acknowledgement as a cookie, so that the server leaves the notice out of the page it draws (server/init/first-paint.ts). */
export const COOKIES_ACCEPTED_COOKIE = 'portal.cookies';

const remember = () => {
  document.cookie = `${COOKIES_ACCEPTED_COOKIE}=1; path=/; max-age=31536000; SameSite=Lax`;
};

function accepted(): boolean {
  try {
    if (localStorage.getItem(COOKIES_ACCEPTED_KEY) !== '1') return false;
    // acknowledged before the cookie existed: the next page is served without the notice too
    if (!document.cookie.includes(`${COOKIES_ACCEPTED_COOKIE}=1`)) remember();
    return true;
  } catch {
    return false;
  }
}

/**
 * The cookie notice: a banner at the bottom until the user acknowledges it (remembered in
 * localStorage and a cookie). Bootstrap's button markup without react-bootstrap: the login page
 * shows it. While the page the server drew is shown, its notice stands for this one.
 */
export function CookieNotice() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(() => !accepted());
  const served = useSyncExternalStore(onFirstPaintGone, firstPaintShown);
  if (!visible || served) return null;
  const accept = () => {
    try {
      localStorage.setItem(COOKIES_ACCEPTED_KEY, '1');
    } catch {
      // private mode without storage: hide for this page view only
    }
    remember();
    setVisible(false);
  };
  return (
    <CookieNoticeView
      label={t('app:cookies.title')} text={t('app:cookies.text')} accept={t('app:cookies.accept')}
      icon={<ShellIcon svg={infoCircle} className="me-2" />} onAccept={accept}
    />
  );
}
