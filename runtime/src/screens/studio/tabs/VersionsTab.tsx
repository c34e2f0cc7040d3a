/**
 * Wersje, of the scope being edited (the base portal or one variant): its versions, newest first,
 * numbered in that scope without gaps (author, time, comment, "bieżąca"), each with its readable
 * diff against the one before and "Przywróć" (a rollback of that scope only: a new published
 * version with that version's changes of the scope, after a Tak/Nie); version 0, the configuration
 * as in the files, restorable the same way; the draft's own changes, each one with "Cofnij"
 * (taken back out of the draft); Eksportuj (the layer as overlay files, downloaded as JSON) and
 * Importuj (such a file, into the draft).
 */
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../../config/texts';
import { ConfirmDialog } from '../../../actions/ConfirmDialog';
import { formatDateTime } from '../../../format';
import { showToast } from '../../../state/ui';
import { LoadFailure, Spinner, TabHeading } from '../parts';
import type { Change, ExportFile, Version } from '../studio-api';
import { useStudio } from '../StudioContext';

function ChangeList({ changes, onRevert, busy }: { changes: Change[]; onRevert?(change: Change): void; busy?: boolean }) {
  const { t } = useTranslation();
  if (!changes.length) return <p className="studio-note mb-0">{t('config-studio:versions.noChanges')}</p>;
  return (
    <ul className="studio-change-list" data-testid="change-list">
      {changes.map((c, i) => (
        <li key={i} className={onRevert ? 'studio-change' : undefined}>
          <span>{c.text}</span>
          {onRevert && c.at.length > 0 && (
            <Button variant="outline-secondary" size="sm" className="studio-change-revert" disabled={busy} onClick={() => onRevert(c)}>
              <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
              {t('config-studio:versions.revert')}
              <span className="visually-hidden"> {c.text}</span>
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

function VersionDiff({ id }: { id: number }) {
  const { api, scope } = useStudio();
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.versionDiff(id, scope, controller.signal).then(
      (d) => setChanges(d.changes),
      (e) => !controller.signal.aborted && setError(e),
    );
    return () => controller.abort();
  }, [api, id, scope]);
  if (error) return <LoadFailure error={error} />;
  if (!changes) return <Spinner />;
  return <ChangeList changes={changes} />;
}

/** What is restored: a version of the scope, or 0 (as in the files). */
interface Restoring {
  id: number;
  number: number;
}

export default function VersionsTab() {
  const { t } = useTranslation();
  const { api, revision, overview, scope, scopeLabel, write } = useStudio();
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<Set<number>>(new Set());
  const [restoring, setRestoring] = useState<Restoring | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setVersions(null);
    api.versions(scope, controller.signal).then(
      (d) => {
        setVersions(d.items);
        setError(null);
      },
      (e) => !controller.signal.aborted && setError(e),
    );
    return () => controller.abort();
  }, [api, revision, scope]);

  const toggle = (id: number) => setOpen((s) => {
    const next = new Set(s);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    return next;
  });
  const numberOf = (v: Version) => v.numbers[scope] ?? 0;
  // the number in this scope of the version a restore took (none: version 0, the files)
  const restoredNumber = (id: number | null) => (id === null ? 0 : versions?.find((v) => v.id === id)?.numbers[scope]);
  const restore = async (yes: boolean) => {
    const target = restoring;
    setRestoring(null);
    if (!yes || !target) return;
    const answer = await write(() => api.restore(target.id, scope));
    if (answer) showToast('success', t('config-studio:versions.restored', { number: target.number, scope: scopeLabel(scope), next: answer.version.numbers[scope] ?? 0 }), 'config-studio');
  };
  const filesInUse = versions !== null && versions.length === 0;

  return (
    <div className="studio-versions">
      <DraftChanges key={`${overview?.draft?.id}-${overview?.draft?.updatedAt}-${revision}`} />
      <TabHeading>{t('config-studio:versions.title', { scope: scopeLabel(scope) })}</TabHeading>
      {error ? <LoadFailure error={error} /> : null}
      {!versions && !error && <Spinner />}
      {versions && (
        <ol className="studio-version-list" data-testid="version-list">
          {versions.map((v) => (
            <li key={v.id} className="studio-version" data-version={numberOf(v)}>
              <div className="studio-version-head">
                <span className="fw-semibold">{t('config-studio:versions.number', { number: numberOf(v) })}</span>
                {v.current && <span className="badge text-bg-success">{t('config-studio:versions.current')}</span>}
                <span>{v.author}</span>
                <time dateTime={v.publishedAt ?? v.createdAt}>{formatDateTime(v.publishedAt ?? v.createdAt)}</time>
                {v.restoredFrom !== null && restoredNumber(v.restoredFrom) !== undefined && (
                  <span className="studio-note">{t('config-studio:versions.restoredFrom', { number: restoredNumber(v.restoredFrom) })}</span>
                )}
              </div>
              {v.comment && <p className="studio-version-comment mb-1">{v.comment}</p>}
              <div className="studio-version-tools">
                <Button variant="link" size="sm" className="p-0" aria-expanded={open.has(v.id)} onClick={() => toggle(v.id)}>
                  {open.has(v.id) ? t('config-studio:versions.hideDiff') : t('config-studio:versions.showDiff')}
                </Button>
                {!v.current && (
                  <Button variant="outline-primary" size="sm" onClick={() => setRestoring({ id: v.id, number: numberOf(v) })}>
                    <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
                    {t('config-studio:versions.restore')}
                    <span className="visually-hidden"> {t('config-studio:versions.number', { number: numberOf(v) })}</span>
                  </Button>
                )}
              </div>
              {open.has(v.id) && <VersionDiff id={v.id} />}
            </li>
          ))}
          <li className="studio-version studio-version-files" data-version="0">
            <div className="studio-version-head">
              <span className="fw-semibold">{t('config-studio:versions.number', { number: 0 })}</span>
              {filesInUse && <span className="badge text-bg-success">{t('config-studio:versions.current')}</span>}
              <span>{t('config-studio:versions.files')}</span>
            </div>
            <div className="studio-version-tools">
              {!filesInUse && (
                <Button variant="outline-primary" size="sm" onClick={() => setRestoring({ id: 0, number: 0 })}>
                  <i className="bi bi-arrow-counterclockwise me-1" aria-hidden="true" />
                  {t('config-studio:versions.restore')}
                  <span className="visually-hidden"> {t('config-studio:versions.number', { number: 0 })}</span>
                </Button>
              )}
            </div>
          </li>
        </ol>
      )}
      <ExportImport />
      {restoring && (
        <ConfirmDialog
          question={t(restoring.id === 0 ? 'config-studio:versions.restoreFilesQuestion' : 'config-studio:versions.restoreQuestion', { number: restoring.number, scope: scopeLabel(scope) })}
          onAnswer={(yes) => void restore(yes)}
        />
      )}
    </div>
  );
}

function DraftChanges() {
  const { t } = useTranslation();
  const { api, overview, write } = useStudio();
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [busy, setBusy] = useState(false);
  const draft = overview?.draft;
  useEffect(() => {
    if (!draft) return;
    const controller = new AbortController();
    api.draftDiff(controller.signal).then((d) => setChanges(d.changes), () => undefined);
    return () => controller.abort();
  }, [api, draft]);
  const revert = async (change: Change) => {
    setBusy(true);
    await write(() => api.revert(change), t('config-studio:versions.reverted'));
    setBusy(false);
  };
  return (
    <section className="studio-draft-diff" aria-labelledby="studio-draft-diff-title">
      <TabHeading>
        <span id="studio-draft-diff-title">{t('config-studio:versions.draftTitle')}</span>
      </TabHeading>
      {!draft && <p className="studio-note">{t('config-studio:draft.none')}</p>}
      {draft && !changes && <Spinner />}
      {draft && changes && <ChangeList changes={changes} onRevert={(c) => void revert(c)} busy={busy} />}
    </section>
  );
}

/** Saves a JSON answer as a file the browser downloads. */
function download(name: string, body: unknown) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function ExportImport() {
  const { t } = useTranslation();
  const { api, write } = useStudio();
  const [source, setSource] = useState<'published' | 'draft'>('published');
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const exportLayer = async () => {
    setBusy(true);
    try {
      const answer = await api.exportLayer(source);
      const day = new Date().toISOString().slice(0, 10);
      download(`konfiguracja-${source === 'draft' ? 'robocza' : 'opublikowana'}-${day}.json`, answer);
    } catch {
      showToast('error', t('config-studio:failed'), 'config-studio');
    } finally {
      setBusy(false);
    }
  };
  const importLayer = async () => {
    if (!file) return;
    let parsed: ExportFile;
    try {
      parsed = JSON.parse(await file.text());
    } catch {
      setFileError(t('config-studio:versions.importNotJson'));
      return;
    }
    setFileError(null);
    setBusy(true);
    await write(() => api.importLayer(parsed), t('config-studio:versions.imported'));
    setBusy(false);
  };

  return (
    <section className="studio-export" aria-labelledby="studio-export-title">
      <TabHeading>
        <span id="studio-export-title">{t('config-studio:versions.exportTitle')}</span>
      </TabHeading>
      <p className="studio-note">{t('config-studio:versions.exportIntro')}</p>
      <div className="studio-export-row">
        <div>
          <label htmlFor="studio-export-source" className="form-label">
            {t('config-studio:versions.source')}
          </label>
          <select id="studio-export-source" className="form-select" value={source} onChange={(e) => setSource(e.target.value as 'published' | 'draft')}>
            <option value="published">{t('config-studio:versions.sourcePublished')}</option>
            <option value="draft">{t('config-studio:versions.sourceDraft')}</option>
          </select>
        </div>
        <Button variant="outline-primary" disabled={busy} onClick={() => void exportLayer()}>
          <i className="bi bi-download me-1" aria-hidden="true" />
          {t('config-studio:versions.export')}
        </Button>
      </div>
      <div className="studio-export-row">
        <div>
          <label htmlFor="studio-import-file" className="form-label">
            {t('config-studio:versions.importFile')}
          </label>
          <input
            id="studio-import-file"
            type="file"
            accept="application/json,.json"
            className={`form-control${fileError ? ' is-invalid' : ''}`}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? 'studio-import-file-error' : undefined}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setFileError(null);
            }}
          />
          {fileError && (
            <div id="studio-import-file-error" className="invalid-feedback d-block">
              {fileError}
            </div>
          )}
        </div>
        <Button variant="outline-primary" disabled={busy || !file} onClick={() => void importLayer()}>
          <i className="bi bi-upload me-1" aria-hidden="true" />
          {t('config-studio:versions.import')}
        </Button>
      </div>
    </section>
  );
}
