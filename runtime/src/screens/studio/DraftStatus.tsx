/**
 * The draft's status above the tabs: the version in effect in the scope being edited, how many
 * changes the draft has and for which scopes (the base portal, a variant by its name), whether a
 * newer version was published since it began (then "Uwzględnij opublikowaną wersję" rebases it),
 * and the buttons Podgląd, Opublikuj and Odrzuć wersję roboczą. Publishing shows what is
 * published, scope by scope, with who will see it (everyone, or one variant's users), and asks for
 * a comment.
 */
import { useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { formatDateTime } from '../../format';
import { showToast } from '../../state/ui';
import { scopesOf } from './layer-path';
import { Spinner } from './parts';
import type { Change } from './studio-api';
import { useStudio } from './StudioContext';

export function DraftStatus() {
  const { t } = useTranslation();
  const { overview, api, write, screen, setTab, scope, scopeLabel } = useStudio();
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
        <div data-testid="published-line">
          {published
            ? t('config-studio:published.line', {
                number: published.numbers?.[scope] ?? 0, scope: scopeLabel(scope), author: published.author,
                when: formatDateTime(published.publishedAt ?? published.createdAt) ?? '',
              })
            : t('config-studio:published.none')}
        </div>
        <div data-testid="draft-line">
          {draft ? (
            <>
              <strong>{t('config-studio:draft.label')}</strong>{' '}
              {changes === null
                ? t('config-studio:draft.documents', { count: draft.paths.length })
                : `${t('config-studio:draft.changes', { count: changes })} ${t('config-studio:draft.inDocuments', { count: draft.paths.length })}`}
              {draft.paths.length > 0 && (
                <>
                  {' '}
                  {t('config-studio:draft.forScopes', { scopes: scopesOf(draft.paths).map(scopeLabel).join(', ') })}
                </>
              )}
              {' · '}
              {!overview?.stale && published
                ? t('config-studio:draft.basedOn', { number: published.numbers?.[scope] ?? 0, scope: scopeLabel(scope) })
                : overview?.stale
                  ? t('config-studio:draft.basedOnOlder')
                  : t('config-studio:draft.basedOnFiles')}
            </>
          ) : (
            t('config-studio:draft.none')
          )}
        </div>
      </div>
      {overview?.stale && draft && (
        <div className="alert alert-warning studio-stale mb-0" role="status">
          <span>{t('config-studio:stale.warning', { author: published?.author ?? '' })}</span>
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

/** The draft's changes by scope, each with who will see them once published. */
function PublishChanges() {
  const { t } = useTranslation();
  const { api, scopeLabel } = useStudio();
  const [changes, setChanges] = useState<Change[] | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.draftDiff(controller.signal).then((d) => setChanges(d.changes), () => !controller.signal.aborted && setChanges([]));
    return () => controller.abort();
  }, [api]);
  if (!changes) return <Spinner />;
  const scopes = [...new Set(changes.map((c) => c.scope))].sort((a, b) => Number(b === 'base') - Number(a === 'base') || a.localeCompare(b));
  return (
    <div className="studio-publish-changes" data-testid="publish-changes">
      {scopes.map((s) => {
        const mine = changes.filter((c) => c.scope === s);
        return (
          <section key={s} className="studio-publish-scope" aria-label={scopeLabel(s)}>
            <h3 className="h6 mb-1">{scopeLabel(s)}</h3>
            <p className="studio-audience mb-1" data-testid="publish-audience">
              <i className={`bi ${s === 'base' ? 'bi-people' : 'bi-person-badge'} me-1`} aria-hidden="true" />
              {s === 'base' ? t('config-studio:publish.audienceAll') : t('config-studio:publish.audienceVariant', { name: scopeLabel(s) })}
            </p>
            <ul className="studio-change-list mb-2">
              {mine.map((c, i) => (
                <li key={i}>{c.text}</li>
              ))}
            </ul>
          </section>
        );
      })}
      {!changes.length && <p className="studio-note">{t('config-studio:versions.noChanges')}</p>}
    </div>
  );
}

function PublishDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { api, write, scopeLabel } = useStudio();
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
    if (answer) {
      const { numbers, scopes } = answer.version;
      const done = (scopes.length ? scopes : ['base']).map((s) => t('config-studio:publish.scopeVersion', { scope: scopeLabel(s), number: numbers[s] ?? 0 })).join(', ');
      showToast('success', t('config-studio:publish.done', { versions: done }), 'config-studio');
    }
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
          <PublishChanges />
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
