import { useId, useState } from 'react';
import Button, { type ButtonProps } from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';
import type { Fact } from './facts';
import { formatSettings } from '../format-settings';

/** Typed text compared as a person means it: case and extra spaces aside. */
export const sameWords = (text: string) => text.trim().replace(/\s+/g, ' ').toLocaleLowerCase(formatSettings().locale);

/**
 * THE Tak / Nie question of the portal, over the dialog beneath it (Nie has the focus: Enter never
 * confirms by accident), with the facts it is about listed under it (which order, which vehicle,
 * its value), read with the question by screen readers. Every confirmation uses it: a call's
 * (actions/useCallEffects.tsx), a form dialog's button (`confirm`, `confirmTyping`), a wizard's
 * question, the studio's and the security settings'.
 */
export function ConfirmDialog({ question, facts, tone = 'primary', confirmTyping, onAnswer }: {
  question: string;
  facts?: Fact[];
  /** The colour of Tak (a danger action's is red). */
  tone?: ButtonProps['variant'];
  /** When given, Tak is enabled only once this text is typed (case and extra spaces aside): the person's name of an anonymisation. */
  confirmTyping?: string | null;
  onAnswer: (yes: boolean) => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const bodyId = useId();
  const typedId = useId();
  const [typed, setTyped] = useState('');
  const listed = facts?.length ? facts : null;
  const typing = confirmTyping ?? null;
  return (
    <Modal show centered size={listed ? undefined : 'sm'} onHide={() => onAnswer(false)} aria-labelledby={titleId} aria-describedby={bodyId} className="confirm-modal" backdropClassName="confirm-backdrop">
      <Modal.Header>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t('app:confirmTitle')}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body id={bodyId}>
        <p className={listed || typing ? 'mb-2' : 'mb-0'}>{question}</p>
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
        {typing && (
          <Form.Group controlId={typedId}>
            <Form.Label>{t('app:confirmTyping', { text: typing })}</Form.Label>
            <Form.Control autoComplete="off" spellCheck={false} value={typed} onChange={(e) => setTyped(e.target.value)} />
          </Form.Group>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => onAnswer(false)} autoFocus>
          {t('app:no')}
        </Button>
        <Button variant={tone} disabled={typing !== null && sameWords(typed) !== sameWords(typing)} onClick={() => onAnswer(true)}>
          {t('app:yes')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
