/**
 * Formularze: a form, form dialog or wizard with its steps and fields. A step or field is hidden
 * for chosen roles or under a flag of the variant's settings (its hiddenWhen, hidden-when.ts); a
 * field that the request sends is made required, given a maximum length and a required-field
 * message in the form's request schema (form-model.ts). A new message is written under a key of
 * the studio's own namespace (custom:messages.<screen>.<field>): the screen, its schema and the
 * texts go to the server in one PUT /documents, checked together.
 */
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../config/texts';
import { copyOf, wholeNumber } from '../edits';
import {
  formModel, isRequired, isText, newMessageKey, objectAt, requiredMessageKey, setMaxLength, setRequired, setRequiredMessageKey, setText, textIn,
  type FieldPlace, type StepPlace,
} from '../form-model';
import { applyHidden, readHidden, type HiddenChoice } from '../hidden-when';
import { DocumentSelect, FieldProblems, HiddenChooser, LoadFailure, SaveBar, Spinner, TabHeading, useFieldProblems } from '../parts';
import { getAt } from '../pointers';
import type { DocumentChange } from '../studio-api';
import { screensOfTypes, useInDraft, useStudio, useStudioDocument } from '../StudioContext';
import { useEdited } from '../useEdited';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const domId = (...parts: string[]) => `studio-form${parts.join('-').replace(/[^A-Za-z0-9_-]/g, '_')}`;

export default function FormsTab() {
  const { t } = useTranslation();
  const { overview, screen, scope, api, write } = useStudio();
  const forms = screensOfTypes(overview?.documents, screen.formTypes ?? ['form', 'form-dialog', 'wizard']);
  const [path, setPath] = useState('');
  const screenDoc = useStudioDocument(path || null);
  const schemaRef = screenDoc.doc?.effective?.schema;
  const schemaId = typeof schemaRef === 'string' ? schemaRef : undefined;
  const schemaInfo = schemaId ? overview?.documents.find((d) => d.kind === 'schema' && d.schemaId === schemaId) : undefined;
  const schemaDoc = useStudioDocument(path && schemaInfo ? schemaInfo.path : null);
  const customNs = screen.customNamespace ?? 'custom';
  const customPath = `locales/pl/${customNs}.json`;
  const hasCustom = Boolean(overview?.documents.some((d) => d.path === customPath));
  const customDoc = useStudioDocument(path && hasCustom ? customPath : null);
  const appDoc = useStudioDocument(path && screen.documents?.app ? screen.documents.app : null);
  const flags = useMemo(
    () => Object.entries((appDoc.doc?.effective?.config ?? {}) as Record<string, unknown>).filter(([, v]) => typeof v === 'boolean').map(([k]) => k).sort(),
    [appDoc.doc],
  );
  const screenEd = useEdited<any>(screenDoc.doc?.effective);
  const schemaEd = useEdited<any>(schemaDoc.doc?.effective);
  /** Messages typed, by the field's screen pointer: written on save. */
  const [messages, setMessages] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const inDraft = useInDraft();
  const roles = screen.roles;
  const screenId = path.replace(/^screens\//, '').replace(/\.json$/, '');

  const model = useMemo(() => (screenEd.edited ? formModel(screenEd.edited, schemaEd.edited) : null), [screenEd.edited, schemaEd.edited]);
  const dirty = screenEd.dirty || schemaEd.dirty || Object.keys(messages).length > 0;

  const messageText = (place: FieldPlace): string => {
    const key = requiredMessageKey(schemaEd.edited, place) ?? 'validation:required';
    if (key.startsWith(`${customNs}:`)) return textIn(customDoc.doc?.effective, key) ?? t(key);
    return t(key);
  };

  const reset = () => {
    screenEd.reset();
    schemaEd.reset();
    setMessages({});
  };

  const save = async () => {
    if (!screenDoc.doc || !screenEd.edited) return;
    const changes: DocumentChange[] = [];
    if (screenEd.dirty) changes.push({ scope, path: screenDoc.doc.path, document: screenEd.edited });
    const schema = copyOf(schemaEd.edited);
    const custom = copyOf(customDoc.doc?.effective ?? {});
    if (schema && model) {
      for (const step of model.steps) {
        for (const place of step.fields) {
          const typed = messages[place.screenPointer];
          if (typed === undefined || !place.propertyPointer) continue;
          if (typed.trim() === '') {
            setRequiredMessageKey(schema, place, null);
            continue;
          }
          const own = requiredMessageKey(schema, place);
          const key = own && own.startsWith(`${customNs}:`) ? own : newMessageKey(customNs, screenId, place.id);
          setText(custom, key, typed.trim());
          setRequiredMessageKey(schema, place, key);
        }
      }
    }
    if (schemaDoc.doc && schema && !same(schema, schemaDoc.doc.effective)) changes.push({ scope, path: schemaDoc.doc.path, document: schema });
    if (!same(custom, customDoc.doc?.effective ?? {})) changes.push({ scope, path: customPath, document: custom });
    if (!changes.length) return;
    setBusy(true);
    const answer = await write(() => api.saveDocuments(changes), t('config-studio:saved'));
    setBusy(false);
    if (answer) setMessages({});
  };

  const forget = async () => {
    if (!screenDoc.doc) return;
    setBusy(true);
    const calls = [screenDoc.doc, schemaDoc.doc, customDoc.doc].filter((d) => d && inDraft(d.layerPath)).map((d) => d!.path);
    await write(async () => {
      for (const p of calls) await api.forgetDocument(scope, p);
      return true;
    }, t('config-studio:forgotten'));
    setBusy(false);
  };

  const loading = (screenDoc.loading && !screenDoc.doc) || (schemaDoc.loading && !schemaDoc.doc);
  return (
    <div className="studio-forms">
      <TabHeading>{t('config-studio:forms.title')}</TabHeading>
      <DocumentSelect id="studio-form-choice" label={t('config-studio:forms.choose')} documents={forms} value={path} onChange={(p) => { setPath(p); setMessages({}); }} />
      {loading && <Spinner />}
      {screenDoc.error ? <LoadFailure error={screenDoc.error} /> : null}
      {screenDoc.doc && model && (
        <>
          {schemaId && !schemaInfo && <p className="studio-note">{t('config-studio:forms.noSchema', { schema: schemaId })}</p>}
          {schemaInfo && <p className="studio-note">{t('config-studio:forms.schemaNote', { schema: schemaInfo.path })}</p>}
          <div className="studio-steps">
            {model.steps.map((step) => (
              <StepBlock
                key={step.screenPointer || 'form'}
                step={step}
                isWizard={model.isWizard}
                screenDoc={screenEd.edited}
                schemaDoc={schemaEd.edited}
                screenLayer={screenDoc.doc!.layerPath}
                schemaLayer={schemaDoc.doc?.layerPath}
                roles={roles}
                flags={flags}
                messages={messages}
                messageText={messageText}
                onScreen={(ptr, choice) => screenEd.change((d) => applyHidden(objectAt(d, ptr), choice, roles))}
                onRequired={(place, on) => schemaEd.change((d) => setRequired(d, place, on))}
                onMaxLength={(place, n) => schemaEd.change((d) => setMaxLength(d, place, n))}
                onMessage={(place, text) => setMessages((m) => ({ ...m, [place.screenPointer]: text }))}
              />
            ))}
          </div>
          <SaveBar dirty={dirty} busy={busy} onSave={() => void save()} onReset={reset} inDraft={inDraft(screenDoc.doc.layerPath) || inDraft(schemaDoc.doc?.layerPath)} onForget={() => void forget()} />
        </>
      )}
    </div>
  );
}

interface BlockProps {
  screenDoc: any;
  schemaDoc: any;
  screenLayer: string;
  schemaLayer?: string;
  roles: readonly string[];
  flags: string[];
  messages: Record<string, string>;
  messageText(place: FieldPlace): string;
  onScreen(ptr: string, choice: HiddenChoice): void;
  onRequired(place: FieldPlace, on: boolean): void;
  onMaxLength(place: FieldPlace, n: number | null): void;
  onMessage(place: FieldPlace, text: string): void;
}

function StepBlock({ step, isWizard, ...props }: BlockProps & { step: StepPlace; isWizard: boolean }) {
  const { t } = useTranslation();
  const problems = useFieldProblems(props.screenLayer, step.screenPointer);
  const hiddenProblems = useFieldProblems(props.screenLayer, `${step.screenPointer}/hiddenWhen`, true);
  const stepDecl = getAt(props.screenDoc, step.screenPointer);
  const headingId = domId(step.screenPointer, 'h');
  return (
    <section className={`studio-step${isWizard ? '' : ' studio-step--form'}`} aria-labelledby={headingId} data-step={step.id || undefined}>
      <h3 id={headingId} className="h6 studio-step-title">
        {isWizard ? t('config-studio:forms.step', { label: t(step.labelKey) }) : t('config-studio:forms.fields')}
        {step.id && <code>{step.id}</code>}
      </h3>
      {isWizard && (
        <>
          <HiddenChooser
            legend={t('config-studio:forms.hideStep')}
            idPrefix={domId(step.screenPointer)}
            choice={readHidden(stepDecl?.hiddenWhen)}
            roles={props.roles}
            flags={props.flags}
            onChange={(choice) => props.onScreen(step.screenPointer, choice)}
          />
          <FieldProblems problems={[...problems.list, ...hiddenProblems.list]} />
        </>
      )}
      {step.fields.length === 0 && <p className="studio-note mb-0">{t('config-studio:forms.noFields')}</p>}
      {step.fields.length > 0 && (
        <ul className="studio-field-list">
          {step.fields.map((place) => (
            <FieldBlock key={place.screenPointer} place={place} {...props} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FieldBlock({ place, screenDoc, schemaDoc, screenLayer, schemaLayer, roles, flags, messages, messageText, onScreen, onRequired, onMaxLength, onMessage }: BlockProps & { place: FieldPlace }) {
  const { t } = useTranslation();
  const label = t(place.labelKey, { defaultValue: place.id });
  const decl = getAt(screenDoc, place.screenPointer);
  const property = place.propertyPointer ? objectAt(schemaDoc, place.propertyPointer) : undefined;
  const fieldProblems = useFieldProblems(screenLayer, place.screenPointer, true);
  const propertyProblems = useFieldProblems(schemaLayer, place.propertyPointer ?? '/-', true);
  const maxProblems = useFieldProblems(schemaLayer, `${place.propertyPointer ?? '/-'}/maxLength`);
  const base = domId(place.screenPointer);
  const [maxText, setMaxText] = useState(property?.maxLength === undefined ? '' : String(property.maxLength));
  const [seenMax, setSeenMax] = useState(property?.maxLength);
  if (seenMax !== property?.maxLength) {
    setSeenMax(property?.maxLength);
    setMaxText(property?.maxLength === undefined ? '' : String(property.maxLength));
  }
  const maxBad = Number.isNaN(wholeNumber(maxText));
  const message = messages[place.screenPointer] ?? messageText(place);
  return (
    <li className="studio-field" data-field={place.id}>
      <div className="studio-field-title">
        <span className="fw-semibold">{label}</span> <code>{place.id}</code>
      </div>
      <HiddenChooser
        legend={t('config-studio:forms.hideField', { label })}
        idPrefix={base}
        choice={readHidden(decl?.hiddenWhen)}
        roles={roles}
        flags={flags}
        onChange={(choice) => onScreen(place.screenPointer, choice)}
      />
      <FieldProblems problems={fieldProblems.list} />
      {property ? (
        <div className="studio-field-schema">
          <div className="form-check">
            <input id={`${base}-required`} className="form-check-input" type="checkbox" checked={isRequired(schemaDoc, place)} onChange={(e) => onRequired(place, e.target.checked)} />
            <label htmlFor={`${base}-required`} className="form-check-label">
              {t('config-studio:forms.required')}
              <span className="visually-hidden">: {label}</span>
            </label>
          </div>
          {isText(property) && (
            <div className="studio-inline-input">
              <label htmlFor={`${base}-max`} className="form-label">
                {t('config-studio:forms.maxLength')}
                <span className="visually-hidden">: {label}</span>
              </label>
              <input
                id={`${base}-max`}
                className={`form-control form-control-sm studio-number${maxBad || maxProblems.invalid ? ' is-invalid' : ''}`}
                inputMode="numeric"
                value={maxText}
                placeholder={t('config-studio:forms.noLimit')}
                aria-invalid={maxBad || maxProblems.invalid || undefined}
                aria-describedby={maxProblems.id}
                onChange={(e) => {
                  setMaxText(e.target.value);
                  const n = wholeNumber(e.target.value);
                  if (!Number.isNaN(n)) onMaxLength(place, n);
                }}
              />
              <FieldProblems problems={maxProblems.list} id={maxProblems.id} />
            </div>
          )}
          <div className="studio-message-input">
            <label htmlFor={`${base}-message`} className="form-label">
              {t('config-studio:forms.requiredMessage')}
              <span className="visually-hidden">: {label}</span>
            </label>
            <input id={`${base}-message`} className="form-control form-control-sm" value={message} onChange={(e) => onMessage(place, e.target.value)} />
          </div>
          <FieldProblems problems={propertyProblems.list.filter((p) => !maxProblems.list.includes(p))} />
        </div>
      ) : (
        <p className="studio-note mb-0">{t('config-studio:forms.notSent')}</p>
      )}
    </li>
  );
}

