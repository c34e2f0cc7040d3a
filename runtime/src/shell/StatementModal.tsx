import { useAtom } from 'jotai';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';
import { statementAtom } from '../state/ui';

export interface StatementModalProps {
  show: boolean;
  /** Already translated texts. */
  title?: string;
  text: string;
  onOk: () => void;
}

/** An informational statement with one Ok button (spec §2 "Other shared screens"). */
export function StatementModal({ show, title, text, onOk }: StatementModalProps) {
  const { t } = useTranslation();
  return (
    <Modal show={show} onHide={onOk} centered aria-labelledby={title ? 'statement-modal-title' : undefined} aria-label={title ? undefined : text}>
      {title && (
        <Modal.Header closeButton closeLabel={t('app:close')}>
          <Modal.Title id="statement-modal-title" as="h2" className="h5">
            {title}
          </Modal.Title>
        </Modal.Header>
      )}
      <Modal.Body>{text}</Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onOk} autoFocus>
          {t('app:ok')}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}

/** The statement modal driven by statementAtom, so any module can call showStatement(). */
export function GlobalStatementModal() {
  const [statement, setStatement] = useAtom(statementAtom);
  const ok = () => {
    setStatement(null);
    statement?.onOk?.();
  };
  return <StatementModal show={statement !== null} title={statement?.title} text={statement?.text ?? ''} onOk={ok} />;
}
