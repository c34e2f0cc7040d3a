/**
 * Raporty (issue 46): the reports (schemas/reports), a new one made from an existing one — its id
 * and its name in every language; it lives in the draft only until published — and a report's
 * name, measures (its columns), default grouping and period, filters, chart and roles. Only what
 * the report's source allows is offered (runtime/core/report-choices.ts, the rules the
 * configuration check applies). A report's document is saved whole (PUT /documents), its name as
 * a text (PUT /texts), a new one with POST /document.
 */
import { useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../../config/texts';
import {
  CHART_TYPES, PERIODS, dimensionsOf, measuresOf, type ReportDimension, type ReportMeasure, type ReportSource,
} from '../../../../core/report-choices';
import type { ReportFile } from '../../../../core/generated/meta';
import { copyOf } from '../edits';
import { Check, FieldProblems, LoadFailure, SaveBar, Spinner, TabHeading, useFieldProblems } from '../parts';
import type { DocumentInfo, Json } from '../studio-api';
import { useInDraft, useStudio, useStudioDocument } from '../StudioContext';
import { useEdited } from '../useEdited';

const FOLDER = 'schemas/reports';
const SLUG = /^[a-z][a-z0-9-]{0,59}$/;
const pathOf = (id: string) => `${FOLDER}/${id}.json`;
/** The key of a new report's name: beside the other reports' names. */
const labelKeyOf = (id: string) => `reports:list.${id}`;

/** A text of a namespace's document (the draft's texts, before they are published). */
function textIn(texts: Json | undefined, key: string): string | undefined {
  const [, path = ''] = key.split(':');
  const found = path.split('.').reduce<Json>((node, step) => (node && typeof node === 'object' ? node[step] : undefined), texts);
  return typeof found === 'string' ? found : undefined;
}

/** A list with an item ticked (added at its end: a measure's column comes last) or unticked. */
const toggled = <T,>(list: readonly T[], item: T, on: boolean): T[] => (on ? [...list.filter((x) => x !== item), item] : list.filter((x) => x !== item));

export default function ReportsTab() {
  const { t } = useTranslation();
  const { overview, scope } = useStudio();
  const reports = (overview?.documents ?? []).filter((d) => d.kind === 'report' && (!d.createdIn || d.createdIn.includes(scope) || d.createdIn.includes('base')));
  const [path, setPath] = useState('');
  // the names as the draft has them (a new report's name is not served before it is published)
  const { doc: names } = useStudioDocument('locales/pl/reports.json');
  const nameOf = (d: DocumentInfo, label?: string) => {
    const key = label ?? labelKeyOf(d.id);
    return (key.startsWith('reports:') ? textIn(names?.effective, key) : undefined) ?? t(key);
  };
  // another scope has other reports (a variant's own): the choice starts again
  useEffect(() => setPath(''), [scope]);
  // a report forgotten out of the draft is gone (a new one is chosen before the overview has it: kept)
  const listed = reports.some((d) => d.path === path);
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (listed) setSeen(true);
    else if (seen) {
      setPath('');
      setSeen(false);
    }
  }, [listed, seen]);

  return (
    <div className="studio-reports">
      <TabHeading>{t('config-studio:reports.title')}</TabHeading>
      <p className="studio-note">{t('config-studio:reports.intro')}</p>
      <NewReport reports={reports} nameOf={nameOf} onCreated={(created) => {
        setSeen(false);
        setPath(created);
      }} />
      <div className="studio-chooser">
        <label htmlFor="studio-report-choice" className="form-label">
          {t('config-studio:reports.choose')}
        </label>
        <select id="studio-report-choice" className="form-select" value={path} onChange={(e) => setPath(e.target.value)}>
          <option value="">{t('config-studio:choose')}</option>
          {reports.map((d) => (
            <option key={d.path} value={d.path}>
              {nameOf(d)} ({d.id}){d.createdIn ? ` — ${t('config-studio:reports.new')}` : ''}
            </option>
          ))}
        </select>
      </div>
      {path && listed && <ReportEditor path={path} />}
    </div>
  );
}

/** "Nowy raport na podstawie…": an existing report copied under a new id, with its name in each language. */
function NewReport({ reports, nameOf, onCreated }: { reports: DocumentInfo[]; nameOf(d: DocumentInfo): string; onCreated(path: string): void }) {
  const { t } = useTranslation();
  const { overview, scope, api, write } = useStudio();
  const languages = overview?.languages ?? [];
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState('');
  const [id, setId] = useState('');
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  const formId = useId();
  const taken = reports.some((d) => d.path === pathOf(id));
  const idProblem = !id ? t('config-studio:reports.idRequired') : !SLUG.test(id) ? t('config-studio:reports.idRule') : taken ? t('config-studio:reports.idTaken', { id }) : null;
  const missing = languages.filter((l) => !texts[l.id]?.trim());
  const ready = from && !idProblem && languages.length > 0 && missing.length === 0;

  const create = async () => {
    setTried(true);
    if (!ready) return;
    setBusy(true);
    const source = await api.document(scope, from).catch(() => null);
    if (!source) {
      setBusy(false);
      return;
    }
    const document = { ...copyOf(source.effective), report: id, label: labelKeyOf(id) };
    const [pl, ...others] = languages;
    const done = await write(
      () => api.createDocument({
        scope, path: pathOf(id), document,
        texts: [{ key: labelKeyOf(id), text: texts[pl.id].trim(), translations: Object.fromEntries(others.map((l) => [l.id, texts[l.id].trim()])) }],
      }),
      t('config-studio:reports.created'),
    );
    setBusy(false);
    if (done) {
      onCreated(pathOf(id));
      setOpen(false);
      setId('');
      setTexts({});
      setTried(false);
    }
  };

  if (!open) {
    return (
      <div className="studio-savebar">
        <Button variant="outline-primary" onClick={() => setOpen(true)}>
          <i className="bi bi-plus-lg me-1" aria-hidden="true" />
          {t('config-studio:reports.newFrom')}
        </Button>
      </div>
    );
  }
  return (
    <form
      className="studio-new-report"
      aria-labelledby={`${formId}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void create();
      }}
    >
      <h3 id={`${formId}-title`} className="h6">{t('config-studio:reports.newFrom')}</h3>
      <div className="studio-report-grid">
        <div>
          <label htmlFor={`${formId}-from`} className="form-label">{t('config-studio:reports.from')}</label>
          <select id={`${formId}-from`} className={`form-select${tried && !from ? ' is-invalid' : ''}`} value={from} onChange={(e) => setFrom(e.target.value)}>
            <option value="">{t('config-studio:choose')}</option>
            {reports.map((d) => (
              <option key={d.path} value={d.path}>{nameOf(d)} ({d.id})</option>
            ))}
          </select>
          {tried && !from && <div className="studio-field-problem">{t('config-studio:reports.fromRequired')}</div>}
        </div>
        <div>
          <label htmlFor={`${formId}-id`} className="form-label">{t('config-studio:reports.id')}</label>
          <input
            id={`${formId}-id`}
            className={`form-control${(tried || id) && idProblem ? ' is-invalid' : ''}`}
            value={id}
            autoCapitalize="off"
            spellCheck={false}
            aria-describedby={`${formId}-id-help`}
            aria-invalid={((tried || id) && idProblem) ? true : undefined}
            onChange={(e) => setId(e.target.value.trim())}
          />
          <div id={`${formId}-id-help`} className={(tried || id) && idProblem ? 'studio-field-problem' : 'form-text'}>
            {(tried || id) && idProblem ? idProblem : t('config-studio:reports.idHelp')}
          </div>
        </div>
        {languages.map((l) => (
          <div key={l.id}>
            <label htmlFor={`${formId}-name-${l.id}`} className="form-label">{t('config-studio:reports.nameIn', { language: l.name })}</label>
            <input
              id={`${formId}-name-${l.id}`}
              lang={l.id}
              className={`form-control${tried && !texts[l.id]?.trim() ? ' is-invalid' : ''}`}
              value={texts[l.id] ?? ''}
              onChange={(e) => setTexts((was) => ({ ...was, [l.id]: e.target.value }))}
            />
            {tried && !texts[l.id]?.trim() && <div className="studio-field-problem">{t('config-studio:reports.nameRequired')}</div>}
          </div>
        ))}
      </div>
      <div className="studio-savebar">
        <Button type="submit" variant="primary" disabled={busy}>{t('config-studio:reports.create')}</Button>
        <Button variant="outline-secondary" disabled={busy} onClick={() => setOpen(false)}>{t('config-studio:cancel')}</Button>
      </div>
    </form>
  );
}

type Report = ReportFile;

/** One report's settings, each offered from what its source allows. */
function ReportEditor({ path }: { path: string }) {
  const { t } = useTranslation();
  const { overview, scope, api, write, screen, revision } = useStudio();
  const { doc, loading, error } = useStudioDocument(path);
  const { edited, change, reset, dirty } = useEdited<Report>(doc?.effective as Report | undefined);
  const inDraft = useInDraft();
  const [busy, setBusy] = useState(false);
  const languages = overview?.languages ?? [];
  const labelKey = (doc?.effective as Report | undefined)?.label;
  const sourceLanguage = languages[0]?.id ?? '';
  const [names, setNames] = useState<Record<string, string>>({});
  const [savedNames, setSavedNames] = useState<Record<string, string>>({});
  useEffect(() => {
    if (!labelKey) return;
    const controller = new AbortController();
    const [ns] = labelKey.split(':');
    api.texts(scope, labelKey, ns, controller.signal).then(
      ({ items }) => {
        const item = items.find((i) => i.key === labelKey);
        const found: Record<string, string> = item ? { [sourceLanguage]: item.text, ...Object.fromEntries((item.translations ?? []).map((tr) => [tr.id, tr.text])) } : {};
        setNames(found);
        setSavedNames(found);
      },
      () => undefined,
    );
    return () => controller.abort();
  }, [api, scope, labelKey, revision, sourceLanguage]);
  // the roles a report may name: its meta-schema's (schemas/meta/report.schema.json)
  const [roles, setRoles] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    api.metaSchemas().then(
      ({ schemas }) => {
        const items = (schemas['meta/report'] as { properties?: { roles?: { items?: { enum?: string[] } } } } | undefined)?.properties?.roles?.items?.enum;
        if (live && items) setRoles(items);
      },
      () => undefined,
    );
    return () => void (live = false);
  }, [api]);
  const namesDirty = JSON.stringify(names) !== JSON.stringify(savedNames);
  const fieldId = useId();

  if (error) return <LoadFailure error={error} />;
  if (loading && !doc) return <Spinner />;
  if (!doc || !edited) return null;
  const source = edited.source as ReportSource;
  const measures = measuresOf(source);
  const dimensions = dimensionsOf(source);
  const dimensionLabel = (d: string) => t(edited.labels?.[d] ?? `reports:dimensions.${d}`);
  const measureLabel = (m: string) => t(edited.labels?.[m] ?? `reports:measures.${m}`);
  const roleLabel = (role: string) => t(`${screen.roleLabels}.${role}`);

  const setMeasures = (next: ReportMeasure[]) =>
    change((d) => {
      d.measures = next;
      if (d.chart && !next.includes(d.chart.measure)) d.chart.measure = next[0];
    });
  const setDimensions = (next: ReportDimension[]) =>
    change((d) => {
      d.dimensions = next;
      d.filters = (d.filters ?? []).filter((f) => next.includes(f));
      const groupBy = d.defaults.groupBy.filter((g) => next.includes(g));
      d.defaults.groupBy = groupBy.length ? groupBy : [next[0]];
    });
  const setGroupBy = (index: number, value: string) =>
    change((d) => {
      const groupBy = [...d.defaults.groupBy];
      if (value) groupBy[index] = value as ReportDimension;
      else groupBy.splice(index);
      d.defaults.groupBy = groupBy.filter((g, i) => groupBy.indexOf(g) === i).slice(0, 3);
    });

  const save = async () => {
    setBusy(true);
    let ok = true;
    if (dirty) ok = Boolean(await write(() => api.saveDocuments([{ scope, path: doc.path, document: edited as unknown as Record<string, unknown> }]), t('config-studio:saved')));
    if (ok && namesDirty && labelKey) {
      // the first language is the source (Polish), the others its translations
      const [first, ...rest] = languages;
      const others = Object.fromEntries(rest.map((l) => [l.id, names[l.id] ?? '']));
      await write(() => api.saveText(scope, labelKey, names[first?.id ?? ''] ?? '', others), t('config-studio:saved'));
    }
    setBusy(false);
  };
  const forget = async () => {
    setBusy(true);
    await write(() => api.forgetDocument(scope, doc.path), t('config-studio:forgotten'));
    setBusy(false);
  };

  return (
    <div className="studio-report" data-report={edited.report}>
      <p className="studio-note">
        {t('config-studio:reports.sourceIs', { source: t(`config-studio:reports.sources.${source}`) })}
        {doc.files === null && <> {t('config-studio:reports.onlyInDraft')}</>}
      </p>
      <fieldset className="studio-report-section">
        <legend className="studio-legend">{t('config-studio:reports.name')}</legend>
        <div className="studio-report-grid">
          {languages.map((l) => (
            <div key={l.id}>
              <label htmlFor={`${fieldId}-name-${l.id}`} className="form-label">{t('config-studio:reports.nameIn', { language: l.name })}</label>
              <input id={`${fieldId}-name-${l.id}`} lang={l.id} className="form-control" value={names[l.id] ?? ''} onChange={(e) => setNames((was) => ({ ...was, [l.id]: e.target.value }))} />
            </div>
          ))}
        </div>
      </fieldset>
      <Choices
        legend={t('config-studio:reports.measures')}
        pointer="/measures"
        layerPath={doc.layerPath}
        idPrefix={`${fieldId}-measure`}
        options={measures}
        chosen={edited.measures}
        label={measureLabel}
        onChange={(next) => setMeasures(next as ReportMeasure[])}
        keepOne
      />
      <Choices
        legend={t('config-studio:reports.dimensions')}
        pointer="/dimensions"
        layerPath={doc.layerPath}
        idPrefix={`${fieldId}-dimension`}
        options={dimensions}
        chosen={edited.dimensions}
        label={dimensionLabel}
        onChange={(next) => setDimensions(next as ReportDimension[])}
        keepOne
      />
      <fieldset className="studio-report-section">
        <legend className="studio-legend">{t('config-studio:reports.defaults')}</legend>
        <div className="studio-report-grid">
          {[0, 1, 2].map((i) =>
            i <= edited.defaults.groupBy.length && (i === 0 || edited.defaults.groupBy[i - 1]) ? (
              <div key={i}>
                <label htmlFor={`${fieldId}-group-${i}`} className="form-label">{t(i === 0 ? 'config-studio:reports.groupBy' : 'config-studio:reports.thenBy')}</label>
                <select id={`${fieldId}-group-${i}`} className="form-select" value={edited.defaults.groupBy[i] ?? ''} onChange={(e) => setGroupBy(i, e.target.value)}>
                  {i > 0 && <option value="">{t('config-studio:reports.noGrouping')}</option>}
                  {edited.dimensions.filter((d) => d === edited.defaults.groupBy[i] || !edited.defaults.groupBy.includes(d)).map((d) => (
                    <option key={d} value={d}>{dimensionLabel(d)}</option>
                  ))}
                </select>
              </div>
            ) : null,
          )}
          <div>
            <label htmlFor={`${fieldId}-period`} className="form-label">{t('config-studio:reports.period')}</label>
            <select id={`${fieldId}-period`} className="form-select" value={edited.defaults.period} onChange={(e) => change((d) => void (d.defaults.period = e.target.value as Report['defaults']['period']))}>
              {PERIODS.map((p) => (
                <option key={p} value={p}>{t(`reports:periods.${p}`)}</option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
      <Choices
        legend={t('config-studio:reports.filters')}
        pointer="/filters"
        layerPath={doc.layerPath}
        idPrefix={`${fieldId}-filter`}
        options={edited.dimensions}
        chosen={edited.filters ?? []}
        label={dimensionLabel}
        onChange={(next) => change((d) => void (d.filters = next as ReportDimension[]))}
      />
      <fieldset className="studio-report-section">
        <legend className="studio-legend">{t('config-studio:reports.chart')}</legend>
        <div className="studio-report-grid">
          <div>
            <label htmlFor={`${fieldId}-chart`} className="form-label">{t('config-studio:reports.chartType')}</label>
            <select
              id={`${fieldId}-chart`}
              className="form-select"
              value={edited.chart?.type ?? ''}
              onChange={(e) =>
                change((d) => {
                  if (!e.target.value) delete d.chart;
                  else d.chart = { ...(d.chart ?? { measure: d.measures[0] }), type: e.target.value as (typeof CHART_TYPES)[number] };
                })
              }
            >
              <option value="">{t('config-studio:reports.noChart')}</option>
              {CHART_TYPES.map((c) => (
                <option key={c} value={c}>{t(`config-studio:reports.chartTypes.${c}`)}</option>
              ))}
            </select>
          </div>
          {edited.chart && (
            <div>
              <label htmlFor={`${fieldId}-chart-measure`} className="form-label">{t('config-studio:reports.chartMeasure')}</label>
              <select id={`${fieldId}-chart-measure`} className="form-select" value={edited.chart.measure} onChange={(e) => change((d) => void (d.chart!.measure = e.target.value as ReportMeasure))}>
                {edited.measures.map((m) => (
                  <option key={m} value={m}>{measureLabel(m)}</option>
                ))}
              </select>
            </div>
          )}
        </div>
      </fieldset>
      <Choices
        legend={t('config-studio:reports.roles')}
        pointer="/roles"
        layerPath={doc.layerPath}
        idPrefix={`${fieldId}-role`}
        options={roles.length ? roles : edited.roles}
        chosen={edited.roles}
        label={roleLabel}
        onChange={(next) => change((d) => void (d.roles = next as Report['roles']))}
        keepOne
      />
      <SaveBar
        dirty={dirty || namesDirty}
        busy={busy}
        onSave={() => void save()}
        onReset={() => {
          reset();
          setNames(savedNames);
        }}
        inDraft={inDraft(doc.layerPath)}
        onForget={() => void forget()}
      />
    </div>
  );
}

/** Check boxes of a list of the declaration (measures, dimensions, filters, roles), with the problems the check found in it. */
function Choices({ legend, pointer, layerPath, idPrefix, options, chosen, label, onChange, keepOne }: {
  legend: string;
  pointer: string;
  layerPath: string;
  idPrefix: string;
  options: readonly string[];
  chosen: readonly string[];
  label(value: string): string;
  onChange(next: string[]): void;
  /** At least one stays chosen (the last one cannot be unticked). */
  keepOne?: boolean;
}) {
  const { t } = useTranslation();
  const problems = useFieldProblems(layerPath, pointer, true);
  return (
    <fieldset className="studio-report-section" aria-describedby={problems.id}>
      <legend className="studio-legend">{legend}</legend>
      <div className="studio-checks">
        {options.map((value) => {
          const on = chosen.includes(value);
          return (
            <Check
              key={value}
              id={`${idPrefix}-${value}`}
              label={label(value)}
              checked={on}
              onChange={(next) => {
                if (!next && keepOne && chosen.length === 1) return;
                onChange(toggled(chosen, value, next));
              }}
            />
          );
        })}
      </div>
      {keepOne && chosen.length === 1 && <p className="studio-note mb-0">{t('config-studio:reports.keepOne')}</p>}
      <FieldProblems problems={problems.list} id={problems.id} />
    </fieldset>
  );
}
