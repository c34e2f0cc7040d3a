import exclamationOctagonFill from 'bootstrap-icons/icons/exclamation-octagon-fill.svg?raw';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useTranslation } from '../config/texts';
import { errorModalAtom } from '../state/ui';
import { lazyPart } from './lazy-part';
import { ShellIcon } from './ShellIcon';
import { StaticModal } from './StaticModal';

const ClosableErrorModal = lazyPart(() => import('./ClosableErrorModal'));

/**
 * The error modal (spec §2). A blocking one (no connection at start-up: the application cannot
 * continue) cannot be closed, so it is plain markup, in the first page's code: it must show when
 * the server, and so any further chunk, cannot be reached. One the user may close is
 * react-bootstrap's modal, loaded with the first such error.
 */
export function ErrorModal() {
  const { t } = useTranslation();
  const error = useAtomValue(errorModalAtom);
  // once loaded it stays drawn, so that it closes as react-bootstrap closes a modal
  const [closableUsed, setClosableUsed] = useState(false);
  if (error && !error.blocking && !closableUsed) setClosableUsed(true);
  const closable = closableUsed && <ClosableErrorModal />;
  if (!error?.blocking) return closable || null;
  return (
    <StaticModal labelledBy="error-modal-title" testId="error-modal">
      <div className="modal-header">
        <h2 id="error-modal-title" className="modal-title h5">
          <ShellIcon svg={exclamationOctagonFill} className="text-danger me-2" />
          {t('app:errorTitle')}
        </h2>
      </div>
      <div className="modal-body" role="alert">
        {error.text}
      </div>
    </StaticModal>
  );
}
