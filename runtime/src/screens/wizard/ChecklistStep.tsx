/**
 * A `checklist` step of a wizard (issue 47): a vehicle inspection walked on the phone. The vehicle's
 * checklists come from the step's `templates` endpoint (screens/inspections.json, texts in the
 * user's language, which one is due); the step fills the wizard's record — the checklist, its
 * occasion, the odometer, the remarks and one answer per item, each in the field the step's
 * `fields` and `answer` name (issue 45: the runtime names no field of a resource) — and the list of
 * photos of failed items, each photo's File kept beside its list item (never in the data) for the
 * wizard's multipart follow-up. Every item is three big toggles (pass / defect / n.a.); a tyre's
 * tread depth is typed, and below its legal minimum the item is a defect. A failed item that needs a
 * photo opens the rear camera; each photo is scaled and its EXIF removed before it is kept
 * (forms/photos.ts). The wizard's save validates the step (every item answered, the measures, the
 * photos, the odometer) and the server checks the same again.
 */
import { useEffect, useId, useImperativeHandle, useMemo, useState, type RefObject } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useTranslation } from '../../config/texts';
import { api, errorText } from '../../api/client';
import type { WizardDecl } from '../../config/bundle';
import { CAMERA, preparePhoto } from '../../forms/photos';
import { formatNumber } from '../../format';
import type { InspectionTemplates } from '../../../core/generated/api';
import type { ItemFiles } from './follow-ups';
import type { StepHandle } from './step-handle';
import { getPath, setPath, type Data } from './wizard-logic';

type Template = InspectionTemplates['templates'][number];
type Item = Template['groups'][number]['items'][number];
type Verdict = 'pass' | 'fail' | 'na';
/** An answer as the step works with it; in the record its fields have the names `answer` declares. */
interface Answer { item: string; verdict?: Verdict; value?: number | null; notes?: string | null; photos?: number }
/** A photo of the data's list: the file's name and, under the name `answer.item` declares, its item. */
type Photo = Record<string, string>;

export type ChecklistDecl = NonNullable<WizardDecl['steps'][number]['checklist']>;

/** An answer of the record read by the names the step declares. */
export function answerFrom(raw: Data, names: ChecklistDecl['answer']): Answer {
  return {
    item: raw[names.item] as string,
    verdict: raw[names.verdict] as Verdict | undefined,
    value: raw[names.value] as number | null | undefined,
    notes: raw[names.notes] as string | null | undefined,
    photos: raw[names.photos] as number | undefined,
  };
}

/** An answer as the record keeps it, under the names the step declares (what it does not say is left out). */
export function answerTo(answer: Answer, names: ChecklistDecl['answer']): Data {
  const pairs: [string, unknown][] = [[names.item, answer.item], [names.verdict, answer.verdict], [names.value, answer.value], [names.notes, answer.notes], [names.photos, answer.photos]];
  return Object.fromEntries(pairs.filter(([, v]) => v !== undefined));
}

/** An item's problems before the save (its answer, its measure, its photo), as text keys with values. */
export function itemProblem(item: Item, answer: Answer | undefined, photos: number): { key: string; vars?: Record<string, unknown> } | null {
  if (!answer?.verdict) return { key: 'inspection:wizard.unansweredItem' };
  const m = item.measure;
  if (m && answer.verdict !== 'na') {
    const v = answer.value;
    if (v === undefined || v === null || Number.isNaN(v)) return { key: 'inspection:errors.measureRequired', vars: { item: item.label } };
    if (v < m.min || v > m.max) return { key: 'inspection:errors.measureRange', vars: { item: item.label, min: formatNumber(m.min), max: formatNumber(m.max), unit: m.unit } };
    if (answer.verdict === 'pass' && m.failBelow != null && v < m.failBelow) return { key: 'inspection:errors.belowMinimum', vars: { item: item.label, min: formatNumber(m.failBelow), unit: m.unit } };
  }
  if (answer.verdict === 'fail' && item.photoWhenFailed && photos === 0) return { key: 'inspection:errors.photoRequired', vars: { item: item.label } };
  return null;
}

/** Which checklist to walk: the one named, else the due one, else the one of the occasion, else the first. */
export function chooseTemplate(templates: Template[], named?: unknown, occasion?: unknown): Template | undefined {
  return templates.find((c) => c.id === named)
    ?? templates.find((c) => c.due)
    ?? templates.find((c) => typeof occasion === 'string' && occasion !== 'adhoc' && (c.occasions as string[]).includes(occasion))
    ?? templates[0];
}

export function ChecklistStep({ decl, screen, data, itemFiles, onChange, handle }: {
  decl: ChecklistDecl;
  screen: WizardDecl;
  data: Data;
  itemFiles: ItemFiles;
  onChange: (update: (data: Data) => Data) => void;
  handle: RefObject<StepHandle | null>;
}) {
  const { t } = useTranslation();
  const baseId = useId();
  const recordPath = screen.record;
  const record = (getPath(data, recordPath) as Data | undefined) ?? {};
  const vehicleId = record[decl.vehicle] as number | undefined;
  const [templates, setTemplates] = useState<Template[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [showErrors, setShowErrors] = useState(false);
  const [preparing, setPreparing] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);

  const f = decl.fields;
  const names = decl.answer;
  const answersPath = `${recordPath}.${f.answers}`;
  const answersIn = (d: Data) => ((getPath(d, answersPath) as Data[] | undefined) ?? []).map((raw) => answerFrom(raw, names));
  const answers = answersIn(data);
  const photos = (getPath(data, decl.photos) as Photo[] | undefined) ?? [];
  const chosen = record[f.template];
  const template = templates ? chooseTemplate(templates, chosen, record[f.occasion]) : undefined;
  const items = useMemo(() => template?.groups.flatMap((g) => g.items) ?? [], [template]);
  const answerOf = (id: string) => answers.find((a) => a.item === id);
  const photosOf = (id: string) => photos.filter((p) => p[names.item] === id);

  useEffect(() => {
    if (!vehicleId) return;
    let gone = false;
    api.get<InspectionTemplates>(`${decl.templates}?${encodeURIComponent(decl.vehicle)}=${encodeURIComponent(String(vehicleId))}`, { quiet: true })
      .then((answer) => !gone && setTemplates(answer.templates))
      .catch((e) => !gone && setLoadError(errorText(e)));
    return () => {
      gone = true;
    };
  }, [decl.templates, decl.vehicle, vehicleId]);

  // the chosen checklist and its occasion go into the record (the due one is a periodic inspection)
  useEffect(() => {
    if (!template || chosen === template.id) return;
    onChange((d) => {
      let next = setPath(d, `${recordPath}.${f.template}`, template.id);
      if (!getPath(d, `${recordPath}.${f.occasion}`)) next = setPath(next, `${recordPath}.${f.occasion}`, template.due ? 'periodic' : 'adhoc');
      return setPath(next, answersPath, []);
    });
  }, [template, chosen, f.template, f.occasion, recordPath, answersPath, onChange]);

  const setAnswer = (id: string, change: Partial<Answer>) =>
    onChange((d) => {
      const list = answersIn(d).filter((a) => a.item !== id);
      const before = answersIn(d).find((a) => a.item === id) ?? { item: id };
      const after: Answer = { ...before, ...change };
      // a tyre below its legal minimum is a defect, whatever was pressed before
      const item = items.find((i) => i.id === id);
      const m = item?.measure;
      if (m?.failBelow != null && typeof after.value === 'number' && after.value < m.failBelow && after.verdict !== 'na') after.verdict = 'fail';
      if (after.verdict !== 'fail') after.photos = 0;
      return setPath(d, answersPath, [...list, after].map((a) => answerTo(a, names)));
    });

  const addPhoto = async (id: string, chosen: File | undefined) => {
    if (!chosen) return;
    setPhotoError(null);
    setPreparing(id);
    let file: File;
    try {
      file = await preparePhoto(chosen);
    } catch {
      setPreparing(null);
      setPhotoError(id);
      return;
    }
    setPreparing(null);
    const photo: Photo = { [names.item]: id, file: file.name };
    itemFiles.set(photo, new Map([['file', file]]));
    onChange((d) => {
      const list = [...((getPath(d, decl.photos) as Photo[] | undefined) ?? []), photo];
      const count = list.filter((p) => p[names.item] === id).length;
      const answersNow = answersIn(d).map((a) => answerTo(a.item === id ? { ...a, photos: count } : a, names));
      return setPath(setPath(d, decl.photos, list), answersPath, answersNow);
    });
  };

  const removePhoto = (photo: Photo) =>
    onChange((d) => {
      const list = ((getPath(d, decl.photos) as Photo[] | undefined) ?? []).filter((p) => p !== photo);
      const count = list.filter((p) => p[names.item] === photo[names.item]).length;
      const answersNow = answersIn(d).map((a) => answerTo(a.item === photo[names.item] ? { ...a, photos: count } : a, names));
      return setPath(setPath(d, decl.photos, list), answersPath, answersNow);
    });

  const odometer = record[f.odometer];
  const odometerMissing = !!template?.odometer && (odometer === undefined || odometer === null || odometer === '');
  const problems = items.map((i) => ({ item: i, problem: itemProblem(i, answerOf(i.id), photosOf(i.id).length) })).filter((p) => p.problem);
  const answered = items.filter((i) => answerOf(i.id)?.verdict).length;
  const failedCount = items.filter((i) => answerOf(i.id)?.verdict === 'fail').length;

  useImperativeHandle(handle, () => ({
    validate: () => {
      setShowErrors(true);
      const ok = !!template && problems.length === 0 && !odometerMissing;
      if (!ok) {
        // the first thing to fix comes into view
        const first = odometerMissing ? `${baseId}-odometer` : problems[0] ? `${baseId}-${problems[0].item.id}` : null;
        if (first) document.getElementById(first)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      }
      return ok;
    },
  }), [template, problems, odometerMissing, baseId]);

  if (!vehicleId) return <Alert variant="warning">{t('inspection:wizard.noVehicle')}</Alert>;
  if (loadError) return <Alert variant="danger">{loadError}</Alert>;
  if (!templates || !template) return <p className="text-secondary" role="status">{t('inspection:wizard.loading')}</p>;

  const verdicts: { value: Verdict; key: 'inspection:answers.pass' | 'inspection:answers.fail' | 'inspection:answers.na'; variant: string; icon: string }[] = [
    { value: 'pass', key: 'inspection:answers.pass', variant: 'success', icon: 'check-lg' },
    { value: 'fail', key: 'inspection:answers.fail', variant: 'danger', icon: 'x-lg' },
    { value: 'na', key: 'inspection:answers.na', variant: 'secondary', icon: 'dash-lg' },
  ];

  return (
    <div className="checklist" data-checklist={template.id}>
      {templates.length > 1 && (
        <Form.Group className="mb-3" controlId={`${baseId}-template`}>
          <Form.Label>{t('inspection:wizard.choose')}</Form.Label>
          <Form.Select
            value={template.id}
            onChange={(e) => onChange((d) => setPath(setPath(setPath(d, `${recordPath}.${f.template}`, e.target.value), answersPath, []), decl.photos, []))}
          >
            {templates.map((c) => (
              <option key={c.id} value={c.id}>{c.due ? `${c.label} (${t('inspection:wizard.due')})` : c.label}</option>
            ))}
          </Form.Select>
        </Form.Group>
      )}
      <div className="checklist-progress sticky-top bg-body py-2 mb-2 d-flex justify-content-between small border-bottom" aria-live="polite">
        <span>{t('inspection:wizard.progress', { done: answered, total: items.length })}</span>
        {failedCount > 0 && <span className="text-danger fw-semibold">{t('inspection:wizard.failedCount', { count: failedCount })}</span>}
      </div>
      {template.odometer && (
        <Form.Group className="mb-3" controlId={`${baseId}-odometer`}>
          <Form.Label className="fw-semibold">{t('inspection:wizard.odometer')}</Form.Label>
          <Form.Control
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            size="lg"
            required
            value={odometer === undefined || odometer === null ? '' : String(odometer)}
            isInvalid={showErrors && odometerMissing}
            onChange={(e) => onChange((d) => setPath(d, `${recordPath}.${f.odometer}`, e.target.value === '' ? undefined : Math.trunc(Number(e.target.value))))}
          />
          <Form.Control.Feedback type="invalid">{t('inspection:errors.odometerRequired')}</Form.Control.Feedback>
        </Form.Group>
      )}
      {template.groups.map((group) => (
        <fieldset key={group.id} className="checklist-group mb-3" data-group={group.id}>
          <legend className="h6 border-bottom pb-1">{group.label}</legend>
          {group.items.map((item) => {
            const answer = answerOf(item.id);
            const problem = showErrors ? itemProblem(item, answer, photosOf(item.id).length) : null;
            const itemId = `${baseId}-${item.id}`;
            const shown = item.measure && answer?.verdict !== 'na';
            return (
              <div key={item.id} id={itemId} className={`checklist-item py-2${problem ? ' checklist-item-invalid' : ''}`} data-item={item.id} data-answer={answer?.verdict ?? ''}>
                <div className="fw-semibold mb-1" id={`${itemId}-label`}>{item.label}</div>
                <div className="checklist-verdicts btn-group w-100" role="radiogroup" aria-labelledby={`${itemId}-label`}>
                  {verdicts.filter((v) => v.value !== 'na' || item.notApplicable).map((v) => (
                    <Button
                      key={v.value}
                      role="radio"
                      aria-checked={answer?.verdict === v.value}
                      variant={answer?.verdict === v.value ? v.variant : `outline-${v.variant}`}
                      className="checklist-verdict"
                      data-verdict={v.value}
                      onClick={() => setAnswer(item.id, { verdict: v.value })}
                    >
                      <i className={`bi bi-${v.icon} me-1`} aria-hidden="true" />
                      {t(v.key)}
                    </Button>
                  ))}
                </div>
                {shown && item.measure && (
                  <Form.Group className="mt-2" controlId={`${itemId}-measure`}>
                    <Form.Label className="small mb-1">{item.measure.label} ({item.measure.unit})</Form.Label>
                    <Form.Control
                      type="number"
                      inputMode="decimal"
                      min={item.measure.min}
                      max={item.measure.max}
                      step={item.measure.step}
                      value={answer?.value === undefined || answer?.value === null ? '' : String(answer.value)}
                      onChange={(e) => setAnswer(item.id, { value: e.target.value === '' ? null : Number(e.target.value.replace(',', '.')) })}
                    />
                    {item.measure.failBelow != null && typeof answer?.value === 'number' && answer.value < item.measure.failBelow && (
                      <div className="form-text text-danger">{t('inspection:wizard.belowMinimum', { min: formatNumber(item.measure.failBelow), unit: item.measure.unit })}</div>
                    )}
                  </Form.Group>
                )}
                {answer?.verdict === 'fail' && (
                  <div className="checklist-failure mt-2 ps-2 border-start border-3 border-danger">
                    {item.opens === 'damage' && <div className="small text-danger mb-1">{t('inspection:wizard.opensDamage')}</div>}
                    {item.opens === 'serviceOrder' && <div className="small text-danger mb-1">{t('inspection:wizard.opensOrder')}</div>}
                    <Form.Group className="mb-2" controlId={`${itemId}-note`}>
                      <Form.Label className="small mb-1">{t('inspection:wizard.note')}</Form.Label>
                      <Form.Control
                        as="textarea"
                        rows={2}
                        maxLength={500}
                        placeholder={t('inspection:wizard.notePlaceholder')}
                        value={answer.notes ?? ''}
                        onChange={(e) => setAnswer(item.id, { notes: e.target.value })}
                      />
                    </Form.Group>
                    <ul className="list-unstyled mb-2 checklist-photos">
                      {photosOf(item.id).map((p, i) => (
                        <li key={`${p.file}-${i}`} className="d-flex align-items-center gap-2 small">
                          <i className="bi bi-image" aria-hidden="true" />
                          <span className="text-truncate">{p.file}</span>
                          <Button variant="link" size="sm" className="text-danger p-0 ms-auto" aria-label={t('inspection:wizard.removePhoto', { name: p.file })} onClick={() => removePhoto(p)}>
                            <i className="bi bi-trash" aria-hidden="true" />
                          </Button>
                        </li>
                      ))}
                    </ul>
                    <label className={`btn btn-outline-primary w-100 checklist-photo${preparing === item.id ? ' disabled' : ''}`}>
                      <i className="bi bi-camera me-1" aria-hidden="true" />
                      {preparing === item.id ? t('attachment:photo.preparing') : t(photosOf(item.id).length ? 'inspection:wizard.addPhoto' : 'inspection:wizard.takePhoto')}
                      <input
                        type="file"
                        accept="image/*"
                        capture={CAMERA}
                        className="visually-hidden"
                        data-photo-for={item.id}
                        disabled={preparing !== null}
                        onChange={(e) => {
                          void addPhoto(item.id, e.target.files?.[0]);
                          e.target.value = '';
                        }}
                      />
                    </label>
                    {photoError === item.id && <div className="small text-danger mt-1" role="alert">{t('attachment:photo.failed')}</div>}
                  </div>
                )}
                {problem && <div className="small text-danger mt-1" role="alert">{t(problem.key as never, problem.vars)}</div>}
              </div>
            );
          })}
        </fieldset>
      ))}
      <Form.Group className="mb-2" controlId={`${baseId}-remarks`}>
        <Form.Label>{t('inspection:wizard.remarks')}</Form.Label>
        <Form.Control
          as="textarea"
          rows={2}
          maxLength={2000}
          value={(record[f.notes] as string | undefined) ?? ''}
          onChange={(e) => onChange((d) => setPath(d, `${recordPath}.${f.notes}`, e.target.value || undefined))}
        />
      </Form.Group>
      {showErrors && (problems.length > 0 || odometerMissing) && (
        <Alert variant="danger" className="small mb-0">{t('inspection:wizard.unanswered', { count: problems.length + (odometerMissing ? 1 : 0) })}</Alert>
      )}
    </div>
  );
}
