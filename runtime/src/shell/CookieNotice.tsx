import infoCircle from 'bootstrap-icons/icons/info-circle.svg?raw';
import { useState } from 'react';
import { useTranslation } from '../config/texts';
import { ShellIcon } from './ShellIcon';

export const COOKIES_ACCEPTED_KEY = 'portal.cookiesAccepted';

function accepted(): boolean {
  try {
    return localStorage.getItem(COOKIES_ACCEPTED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The cookie notice: a banner at the bottom until the user acknowledges it (remembered in
 * localStorage). Bootstrap's button markup without react-bootstrap: the login page shows it.
 */
export function CookieNotice() {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(() => !accepted());
  if (!visible) return null;
  const accept = () => {
    try {
      localStorage.setItem(COOKIES_ACCEPTED_KEY, '1');
    } catch {
      // private mode without storage: hide for this page view only
    }
    setVisible(false);
  };
  return (
    <section className="cookie-notice shadow" aria-label={t('app:cookies.title')} data-testid="cookie-notice">
      <p className="mb-0">
        <ShellIcon svg={infoCircle} className="me-2" />
        {t('app:cookies.text')}
      </p>
      <button type="button" className="btn btn-light btn-sm" onClick={accept}>
        {t('app:cookies.accept')}
      </button>
    </section>
  );
}
