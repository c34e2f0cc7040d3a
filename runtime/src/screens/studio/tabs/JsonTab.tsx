/**
 * JSON: any document of the studio (the overview's DocumentInfo) in the JSON editor (CodeMirror,
 * loaded lazily), checked while typing against its meta-schema and marked with the server's
 * problems of the last refused save. The meta-schemas come from the server (GET meta-schemas, the
 * files it checks with), read once, and are bundled into one schema for the editor.
 */
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../../config/texts';
import { bundleSchema } from '../json-editor/bundle-schema';
import { DocumentSelect, FieldProblems, LoadFailure, SaveBar, Spinner, TabHeading } from '../parts';
import { placeOf, problemsAt } from '../pointers';
import type { DocumentInfo, StudioApi } from '../studio-api';
import { useInDraft, useStudio, useStudioDocument } from '../StudioContext';

const JsonEditor = lazy(() => import('../json-editor/JsonEditor'));

/** The meta-schema of a document: a screen's by its type (meta/<type>, else meta/screen), a report's meta/report; locales and schemas have none here. */
export function metaIdOf(doc: DocumentInfo | undefined, available: string[]): string | null {
  if (doc?.kind === 'report') return available.includes('meta/report') ? 'meta/report' : null;
  if (!doc || doc.kind !== 'screen') return null;
  if (doc.type && available.includes(`meta/${doc.type}`)) return `meta/${doc.type}`;
  return available.includes('meta/screen') ? 'meta/screen' : null;
}

/** The meta-schemas, read once per studio API. */
const metaSchemas = new WeakMap<StudioApi, Promise<Record<string, Record<string, unknown>>>>();
function loadMetaSchemas(api: StudioApi) {
  let loading = metaSchemas.get(api);
  if (!loading) {
    loading = api.metaSchemas().then((answer) => answer.schemas);
    // a failure is not kept: the next document asks again
    loading.catch(() => metaSchemas.delete(api));
    metaSchemas.set(api, loading);
  }
  return loading;
}

export default function JsonTab() {
  const { t } = useTranslation();
  const { overview, scope, api, write, problems } = useStudio();
  const documents = overview?.documents ?? [];
  const [path, setPath] = useState('');
  const { doc, loading, error } = useStudioDocument(path || null);
  const [text, setText] = useState('');
  const [parseError, setParseError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [schema, setSchema] = useState<object | undefined>(undefined);
  const inDraft = useInDraft();
  const info = documents.find((d) => d.path === path);
  const [metaIds, setMetaIds] = useState<string[]>([]);
  const metaId = metaIdOf(info, metaIds);

  const original = useMemo(() => (doc ? JSON.stringify(doc.effective, null, 2) : ''), [doc]);
  useEffect(() => {
    setText(original);
    setParseError(null);
  }, [original]);

  useEffect(() => {
    let live = true;
    setSchema(undefined);
    if (!info || (info.kind !== 'screen' && info.kind !== 'report')) return;
    loadMetaSchemas(api).then(
      (all) => {
        if (!live) return;
        setMetaIds(Object.keys(all));
        const id = metaIdOf(info, Object.keys(all));
        if (id) setSchema(bundleSchema(id, all));
      },
      // without its meta-schema the editor still checks the JSON; the server checks the rest at save
      () => undefined,
    );
    return () => void (live = false);
  }, [api, info]);

  const editorProblems = useMemo(
    () => (doc ? problemsAt(problems, doc.layerPath, '', true).map((p) => ({ pointer: placeOf(p).pointer, message: p.message })) : []),
    [problems, doc],
  );

  const save = async () => {
    if (!doc) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (e) {
      setParseError(t('config-studio:json.parseError', { message: (e as Error).message }));
      return;
    }
    setParseError(null);
    setBusy(true);
    await write(() => api.saveDocuments([{ scope, path: doc.path, document: parsed as Record<string, unknown> }]), t('config-studio:saved'));
    setBusy(false);
  };
  const forget = async () => {
    if (!doc) return;
    setBusy(true);
    await write(() => api.forgetDocument(scope, doc.path), t('config-studio:forgotten'));
    setBusy(false);
  };

  return (
    <div className="studio-json">
      <TabHeading>{t('config-studio:json.title')}</TabHeading>
      <DocumentSelect id="studio-json-choice" label={t('config-studio:json.choose')} documents={documents} value={path} onChange={setPath} describe={(d) => d.path} />
      {loading && !doc && <Spinner />}
      {error ? <LoadFailure error={error} /> : null}
      {doc && (
        <>
          <p className="studio-note">
            {t('config-studio:json.layer', { path: doc.layerPath })}
            {metaId ? ` ${t('config-studio:json.meta', { meta: metaId })}` : ` ${t('config-studio:json.noMeta')}`}
          </p>
          <Suspense fallback={<Spinner text={t('config-studio:json.loadingEditor')} />}>
            <JsonEditor value={text} onChange={setText} schema={schema} problems={editorProblems} ariaLabel={t('config-studio:json.editorLabel', { path: doc.path })} />
          </Suspense>
          {parseError && <FieldProblems problems={[{ field: doc.layerPath, message: parseError }]} />}
          <SaveBar dirty={text !== original} busy={busy} onSave={() => void save()} onReset={() => setText(original)} inDraft={inDraft(doc.layerPath)} onForget={() => void forget()} changed={doc.changed} onFiles={() => setText(JSON.stringify(doc.files, null, 2))} />
        </>
      )}
    </div>
  );
}
