import { useAtomValue } from 'jotai';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfig } from '../config/ConfigContext';
import type { Session } from '../config/types';
import { pendingRequestsAtom } from '../state/ui';
import { RoleBadge } from './RoleBadge';

interface TopBarProps {
  session: Session;
  menuOpen: boolean;
  onToggleMenu: () => void;
  landing: string;
}

/** App title, menu toggle, request spinner and the role badge. */
export function TopBar({ session, menuOpen, onToggleMenu, landing }: TopBarProps) {
  const { t } = useTranslation();
  const { preConfig } = useConfig();
  const pending = useAtomValue(pendingRequestsAtom);
  return (
    <header className="app-topbar navbar navbar-dark bg-primary px-2 px-md-3">
      <div className="d-flex align-items-center gap-2 min-w-0">
        <button
          type="button"
          className="btn btn-link text-white p-1 menu-toggle"
          aria-label={t('app:menu.toggle')}
          aria-controls="side-menu"
          aria-expanded={menuOpen}
          onClick={onToggleMenu}
        >
          <i className="bi bi-list fs-3" aria-hidden="true" />
        </button>
        <Link to={landing} className="navbar-brand text-truncate mb-0 h1 fs-5">
          {preConfig.loginAppName}
        </Link>
      </div>
      <div className="d-flex align-items-center gap-3">
        <span role="status" className="topbar-spinner">
          {pending > 0 && (
            <>
              <Spinner animation="border" size="sm" variant="light" aria-hidden="true" />
              <span className="visually-hidden">{t('app:loading')}</span>
            </>
          )}
        </span>
        <RoleBadge user={session.user} />
      </div>
    </header>
  );
}
