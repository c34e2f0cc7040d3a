import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';
import type { Fact } from './facts';

/**
 * A Tak / Nie question over the dialog beneath it (Nie has the focus: Enter never confirms by
 * accident), with the facts it is about listed under it (which order, which vehicle, its value),
 * read with the question by screen readers.
 */
export function ConfirmDialog({ question, facts, onAnswer }: { question: string; facts?: Fact[]; onAnswer: (yes: boolean) => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const bodyId = useId();
  const listed = facts?.length ? facts : null;
  return (
    <Modal show centered size={listed ? undefined : 'sm'} onHide={() => onAnswer(false)} aria-labelledby={titleId} aria-describedby={bodyId} className="confirm-modal" backdropClassName="confirm-backdrop">
      <Modal.Header>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t('app:confirmTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body id={bodyId}>
        <p className={listed ? 'mb-2' : 'mb-0'}>{question}</p>
        {listed && (
          <dl className="confirm-facts mb-0">
            {listed.map((f, i) => (
              <div key={i}>
                <dt>{f.label}</dt>
                <dd>{f.value}</dd>
              </div>
            ))}
          </dl>
        )}
      </Modal.Body>
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
