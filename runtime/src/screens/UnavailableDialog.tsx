import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';
import { ComingSoon } from './ComingSoon';

/** A dialog of a screen that no file declares yet: "not available yet", closable. */
export default function UnavailableDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal show onHide={onClose} centered aria-label={t('app:comingSoon')}>
      <Modal.Header closeButton closeLabel={t('app:close')} />
      <Modal.Body>
        <ComingSoon />
      </Modal.Body>
    </Modal>
  );
}
