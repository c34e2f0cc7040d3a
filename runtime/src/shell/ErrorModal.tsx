import { useAtom } from 'jotai';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { errorModalAtom } from '../state/ui';
import { ShellIcon } from './ShellIcon';

/** The error modal (spec §2): a blocking one cannot be closed (e.g. no connection at start-up). */
export function ErrorModal() {
  const { t } = useTranslation();
  const [error, setError] = useAtom(errorModalAtom);
  const close = () => setError(null);
  return (
    <Modal
      show={error !== null}
      onHide={error?.blocking ? undefined : close}
      backdrop={error?.blocking ? 'static' : true}
      keyboard={!error?.blocking}
      centered
      aria-labelledby="error-modal-title"
      data-testid="error-modal"
    >
      <Modal.Header closeButton={!error?.blocking} closeLabel={t('app:close')}>
        <Modal.Title id="error-modal-title" as="h2" className="h5">
          <ShellIcon name="exclamation-octagon-fill" className="text-danger me-2" />
          {t('app:errorTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body role="alert">{error?.text}</Modal.Body>
      {!error?.blocking && (
        <Modal.Footer>
          <Button variant="primary" onClick={close} autoFocus>
            {t('app:ok')}
          </Button>
        </Modal.Footer>
      )}
    </Modal>
  );
}
