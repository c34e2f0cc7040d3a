/**
 * The `wizard` screen type (schemas/meta/wizard.schema.json): a dialog that shows the steps the user
 * may see one at a time (their conditions in the screen file), with Poprzedni, Następny and, on the
 * last, Zapisz. Each step validates before Następny (an @rjsf form on the request schema's record,
 * an editable list, a generated summary); a step may look something up before it is left (the
 * service plan of an inspection). Zapisz sends the declared body, shows the outcome's toast, makes
 * the follow-up calls (one upload per attachment, one post per note; follow-ups.ts), tells the opener to reload and closes; a failure keeps the
 * dialog open with the data.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { api, ApiError, errorText } from '../../api/client';
import { followUpKey, submissionKeys } from '../../api/submission-key';
import { useDirtyForm } from '../../state/dirty-forms';
import { useConfig } from '../../config/ConfigContext';
import type { WizardDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { showToast } from '../../state/ui';
import type { ScreenProps } from '../types';
import { FieldsStep } from './FieldsStep';
import { runFollowUps, type ItemFiles } from './follow-ups';
import { ListStep } from './ListStep';
import { ChecklistStep } from './ChecklistStep';
import { ScreenView } from '../ScreenView';
import { formatSettings } from '../../format-settings';
import { withRetry } from '../../forms/photos';
import { SummaryStep } from './SummaryStep';
import type { StepHandle } from './step-handle';
import {
  filledItems, getPath, initialWizardData, lookupBody, newItem, outcomeOf, setPath, stepContext, submitBody,
  unsentFields, visibleSteps, type Data,
} from './wizard-logic';

export default function Wizard({ screen, screenId, opening, onClose, onChanged }: ScreenProps<WizardDecl>) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const baseCtx = useConditionContext();
  const titleId = useId();
  const requestSchema = bundle.schemas[screen.schema];
  const [data, setData] = useState<Data>(() => initialWizardData(screen, conditions, baseCtx, opening?.values, opening?.record));
  const ctx = useMemo(() => stepContext(baseCtx, screen, data), [baseCtx, screen, data]);
  const steps = visibleSteps(screen.steps, conditions, ctx);
  const [stepId, setStepId] = useState(steps[0]?.id);
  const index = Math.max(0, steps.findIndex((s) => s.id === stepId));
  const step = steps[index];
  const last = index === steps.length - 1;
  const [busy, setBusy] = useState(false);
  const [question, setQuestion] = useState<{ text: string; answer: (yes: boolean) => void } | null>(null);
  // a dialog a step's button opened over the wizard (a new employee)
  const [dialog, setDialog] = useState<{ screen: string; mode: string } | null>(null);
  const handle = useRef<StepHandle | null>(null);
  // the files chosen in list items (attachments), beside the data and never in it
  const itemFiles = useRef<ItemFiles>(new WeakMap());
  const submissions = useRef(submissionKeys());
  // something typed and not yet sent: a new version of the portal waits for it (pwa/update-state.ts)
  const [opened] = useState(() => JSON.stringify(data));
  useDirtyForm(JSON.stringify(data) !== opened);
  const namespace = screen.labels ?? screen.title.split(':')[0];
  // the month in the portal's time zone decides the tyre season of a new position
  const month = () => Number(new Intl.DateTimeFormat('en-GB', { month: 'numeric', timeZone: formatSettings().timeZone }).format(new Date()));

  // a step hidden by a change of the data (another order type) gives way to its neighbour
  useEffect(() => {
    if (step && step.id !== stepId) setStepId(step.id);
  }, [step, stepId]);

  const goTo = (i: number) => {
    handle.current = null;
    setStepId(steps[i]?.id);
  };

  /** The step's lookup (the service plan): fills a list, or asks whether to go on without. */
  const lookUp = async (): Promise<boolean> => {
    const rule = step?.beforeNext;
    if (!rule || (rule.when !== undefined && !conditions.matches(rule.when, ctx))) return true;
    // a list already filled (by the plan or by hand) is not replaced when the step is left again
    const filled = getPath(data, rule.fill.path);
    if (Array.isArray(filled) && filled.length) return true;
    const body = lookupBody(rule.request.body, data);
    let answer: unknown = [];
    if (body) {
      setBusy(true);
      try {
        // a lookup only reads (meta-schema `lookup`): not the user's change
        answer = await api.post(rule.request.endpoint, body, { quiet: true, reads: true });
      } catch (e) {
        setBusy(false);
        showToast('error', errorText(e), `${screenId}:lookup`);
        return false;
      }
      setBusy(false);
    }
    const listStep = screen.steps.find((s) => s.list?.path === rule.fill.path);
    const defaults = listStep?.list ? newItem(listStep.list, conditions, ctx, month()) : {};
    const items = filledItems(answer, rule.fill, defaults);
    if (items.length) {
      setData((d) => setPath(d, rule.fill.path, items));
      return true;
    }
    if (!rule.whenEmpty) return true;
    // Tak goes on without the plan, Nie stays on the step
    return new Promise<boolean>((resolve) => setQuestion({ text: t(rule.whenEmpty!), answer: resolve }));
  };

  const next = async () => {
    if (handle.current && !handle.current.validate()) return;
    if (!(await lookUp())) return;
    goTo(index + 1);
  };

  const save = async () => {
    if (handle.current && !handle.current.validate()) return;
    const decl = screen.submit;
    const key = `${screenId}:save`;
    setBusy(true);
    let answer: unknown;
    // one submission, however often Save is pressed after a lost answer (api/submission-key.ts)
    let idempotencyKey = '';
    let body: Data = {};
    try {
      body = submitBody(screen, requestSchema, data, unsentFields(screen.steps, conditions, ctx, screen.alwaysSent));
      idempotencyKey = submissions.current.keyFor(body);
      answer = await (decl.method === 'PUT' ? api.put : api.post)(decl.endpoint, body, { quiet: true, idempotencyKey });
    } catch (e) {
      // no network: the save and its follow-ups (the attachments) wait in the phone's outbox together (pwa/offline.ts)
      if (e instanceof ApiError && e.status === 0 && idempotencyKey) {
        const [{ queueIfOffline }, { keptItemFiles }] = await Promise.all([import('../../pwa/offline'), import('../../pwa/send-submission')]);
        const kept = await queueIfOffline(e, {
          key: idempotencyKey, title: screen.title,
          plan: {
            kind: 'wizard', screen: screenId, method: decl.method === 'PUT' ? 'PUT' : 'POST', path: decl.endpoint, body, data,
            session: (ctx.session as Record<string, unknown> | null | undefined) ?? null,
            files: keptItemFiles(data, (decl.then ?? []).map((call) => call.each), itemFiles.current),
          },
        }).catch(() => false);
        if (kept) {
          submissions.current.done();
          setBusy(false);
          onClose?.();
          return;
        }
      }
      setBusy(false);
      const text = e instanceof ApiError && e.detail && e.status < 500 ? e.detail : t(decl.failureToast ?? 'app:noConnection');
      showToast('error', text, key);
      return;
    }
    const outcome = outcomeOf(decl.outcomes, conditions, ctx, answer);
    if (outcome) showToast('success', t(outcome.toast), key);
    // the server's message as a warning, unless it only repeats the toast
    if (outcome?.warning && outcome.warning !== t(outcome.toast)) showToast('warning', outcome.warning, `${key}:warning`);
    // then the items typed in the wizard, one call each (the attachments' uploads, the notes)
    await runFollowUps(decl.then, data, answer, ctx.session as Record<string, unknown> | null | undefined, itemFiles.current, {
      post: (endpoint, body, call) => api.post(endpoint, body, { quiet: true, idempotencyKey: call && followUpKey(idempotencyKey, call) }),
      // an upload (a photo) is tried again on a weak signal, under the same key (forms/photos.ts)
      postMultipart: (endpoint, parts, call) => withRetry(() => api.postMultipart(endpoint, parts, { quiet: true, idempotencyKey: call && followUpKey(idempotencyKey, call) })),
      warn: (text, id) => showToast('warning', text, `${key}:${id}`),
      detailOf: (e) => (e instanceof ApiError && e.detail && e.status < 500 ? e.detail : undefined),
      t: (k, vars) => t(k, vars),
    });
    submissions.current.done();
    setBusy(false);
    onChanged?.();
    onClose?.();
  };

  const onAutocompleteChoice = (fill: Record<string, string> | undefined, item: Data) => {
    if (!fill) return;
    setData((d) => Object.entries(fill).reduce((acc, [path, property]) => setPath(acc, path, item[property] ?? undefined), d));
  };

  const reply = (yes: boolean) => {
    question?.answer(yes);
    setQuestion(null);
  };

  if (!step) return null;

  return (
    <>
      <Modal show centered size={screen.size ?? 'lg'} fullscreen={screen.fullscreenBelow ? (`${screen.fullscreenBelow}-down` as const) : undefined} backdrop="static" className="wizard-modal" backdropClassName="wizard-backdrop" onHide={() => !busy && onClose?.()} aria-labelledby={titleId} data-screen-type="wizard" data-step={step.id}>
        <Modal.Header closeButton closeLabel={t('app:close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {t(screen.title)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {steps.length > 1 && (
          <ol className="wizard-steps list-unstyled d-flex flex-wrap gap-2 small mb-3" aria-label={t('app:wizard.steps')}>
            {steps.map((s, i) => (
              <li key={s.id} aria-current={i === index ? 'step' : undefined} className={`badge rounded-pill ${i === index ? 'text-bg-primary' : i < index ? 'text-bg-secondary' : 'text-bg-light border'}`}>
                {i + 1}. {t(s.label)}
              </li>
            ))}
          </ol>
          )}
          {steps.length > 1 && <h3 className="h6 mb-3" data-testid="wizard-step-title">{t(step.label)}</h3>}
          {step.intro && <p className="text-secondary small">{t(step.intro)}</p>}
          {step.kind === 'fields' && (
            <FieldsStep
              key={step.id}
              step={step}
              screen={screen}
              data={data}
              ctx={ctx}
              namespace={namespace}
              onChange={setData}
              onAutocompleteChoice={onAutocompleteChoice}
              handle={handle}
            />
          )}
          {step.kind === 'fields' && (step.actions ?? []).some((a) => conditions.isVisible(a, ctx)) && (
            <div className="wizard-step-actions d-flex gap-2 mt-2">
              {(step.actions ?? []).filter((a) => conditions.isVisible(a, ctx)).map((a) => (
                <Button key={a.id} variant="outline-primary" size="sm" data-action={a.id} onClick={() => setDialog({ screen: a.screen, mode: a.mode ?? 'create' })} disabled={busy}>
                  {a.icon && <i className={`bi bi-${a.icon} me-1`} aria-hidden="true" />}
                  {t(a.label)}
                </Button>
              ))}
            </div>
          )}
          {step.kind === 'list' && step.list && (
            <ListStep key={step.id} month={month()} list={step.list} itemFiles={itemFiles.current} screen={screen} data={data} ctx={ctx} namespace={namespace} onChange={setData} handle={handle} />
          )}
          {step.kind === 'checklist' && step.checklist && (
            <ChecklistStep key={step.id} decl={step.checklist} screen={screen} data={data} itemFiles={itemFiles.current} onChange={setData} handle={handle} />
          )}
          {step.kind === 'summary' && <SummaryStep screen={screen} steps={steps.slice(0, index)} data={data} ctx={ctx} namespace={namespace} />}
        </Modal.Body>
        <Modal.Footer className="d-flex">
          <Button variant="outline-secondary" className="me-auto" onClick={() => onClose?.()} disabled={busy}>
            {t('app:wizard.cancel')}
          </Button>
          {index > 0 && (
            <Button variant="outline-primary" onClick={() => goTo(index - 1)} disabled={busy}>
              {t('app:wizard.previous')}
            </Button>
          )}
          {!last && (
            <Button variant="primary" onClick={() => void next()} disabled={busy}>
              {t('app:wizard.next')}
            </Button>
          )}
          {last && (
            <Button variant="success" onClick={() => void save()} disabled={busy} aria-busy={busy || undefined}>
              {busy && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
              {t(screen.submit.label ?? 'app:wizard.save')}
            </Button>
          )}
        </Modal.Footer>
      </Modal>
      {dialog && (
        <ScreenView
          screenId={dialog.screen}
          presentation="dialog"
          opening={{ mode: dialog.mode, parent: (getPath(data, screen.record) as Data | undefined) ?? {} }}
          onClose={() => setDialog(null)}
          onChanged={() => onChanged?.()}
        />
      )}
      {question && <ConfirmDialog question={question.text} onAnswer={reply} />}
    </>
  );
}
