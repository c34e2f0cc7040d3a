import { useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';

/**
 * A value the server shows once (a new API key, the ten recovery codes of issue 36, one a line):
 * read-only in a field a user can select, a copy button, and the warning that it will not be shown again. Closing it is the only way on, so the
 * value cannot be missed; nothing keeps it afterwards.
 */
export function RevealDialog({ title, text, warning, label, value, onClose }: { title: string; text?: string; warning: string; label: string; value: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const inputId = useId();
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const lines = value.split('\n').length;
  const [copied, setCopied] = useState<'yes' | 'select' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      // no clipboard here (an insecure origin, a denied permission): the text is selected for Ctrl+C
      input.current?.select();
      setCopied('select');
    }
  };
  return (
    <Modal show centered backdrop="static" onHide={onClose} aria-labelledby={titleId} className="confirm-modal reveal-modal" backdropClassName="confirm-backdrop">
      <Modal.Header closeButton closeLabel={t('app:close')}>
        <Modal.Title id={titleId} as="h2" className="h5">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {text && <p>{text}</p>}
        <Alert variant="warning" className="mb-3">{warning}</Alert>
        <Form.Label htmlFor={inputId}>{label}</Form.Label>
        <div className="d-flex gap-2 flex-wrap">
          <Form.Control
            id={inputId} ref={input} readOnly value={value} className="font-monospace flex-grow-1 reveal-value"
            {...(lines > 1 ? { as: 'textarea' as const, rows: lines } : {})}
            onFocus={(e) => e.currentTarget.select()} data-testid="revealed-value"
          />
          <Button variant="outline-primary" onClick={() => void copy()}>{t('app:copy')}</Button>
        </div>
        <p className="small mt-2 mb-0" role="status" aria-live="polite">
          {copied === 'yes' ? t('app:copied') : copied === 'select' ? t('app:copySelected') : ''}
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>{t('app:close')}</Button>
      </Modal.Footer>
    </Modal>
  );
}
