/**
 * Teksty: any text users see, found by the words on screen ("Nr rejestracyjny") or by its key,
 * optionally within one group of texts, named as the menu names its screens (the notification
 * templates first; the studio's own texts apart, and only when chosen). Each hit says where it is
 * shown in the words of the screens ("Dane pojazdu → kolumna"), its key beside it in small print,
 * its current text, the files' text when the layer changed it, and an input to change it (PUT
 * /texts, for the chosen scope). Beside the Polish text, the same text in each other language the
 * portal offers (issue 48), one input each, a language without its own text marked as missing;
 * one Zapisz saves them together.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../../config/texts';
import { FieldProblems, Empty, Spinner, TabHeading, useFieldProblems } from '../parts';
import { layerPathOf } from '../layer-path';
import { pointer } from '../pointers';
import type { TextHit } from '../studio-api';
import { useStudio } from '../StudioContext';

export default function TextsTab() {
  const { t } = useTranslation();
  const { api, scope, screen, overview, revision } = useStudio();
  const [q, setQ] = useState('');
  const [ns, setNs] = useState('');
  const [asked, setAsked] = useState<{ q: string; ns: string } | null>(null);
  const [hits, setHits] = useState<TextHit[] | null>(null);
  const [loading, setLoading] = useState(false);
  // the search call failed (e.g. a busy server's 503): said so, with a way to ask again — never "nothing found"
  const [failed, setFailed] = useState(false);
  const missingNote = useMissingNote();

  // the portal's texts by the names of their screens; the templates offered first (once), the studio's own apart
  const all = useMemo(() => overview?.namespaces ?? [], [overview]);
  const templates = all.filter((n) => !n.own && (screen.templateNamespaces ?? []).includes(n.id));
  const portal = all.filter((n) => !n.own && !templates.includes(n));
  const own = all.filter((n) => n.own);

  // the hits shown and the question they answer: after a save the same question is asked again,
  // and a text that no longer matches it (it was just changed) stays in the list, read by its key
  const shown = useRef<{ question: string; hits: TextHit[] }>({ question: '', hits: [] });
  useEffect(() => {
    if (!asked) return;
    const words = asked.q.trim() || (asked.ns ? `${asked.ns}:` : '');
    if (!words) return;
    const question = `${scope}\n${asked.ns}\n${words}`;
    const controller = new AbortController();
    const { signal } = controller;
    setLoading(true);
    setFailed(false);
    (async () => {
      let items = (await api.texts(scope, words, asked.ns, signal)).items;
      const before = shown.current.question === question ? shown.current.hits : [];
      const missing = before.filter((h) => !items.some((i) => i.key === h.key)).slice(0, 20);
      if (missing.length) {
        const again = await Promise.all(missing.map((h) => api.texts(scope, h.key, asked.ns, signal).then((a) => a.items.find((i) => i.key === h.key), () => undefined)));
        const byKey = new Map([...items, ...again.filter((h): h is TextHit => Boolean(h))].map((h) => [h.key, h]));
        items = [...before.map((h) => byKey.get(h.key)).filter((h): h is TextHit => Boolean(h)), ...items.filter((i) => !before.some((h) => h.key === i.key))];
      }
      shown.current = { question, hits: items };
      setHits(items);
      setLoading(false);
    })().catch(() => {
      if (!signal.aborted) {
        setHits(null);
        setFailed(true);
        setLoading(false);
      }
    });
    return () => controller.abort();
  }, [api, scope, asked, revision]);

  return (
    <div className="studio-texts">
      <TabHeading>{t('config-studio:texts.title')}</TabHeading>
      <p className="studio-note">{t('config-studio:texts.intro')}</p>
      <form
        className="studio-search"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked({ q, ns });
        }}
      >
        <div className="studio-search-words">
          <label htmlFor="studio-texts-q" className="form-label">
            {t('config-studio:texts.search')}
          </label>
          <input id="studio-texts-q" className="form-control" type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('config-studio:texts.searchPlaceholder')} />
        </div>
        <div className="studio-search-ns">
          <label htmlFor="studio-texts-ns" className="form-label">
            {t('config-studio:texts.namespace')}
          </label>
          <select id="studio-texts-ns" className="form-select" value={ns} onChange={(e) => setNs(e.target.value)}>
            <option value="">{t('config-studio:texts.allNamespaces')}</option>
            {templates.length > 0 && (
              <optgroup label={t('config-studio:texts.templates')}>
                {templates.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.name}
                  </option>
                ))}
              </optgroup>
            )}
            <optgroup label={t('config-studio:texts.namespaces')}>
              {portal.map((n) => (
                <option key={n.id} value={n.id}>
                  {n.name}
                </option>
              ))}
            </optgroup>
            {own.length > 0 && (
              <optgroup label={t('config-studio:texts.own')}>
                {own.map((n) => (
                  <option key={n.id} value={n.id}>
                    {n.name}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
        <Button type="submit" variant="primary" className="studio-search-button">
          <i className="bi bi-search me-1" aria-hidden="true" />
          {t('config-studio:texts.find')}
        </Button>
      </form>
      {loading && !hits && <Spinner />}
      {failed && !loading && (
        <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2" data-testid="studio-texts-failed">
          <span>{t('config-studio:texts.failed')}</span>
          <Button size="sm" variant="outline-primary" onClick={() => setAsked((a) => (a ? { ...a } : a))}>
            {t('config-studio:texts.again')}
          </Button>
        </Alert>
      )}
      {hits && hits.length === 0 && <Empty text={t('config-studio:texts.none')} />}
      {hits && hits.length > 0 && (
        <>
          <p className="studio-note" aria-live="polite">
            {t('config-studio:texts.found', { count: hits.length })}
            {missingNote(hits) && ` ${missingNote(hits)}`}
          </p>
          <ul className="studio-text-list">
            {hits.map((hit) => (
              <TextRow key={hit.key} hit={hit} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** "Brak tłumaczenia: English (2), Українська (1)": the found texts a language lacks, by language. */
function useMissingNote() {
  const { t } = useTranslation();
  const { overview } = useStudio();
  return (hits: TextHit[]): string => {
    const counts = new Map<string, number>();
    for (const hit of hits) for (const tr of hit.translations ?? []) if (tr.missing) counts.set(tr.id, (counts.get(tr.id) ?? 0) + 1);
    if (!counts.size) return '';
    const name = (id: string) => overview?.languages.find((l) => l.id === id)?.name ?? id;
    return t('config-studio:texts.missingIn', { languages: [...counts].map(([id, n]) => `${name(id)} (${n})`).join(', ') });
  };
}

function TextRow({ hit }: { hit: TextHit }) {
  const { t } = useTranslation();
  const { api, scope, write, overview } = useStudio();
  const [value, setValue] = useState(hit.text);
  // the other languages' texts as typed, by language (issue 48)
  const theirs = useMemo(() => Object.fromEntries(hit.translations.map((tr) => [tr.id, tr.text])), [hit.translations]);
  const [translations, setTranslations] = useState<Record<string, string>>(theirs);
  const [busy, setBusy] = useState(false);
  useEffect(() => setValue(hit.text), [hit.text]);
  useEffect(() => setTranslations(theirs), [theirs]);
  const ns = hit.key.slice(0, hit.key.indexOf(':'));
  const path = hit.key.slice(hit.key.indexOf(':') + 1).split('.');
  const problems = useFieldProblems(layerPathOf(scope, `locales/pl/${ns}.json`), pointer(...path), true);
  const inputId = `studio-text-${hit.key.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const languages = overview?.languages ?? [];
  const nameOf = (id: string) => languages.find((l) => l.id === id)?.name ?? id;
  const changedTranslations = Object.fromEntries(Object.entries(translations).filter(([id, text]) => text !== theirs[id]));
  const dirty = value !== hit.text || Object.keys(changedTranslations).length > 0;
  const save = async () => {
    setBusy(true);
    await write(() => api.saveText(scope, hit.key, value, changedTranslations), t('config-studio:texts.saved'));
    setBusy(false);
  };
  return (
    <li className="studio-text" data-key={hit.key}>
      <div className="studio-text-head">
        <ul className="studio-places" aria-label={t('config-studio:texts.places')} data-testid="text-places">
          {hit.places.map((place) => (
            <li key={place}>{place}</li>
          ))}
        </ul>
        {hit.changed && <span className="badge text-bg-info">{t('config-studio:changedBadge')}</span>}
      </div>
      <div className="studio-key-line">
        {t('config-studio:texts.key')} <code className="studio-key">{hit.key}</code>
      </div>
      {hit.changed && (
        <div className="studio-files-text">
          {t('config-studio:texts.filesText')} <q>{hit.filesText}</q>
        </div>
      )}
      <form
        className={`studio-text-edit${hit.translations.length ? ' studio-text-languages' : ''}`}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="studio-text-language" data-language={languages[0]?.id}>
          {hit.translations.length > 0 && (
            <span className="studio-language-name" aria-hidden="true">
              {languages[0]?.name}
            </span>
          )}
          <label htmlFor={inputId} className="visually-hidden">
            {t('config-studio:texts.newText', { place: hit.places[0] ?? hit.key, text: hit.text })}
          </label>
          <input
            id={inputId}
            className={`form-control${problems.invalid ? ' is-invalid' : ''}`}
            value={value}
            aria-invalid={problems.invalid || undefined}
            aria-describedby={problems.id}
            onChange={(e) => setValue(e.target.value)}
          />
        </div>
        {hit.translations.map((tr) => (
          <div className="studio-text-language" data-language={tr.id} data-missing={tr.missing || undefined} key={tr.id}>
            <label htmlFor={`${inputId}-${tr.id}`} className="studio-language-name">
              <span className="visually-hidden">{t('config-studio:texts.newTextIn', { place: hit.places[0] ?? hit.key })} </span>
              {nameOf(tr.id)}
              {tr.missing && <span className="badge text-bg-warning ms-2">{t('config-studio:texts.missing')}</span>}
            </label>
            <input
              id={`${inputId}-${tr.id}`}
              className="form-control"
              value={translations[tr.id] ?? ''}
              placeholder={tr.missing ? hit.text : undefined}
              onChange={(e) => setTranslations((all) => ({ ...all, [tr.id]: e.target.value }))}
            />
          </div>
        ))}
        <Button type="submit" variant="outline-primary" disabled={busy || !dirty}>
          {t('config-studio:save')}
        </Button>
      </form>
      <FieldProblems problems={problems.list} id={problems.id} />
    </li>
  );
}
