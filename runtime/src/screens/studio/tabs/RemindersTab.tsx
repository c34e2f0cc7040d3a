/**
 * Przypomnienia: the reminder rules (screens/reminders.json, schemas/meta/reminders.schema.json)
 * with their thresholds: days left (km left for a distance or a mileage projection) at or below
 * which an item is urgent and soon, and for a rule due a number of days after a date, that number.
 */
import { useState } from 'react';
import { useTranslation } from '../../../config/texts';
import { copyOf, setAfterDays, setThreshold, wholeNumber, type Threshold } from '../edits';
import { FieldProblems, LoadFailure, SaveBar, Spinner, TabHeading, useFieldProblems } from '../parts';
import { pointer } from '../pointers';
import { useInDraft, useStudio, useStudioDocument } from '../StudioContext';
import { useEdited } from '../useEdited';

export default function RemindersTab() {
  const { t } = useTranslation();
  const { screen, scope, api, write } = useStudio();
  const { doc, error } = useStudioDocument(screen.documents?.reminders ?? 'screens/reminders.json');
  const { edited, change, reset, dirty, setEdited } = useEdited<any>(doc?.effective);
  const inDraft = useInDraft();
  const [busy, setBusy] = useState(false);
  if (error) return <LoadFailure error={error} />;
  if (!doc || !edited) return <Spinner />;
  const save = async () => {
    setBusy(true);
    await write(() => api.saveDocuments([{ scope, path: doc.path, document: edited }]), t('config-studio:saved'));
    setBusy(false);
  };
  const forget = async () => {
    setBusy(true);
    await write(() => api.forgetDocument(scope, doc.path), t('config-studio:forgotten'));
    setBusy(false);
  };
  return (
    <div className="studio-reminders">
      <TabHeading>{t('config-studio:reminders.title')}</TabHeading>
      <p className="studio-note">{t('config-studio:reminders.intro')}</p>
      <div className="table-responsive">
        <table className="table table-sm align-middle studio-rules studio-stack">
          <caption className="visually-hidden">{t('config-studio:reminders.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('config-studio:reminders.rule')}</th>
              <th scope="col">{t('config-studio:reminders.urgent')}</th>
              <th scope="col">{t('config-studio:reminders.soon')}</th>
              <th scope="col">{t('config-studio:reminders.afterDays')}</th>
            </tr>
          </thead>
          <tbody>
            {(edited.rules ?? []).map((rule: any, i: number) => (
              <RuleRow
                key={rule.id}
                rule={rule}
                index={i}
                layerPath={doc.layerPath}
                onThreshold={(which, n) => change((d) => setThreshold(d, i, which, n))}
                onAfterDays={(n) => change((d) => setAfterDays(d, i, n))}
              />
            ))}
          </tbody>
        </table>
      </div>
      <SaveBar dirty={dirty} busy={busy} onSave={() => void save()} onReset={reset} inDraft={inDraft(doc.layerPath)} onForget={() => void forget()} changed={doc.changed} onFiles={() => setEdited(copyOf(doc.files))} />
    </div>
  );
}

function NumberCell({ id, label, heading, value, unit, layerPath, ptr, onValue }: {
  id: string;
  /** The column's heading (shown beside the value when the table is stacked on a phone). */
  heading: string;
  label: string;
  value: number | undefined;
  unit: string;
  layerPath: string;
  ptr: string;
  onValue(n: number | null): void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText(value === undefined ? '' : String(value));
  }
  const problems = useFieldProblems(layerPath, ptr);
  const bad = Number.isNaN(wholeNumber(text));
  return (
    <td data-label={heading}>
      <div className="studio-number-unit">
        <label htmlFor={id} className="visually-hidden">
          {label}
        </label>
        <input
          id={id}
          type="number"
          className={`form-control form-control-sm studio-number${bad || problems.invalid ? ' is-invalid' : ''}`}
          value={text}
          aria-invalid={bad || problems.invalid || undefined}
          aria-describedby={problems.id}
          onChange={(e) => {
            setText(e.target.value);
            const n = wholeNumber(e.target.value);
            if (!Number.isNaN(n)) onValue(n);
          }}
        />
        <span className="studio-unit" aria-hidden="true">
          {unit}
        </span>
      </div>
      <FieldProblems problems={problems.list} id={problems.id} />
    </td>
  );
}

function RuleRow({ rule, index, layerPath, onThreshold, onAfterDays }: {
  rule: any;
  index: number;
  layerPath: string;
  onThreshold(which: Threshold, n: number): void;
  onAfterDays(n: number | null): void;
}) {
  const { t } = useTranslation();
  const name = t(rule.label, { defaultValue: rule.id });
  const byKm = rule.due?.kind === 'distance' || rule.due?.kind === 'mileageProjection';
  const unit = byKm ? t('config-studio:reminders.km') : t('config-studio:reminders.days');
  const rowProblems = useFieldProblems(layerPath, pointer('rules', index), true);
  const threshold = (which: Threshold) => (
    <NumberCell
      id={`studio-rule-${rule.id}-${which}`}
      label={t(`config-studio:reminders.${which}Of`, { name, unit })}
      heading={t(`config-studio:reminders.${which}`)}
      value={rule.thresholds?.[which]}
      unit={unit}
      layerPath={layerPath}
      ptr={pointer('rules', index, 'thresholds', which)}
      onValue={(n) => n !== null && onThreshold(which, n)}
    />
  );
  return (
    <tr data-rule={rule.id}>
      <th scope="row">
        {name} <code>{rule.id}</code>
        <FieldProblems problems={rowProblems.list.filter((p) => !/\/(thresholds\/(urgent|soon)|due\/afterDays)$/.test(p.field))} />
      </th>
      {threshold('urgent')}
      {threshold('soon')}
      {rule.due?.kind === 'date' ? (
        <NumberCell
          id={`studio-rule-${rule.id}-after`}
          label={t('config-studio:reminders.afterDaysOf', { name })}
          heading={t('config-studio:reminders.afterDays')}
          value={rule.due.afterDays}
          unit={t('config-studio:reminders.days')}
          layerPath={layerPath}
          ptr={pointer('rules', index, 'due', 'afterDays')}
          onValue={onAfterDays}
        />
      ) : (
        <td className="studio-note">{t('config-studio:reminders.noAfterDays')}</td>
      )}
    </tr>
  );
}
