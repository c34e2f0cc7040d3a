import { useAtomValue } from 'jotai';
import { lazy, Suspense, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from '../config/texts';
import { Link } from 'react-router';
import { useConfig } from '../config/ConfigContext';
import type { Session } from '../config/bundle';
import { pendingRequestsAtom, userWritesAtom } from '../state/ui';
import { RoleBadge } from './RoleBadge';
import { userRole } from '../config/session-fields';
import { usePendingGate } from './SessionGates';

// the bell and its list come a moment after the page: neither the login page nor a table needs them
const NotificationBell = lazy(() => import('./notifications/NotificationBell'));

/** The help of the page shown (a route's `help` key, its title for the dialog's heading). */
export interface PageHelp {
  text: string;
  title?: string;
}

/** The help dialog (spec §2 "Other dialogs"): the page's help text from the locales, paragraph by paragraph. */
function HelpButton({ help }: { help: PageHelp }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const titleId = useId();
  const title = help.title ? t('app:help.title', { title: t(help.title) }) : t('app:help.button');
  return (
    <>
      <button type="button" className="btn btn-link text-white p-1 help-button" onClick={() => setOpen(true)} aria-haspopup="dialog" data-testid="help-button">
        <i className="bi bi-question-circle fs-5" aria-hidden="true" />
        <span className="help-button-text ms-1">{t('app:help.button')}</span>
      </button>
      <Modal show={open} onHide={() => setOpen(false)} centered aria-labelledby={titleId} data-testid="help-dialog">
        <Modal.Header closeButton closeLabel={t('app:close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {t(help.text)
            .split(/\n+/)
            .map((paragraph, i) => (
              <p key={i} className={i ? undefined : 'mt-0'}>
                {paragraph}
              </p>
            ))}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            {t('app:close')}
          </Button>
        </Modal.Footer>
      </Modal>
    </>
  );
}

interface TopBarProps {
  help?: PageHelp;
  session: Session;
  menuOpen: boolean;
  onToggleMenu: () => void;
  landing: string;
}

/** App title, menu toggle, request spinner, help, the notifications bell and the role badge. */
export function TopBar({ session, menuOpen, onToggleMenu, landing, help }: TopBarProps) {
  const { t } = useTranslation();
  const { preConfig, bundle } = useConfig();
  const pending = useAtomValue(pendingRequestsAtom);
  // behind a session gate (terms, first password) every other call is refused: the bell waits
  const gated = usePendingGate() !== undefined;
  const writes = useAtomValue(userWritesAtom);
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
        {help && <HelpButton help={help} />}
        {!gated && (
          <Suspense fallback={null}>
            <NotificationBell settings={bundle.app.bell ?? {}} writes={writes} />
          </Suspense>
        )}
        <RoleBadge user={session.user} role={userRole(bundle, session.user) ?? ''} />
      </div>
    </header>
  );
}
