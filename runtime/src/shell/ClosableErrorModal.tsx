import exclamationOctagonFill from 'bootstrap-icons/icons/exclamation-octagon-fill.svg?raw';
import { useAtom } from 'jotai';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';
import { errorModalAtom } from '../state/ui';
import { ShellIcon } from './ShellIcon';

/** The error modal of an error the user may close (spec §2); a chunk of its own, loaded when one is shown (ErrorModal.tsx). */
export default function ClosableErrorModal() {
  const { t } = useTranslation();
  const [error, setError] = useAtom(errorModalAtom);
  const close = () => setError(null);
  return (
    <Modal show={error !== null && !error.blocking} onHide={close} centered aria-labelledby="error-modal-title" data-testid="error-modal">
      <Modal.Header closeButton closeLabel={t('app:close')}>
        <Modal.Title id="error-modal-title" as="h2" className="h5">
          <ShellIcon svg={exclamationOctagonFill} className="text-danger me-2" />
          {t('app:errorTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body role="alert">{error?.text}</Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={close} autoFocus>
          {t('app:ok')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
