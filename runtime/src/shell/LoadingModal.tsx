import Modal from 'react-bootstrap/Modal';
import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from 'react-i18next';

/** The blocking loading modal ('Ładowanie...') shown while the application starts. */
export function LoadingModal({ show }: { show: boolean }) {
  const { t } = useTranslation();
  return (
    <Modal show={show} backdrop="static" keyboard={false} centered size="sm" aria-label={t('app:loading')} data-testid="loading-modal">
      <Modal.Body className="d-flex align-items-center gap-3" role="status">
        <Spinner animation="border" variant="primary" aria-hidden="true" />
        <span>{t('app:loading')}</span>
      </Modal.Body>
    </Modal>
  );
}
