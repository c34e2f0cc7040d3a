/**
 * The question before an import (issue 49): what it will do, by the dry run's numbers — add,
 * change, retire — and, when it retires more than the declared share of the clients' rows (the
 * server says so: `confirmByTyping`), the number of rows it retires typed back before "Importuj"
 * may be pressed. The server refuses such an import without that number (server/imports/approval.ts).
 */
import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { formatNumber } from '../../format';
import type { ImportRun } from './import-api';
import { textKey, type TextKey } from '../../../core/screen-texts/data-import';

/** The typed number as digits only (spaces, as "37 412" is written, are allowed). */
export const typedCount = (text: string) => text.replace(/[\s\u00a0\u202f]/g, '');

export function ImportConfirm({ namespace, run, what, skipped, onAnswer }: {
  namespace: string;
  /** The dry run whose numbers the import carries out. */
  run: ImportRun;
  /** What is imported, as the first step named it (Pojazdy). */
  what: string;
  /** Rows in error the import leaves out (the choice "Tylko poprawne wiersze"), else 0. */
  skipped: number;
  onAnswer: (confirmed: string | null) => void;
}) {
  const { t } = useTranslation();
  const tx = (key: TextKey, vars?: Record<string, unknown>) => t(textKey(namespace, key), vars);
  const titleId = useId();
  const bodyId = useId();
  const [typed, setTyped] = useState('');
  const c = run.counts;
  const mustType = run.confirmByTyping;
  const matches = !mustType || typedCount(typed) === String(c.deactivated);
  return (
    <Modal show centered onHide={() => onAnswer(null)} aria-labelledby={titleId} aria-describedby={bodyId} data-testid="import-confirm">
      <Modal.Header>
        <Modal.Title id={titleId} as="h2" className="h5">{tx('confirm.title')}</Modal.Title>
      </Modal.Header>
      <Modal.Body id={bodyId}>
        <p className="mb-2" data-testid="import-confirm-question">
          {tx('confirm.question', { what, new: formatNumber(c.new), changed: formatNumber(c.changed), deactivated: formatNumber(c.deactivated) })}
        </p>
        {skipped > 0 && <p className="mb-2">{t(`${namespace}:confirm.skipped`, { count: skipped, rows: formatNumber(skipped) })}</p>}
        {mustType && (
          <Form.Group controlId={`${titleId}-typed`}>
            <Form.Label>{tx('confirm.typeCount', { count: formatNumber(c.deactivated) })}</Form.Label>
            <Form.Control inputMode="numeric" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} isInvalid={typed !== '' && !matches} />
            <Form.Control.Feedback type="invalid">{tx('confirm.typeMismatch')}</Form.Control.Feedback>
          </Form.Group>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={() => onAnswer(null)} autoFocus>{tx('confirm.cancel')}</Button>
        <Button variant={c.deactivated > 0 ? 'danger' : 'primary'} disabled={!matches} onClick={() => onAnswer(mustType ? typedCount(typed) : '')}>
          {tx('dryRun.start')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
