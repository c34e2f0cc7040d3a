import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';

/** A Tak / Nie question over the dialog beneath it (Nie has the focus: Enter never confirms by accident). */
export function ConfirmDialog({ question, onAnswer }: { question: string; onAnswer: (yes: boolean) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal show centered size="sm" onHide={() => onAnswer(false)} aria-labelledby={titleId} className="confirm-modal" backdropClassName="confirm-backdrop">
      <Modal.Header>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t('app:confirmTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{question}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => onAnswer(false)} autoFocus>
          {t('app:no')}
        </Button>
        <Button variant="primary" onClick={() => onAnswer(true)}>
          {t('app:yes')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
