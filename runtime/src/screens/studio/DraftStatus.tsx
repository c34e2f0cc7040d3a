/**
 * The draft's status above the tabs: how many changes, the version it is based on, whether a newer
 * version was published since it began (then "Uwzględnij opublikowaną wersję" rebases it), and the
 * buttons Podgląd, Opublikuj (with a comment) and Odrzuć wersję roboczą.
 */
import { useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { formatDateTime } from '../../format';
import { showToast } from '../../state/ui';
import { useStudio } from './StudioContext';

export function DraftStatus() {
  const { t } = useTranslation();
  const { overview, api, write, screen, setTab } = useStudio();
  const [changes, setChanges] = useState<number | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const [busy, setBusy] = useState(false);
  const draft = overview?.draft ?? null;
  const published = overview?.published ?? null;
  const previewTab = screen.tabs.find((tb) => tb.kind === 'preview');

  useEffect(() => {
    if (!draft) {
      setChanges(null);
      return;
    }
    const controller = new AbortController();
    api.draftDiff(controller.signal).then((d) => setChanges(d.changes.length), () => !controller.signal.aborted && setChanges(null));
    return () => controller.abort();
  }, [api, draft?.id, draft?.updatedAt]);

  const rebase = async () => {
    setBusy(true);
    await write(() => api.rebase(), t('config-studio:stale.rebased'));
    setBusy(false);
  };
  const discard = async (yes: boolean) => {
    setDiscarding(false);
    if (!yes) return;
    setBusy(true);
    await write(() => api.discard(), t('config-studio:draft.discarded'));
    setBusy(false);
  };

  return (
    <section className="studio-status" aria-labelledby="studio-status-title" data-testid="draft-status">
      <h2 id="studio-status-title" className="visually-hidden">
        {t('config-studio:draft.title')}
      </h2>
      <div className="studio-status-lines">
        <div>
          {published
            ? t('config-studio:published.line', { id: published.id, author: published.author, when: formatDateTime(published.publishedAt ?? published.createdAt) ?? '' })
            : t('config-studio:published.none')}
        </div>
        <div data-testid="draft-line">
          {draft ? (
            <>
              <strong>{t('config-studio:draft.label')}</strong>{' '}
              {changes === null
                ? t('config-studio:draft.documents', { count: draft.paths.length })
                : `${t('config-studio:draft.changes', { count: changes })} ${t('config-studio:draft.inDocuments', { count: draft.paths.length })}`}
              {' · '}
              {draft.basedOn ? t('config-studio:draft.basedOn', { id: draft.basedOn }) : t('config-studio:draft.basedOnFiles')}
            </>
          ) : (
            t('config-studio:draft.none')
          )}
        </div>
      </div>
      {overview?.stale && draft && (
        <div className="alert alert-warning studio-stale mb-0" role="status">
          <span>{t('config-studio:stale.warning', { id: published?.id ?? '' })}</span>
          <Button variant="warning" size="sm" disabled={busy} onClick={() => void rebase()}>
            {t('config-studio:stale.rebase')}
          </Button>
        </div>
      )}
      <div className="studio-status-buttons">
        {previewTab && (
          <Button variant="outline-primary" onClick={() => setTab(previewTab.id)}>
            <i className="bi bi-eye me-1" aria-hidden="true" />
            {t('config-studio:buttons.preview')}
          </Button>
        )}
        <Button variant="success" disabled={!draft || busy} onClick={() => setPublishing(true)}>
          <i className="bi bi-cloud-upload me-1" aria-hidden="true" />
          {t('config-studio:buttons.publish')}
        </Button>
        <Button variant="outline-danger" disabled={!draft || busy} onClick={() => setDiscarding(true)}>
          {t('config-studio:buttons.discard')}
        </Button>
      </div>
      {publishing && <PublishDialog onClose={() => setPublishing(false)} />}
      {discarding && <ConfirmDialog question={t('config-studio:draft.discardQuestion')} onAnswer={(yes) => void discard(yes)} />}
    </section>
  );
}

function PublishDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { api, write } = useStudio();
  const titleId = useId();
  const [comment, setComment] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const missing = comment.trim() === '';
  const submit = async () => {
    setTried(true);
    if (missing) return;
    setBusy(true);
    const answer = await write(() => api.publish(comment.trim()));
    setBusy(false);
    if (answer) showToast('success', t('config-studio:publish.done', { id: answer.version.id }), 'config-studio');
    // refused or not, the page says why (the problems, the other's changes): the dialog gives way
    onClose();
  };
  return (
    <Modal show centered onHide={onClose} aria-labelledby={titleId}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Modal.Header closeButton closeLabel={t('app:close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {t('config-studio:publish.title')}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p>{t('config-studio:publish.intro')}</p>
          <label htmlFor="studio-publish-comment" className="form-label">
            {t('config-studio:publish.comment')}
          </label>
          <textarea
            id="studio-publish-comment"
            className={`form-control${tried && missing ? ' is-invalid' : ''}`}
            rows={3}
            maxLength={500}
            value={comment}
            aria-invalid={tried && missing}
            aria-describedby={tried && missing ? 'studio-publish-comment-error' : undefined}
            onChange={(e) => setComment(e.target.value)}
          />
          {tried && missing && (
            <div id="studio-publish-comment-error" className="invalid-feedback d-block">
              {t('config-studio:publish.commentRequired')}
            </div>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            {t('config-studio:cancel')}
          </Button>
          <Button variant="success" type="submit" disabled={busy}>
            {t('config-studio:buttons.publish')}
          </Button>
        </Modal.Footer>
      </form>
    </Modal>
  );
}
