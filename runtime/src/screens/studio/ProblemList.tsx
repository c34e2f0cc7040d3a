/**
 * What the server refused, above the tabs: every problem of the checks with the place in words,
 * its file and JSON pointer and the message (each is also shown beside its field in the tab);
 * the layer's broken entries (a key or id the files no longer have); another analyst's
 * publication that made the draft stale, with its changes and the rebase.
 */
import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import { placeOf, reasonOf, whereInWords } from './pointers';
import type { Problem } from './studio-api';
import { useStudio } from './StudioContext';

function ProblemItems({ problems }: { problems: Problem[] }) {
  return (
    <ul className="studio-problem-list">
      {problems.map((p, i) => {
        const place = placeOf(p);
        return (
          <li key={i} data-pointer={place.pointer}>
            <span className="studio-problem-where">{whereInWords(p) || place.layerPath}</span>
            {': '}
            <span className="studio-problem-message">{reasonOf(p)}</span>
            <span className="studio-problem-place">
              {place.layerPath}
              {place.pointer && (
                <>
                  {' '}
                  <code>{place.pointer}</code>
                </>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

export function ProblemList() {
  const { t } = useTranslation();
  const { problems } = useStudio();
  const list = useRef<HTMLElement>(null);
  // a refused change is said where the eye and the screen reader are taken: the list, then each field
  useEffect(() => {
    if (problems.length) list.current?.focus();
  }, [problems]);
  if (!problems.length) return null;
  return (
    <section ref={list} tabIndex={-1} className="alert alert-danger studio-problems" aria-labelledby="studio-problems-title" data-testid="problem-list">
      <h2 id="studio-problems-title" className="h6">
        {t('config-studio:problems.title', { count: problems.length })}
      </h2>
      <ProblemItems problems={problems} />
    </section>
  );
}

export function BrokenList() {
  const { t } = useTranslation();
  const { overview } = useStudio();
  const [open, setOpen] = useState(false);
  const broken = overview?.broken ?? [];
  if (!broken.length) return null;
  return (
    <section className="alert alert-warning studio-broken" aria-labelledby="studio-broken-title">
      <div className="d-flex flex-wrap align-items-center gap-2">
        <h2 id="studio-broken-title" className="h6 mb-0">
          {t('config-studio:broken.title', { count: broken.length })}
        </h2>
        <Button variant="link" size="sm" className="p-0" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('config-studio:broken.hide') : t('config-studio:broken.show')}
        </Button>
      </div>
      {open && <ProblemItems problems={broken} />}
    </section>
  );
}

export function ConflictPanel() {
  const { t } = useTranslation();
  const { conflict, clearConflict, write, api } = useStudio();
  const [busy, setBusy] = useState(false);
  if (!conflict) return null;
  const rebase = async () => {
    setBusy(true);
    await write(() => api.rebase(), t('config-studio:stale.rebased'));
    setBusy(false);
  };
  return (
    <section className="alert alert-warning studio-conflict" aria-labelledby="studio-conflict-title" data-testid="conflict">
      <h2 id="studio-conflict-title" className="h6">
        {conflict.published
          ? t('config-studio:stale.title', { author: conflict.published.author })
          : t('config-studio:stale.titleUnknown')}
      </h2>
      {conflict.changes.length > 0 && (
        <ul className="studio-change-list">
          {conflict.changes.map((c, i) => (
            <li key={i}>{c.text}</li>
          ))}
        </ul>
      )}
      <div className="d-flex flex-wrap gap-2">
        <Button variant="warning" disabled={busy} onClick={() => void rebase()}>
          {t('config-studio:stale.rebase')}
        </Button>
        <Button variant="outline-secondary" onClick={clearConflict}>
          {t('app:close')}
        </Button>
      </div>
    </section>
  );
}
