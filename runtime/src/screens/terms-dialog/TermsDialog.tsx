/**
 * The `terms-dialog` screen type (spec §2 "Terms modal", §4): a static modal that cannot be
 * closed. It checks the status; while a document is left it shows the next one (a PDF, 10 s
 * time-out), and 'Zatwierdź' with the confirmation ticked accepts that document and checks again,
 * until everything is accepted and the modal closes itself. 'Wyloguj' signs out. When the status
 * call fails the modal is shown anyway (spec §4), with the error.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import type { TermsStatus } from '../../../core/generated/api';
import { api } from '../../api/client';
import { useSignOut } from '../../routing/useNavigateTo';
import type { TermsDialogDecl } from '../../config/bundle';
import type { ScreenProps } from '../types';

const PdfViewer = lazy(() => import('./PdfViewer'));


interface ShownDocument {
  templateId: number;
  file: Blob;
}

type Phase = 'checking' | 'loading' | 'ready' | 'loadFailed';

export default function TermsDialog({ screen, onClose }: ScreenProps<TermsDialogDecl>) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const titleId = useId();
  const texts = screen.texts;
  const [visible, setVisible] = useState(false);
  const [phase, setPhase] = useState<Phase>('checking');
  const [doc, setDoc] = useState<ShownDocument | null>(null);
  const [progress, setProgress] = useState<{ current: number; total: number } | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [confirmError, setConfirmError] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const started = useRef(false);

  const close = useCallback(() => onClose?.(), [onClose]);
  const downloadUrl = useMemo(() => (doc ? URL.createObjectURL(doc.file) : null), [doc]);
  useEffect(() => () => {
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  }, [downloadUrl]);

  const showProgress = (status: TermsStatus) => {
    const total = status.documents.length;
    const accepted = status.documents.filter((d) => d.accepted).length;
    setProgress(total > 1 ? { current: Math.min(accepted + 1, total), total } : null);
  };

  const loadNext = useCallback(async () => {
    setPhase('loading');
    setConfirmed(false);
    setConfirmError(false);
    let templateId = 0;
    try {
      const header = screen.next.templateHeader ?? 'x-template-id';
      const file = await api.get<Blob | undefined>(screen.next.endpoint, {
        responseType: 'blob',
        quiet: true,
        signal: AbortSignal.timeout(screen.next.timeoutMs),
        onHeaders: (h) => (templateId = Number(h.get(header))),
      });
      // 204: nothing left to accept
      if (!file) return close();
      setDoc({ templateId, file });
      setVisible(true);
      setPhase('ready');
    } catch {
      setVisible(true);
      setPhase('loadFailed');
    }
  }, [screen.next, close]);

  const check = useCallback(async () => {
    setPhase('checking');
    try {
      const status = await api.get<TermsStatus>(screen.status, { quiet: true });
      if (status.allAccepted) return close();
      showProgress(status);
    } catch {
      // spec §4: a failed status check shows the dialog too
      setError(t(texts.statusFailed));
      setVisible(true);
    }
    await loadNext();
  }, [screen.status, close, loadNext, t, texts.statusFailed]);

  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice
    started.current = true;
    void check();
  }, [check]);

  const accept = async () => {
    if (!confirmed) return setConfirmError(true);
    if (!doc) return;
    setBusy(true);
    setError(null);
    try {
      const status = await api.post<TermsStatus>(screen.accept.endpoint, { templateId: doc.templateId }, { quiet: true });
      setBusy(false);
      if (status.allAccepted) return close();
      showProgress(status);
      await loadNext();
    } catch {
      setBusy(false);
      setError(t(texts.acceptFailed));
    }
  };

  if (!visible) return null;
  const checkboxId = `${titleId}-confirm`;
  return (
    <Modal show size="xl" centered scrollable backdrop="static" keyboard={false} aria-labelledby={titleId} data-screen-type="terms-dialog">
      <Modal.Header>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t(screen.title)}
          {progress && <small className="ms-2 text-secondary" data-testid="terms-progress">{t(texts.progress, progress)}</small>}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body className="terms-body">
        {error && (
          <Alert variant="danger" role="alert" data-testid="terms-error">
            {error}
          </Alert>
        )}
        {phase === 'loading' || phase === 'checking' ? (
          <p className="text-secondary p-3" role="status">{t(texts.loading)}</p>
        ) : phase === 'loadFailed' ? (
          <Alert variant="warning" className="d-flex justify-content-between align-items-center" data-testid="terms-load-failed">
            <span>{t(texts.loadFailed)}</span>
            <Button variant="outline-secondary" size="sm" onClick={() => void check()}>
              {t(texts.retry)}
            </Button>
          </Alert>
        ) : (
          doc && (
            <Suspense fallback={<p className="text-secondary p-3" role="status">{t(texts.loading)}</p>}>
              <PdfViewer
                key={doc.templateId}
                file={doc.file}
                scale={screen.scale}
                loading={t(texts.loading)}
                failed={t(texts.loadFailed)}
                pageLabel={(page, pages) => t('terms:page', { page, pages })}
                onLoaded={() => undefined}
                onLoadError={() => setPhase('loadFailed')}
              />
            </Suspense>
          )
        )}
      </Modal.Body>
      <Modal.Footer className="justify-content-between">
        <Form.Group className="terms-confirm me-auto">
          <Form.Check
            id={checkboxId}
            type="checkbox"
            checked={confirmed}
            disabled={phase !== 'ready'}
            isInvalid={confirmError}
            onChange={(e) => {
              setConfirmed(e.target.checked);
              setConfirmError(false);
            }}
            label={t(texts.checkbox)}
            feedback={t(texts.checkboxRequired)}
            feedbackType="invalid"
          />
        </Form.Group>
        <div className="d-flex gap-2">
          {downloadUrl && phase === 'ready' && (
            <a className="btn btn-link" href={downloadUrl} download={`regulamin-${doc!.templateId}.pdf`}>
              {t(texts.download)}
            </a>
          )}
          <Button variant="outline-secondary" onClick={signOut}>
            {t(texts.signOut)}
          </Button>
          <Button onClick={() => void accept()} disabled={busy || phase !== 'ready'}>
            {t(texts.accept)}
          </Button>
        </div>
      </Modal.Footer>
    </Modal>
  );
}
