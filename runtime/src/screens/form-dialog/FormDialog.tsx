/**
 * The `form-dialog` screen type: a record's form in a dialog whose mode (create, edit, preview,
 * copy; none = closed) comes with the action that opened it (actions/run-action.ts). The mode
 * declares the title, the data the form starts from and where it is sent; a mode without submit
 * only shows the record. Fields show, hide, lock and require themselves by conditions over
 * { mode, record = the form's data }; footer buttons (delete after Tak/Nie, another dialog) too.
 * A 400 shows the server's messages under their fields; every outcome is a toast; a saved change
 * tells the opener (`onChanged`, a table reloads), every shown record (state/data.ts) and closes
 * the dialog. As the body of a modal route (the odometer reading from the menu) it is in the
 * screen's `routeMode` and the route's modal is its frame. A `hint` above the fields shows the
 * record a field points to (the chosen vehicle's registration, make and reading).
 */
import type { IChangeEvent } from '@rjsf/core';
import type { FormValidation, RJSFValidationError } from '@rjsf/utils';
import { useAtomValue } from 'jotai';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { fillPath } from '../../actions/run-action';
import { RevealDialog } from '../../actions/RevealDialog';
import { api, ApiError } from '../../api/client';
import { submissionKeys } from '../../api/submission-key';
import { useDirtyForm } from '../../state/dirty-forms';
import { withRetry } from '../../forms/photos';
import { useConfig } from '../../config/ConfigContext';
import type { FormDialogButtonDecl, FormDialogDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { ConfiguredForm } from '../../forms/ConfiguredForm';
import { fileLimitsOf, fileProblem, multipartParts, type ChosenFiles } from '../../forms/file-checks';
import type { FileFormContext } from '../../forms/FileWidget';
import { serverErrorSchema, translateErrors } from '../../forms/messages';
import type { FormDataContext } from '../../forms/AutocompleteWidget';
import type { PasswordFormContext } from '../../forms/NewPasswordWidget';
import { newPasswordMessage, policyOf, repeatMessage } from '../../forms/password-checks';
import { computedValue } from '../../forms/computed';
import { formatKindFor, formatValue } from '../../format';
import { buildUiSchema, hiddenFieldIds, namespaceOf } from '../../forms/ui-schema';
import { useFieldErrors } from '../../forms/useFieldErrors';
import { usePasswordScore } from '../../forms/usePasswordScore';
import { dataChanged } from '../../state/data';
import { sessionAtom } from '../../state/session';
import { showToast } from '../../state/ui';
import { FieldGrid } from '../FieldGrid';
import { ScreenView } from '../ScreenView';
import { useRecord } from '../useRecord';
import type { ScreenProps } from '../types';
import { conditionalRequired, dialogSchema, hintPath, initialData, modeOf, sentData, visibleButtons, withRequired } from './modes';

type Data = Record<string, unknown>;

function FormHint({ hint, data }: { hint: NonNullable<FormDialogDecl['hint']>; data: Data }) {
  const { t } = useTranslation();
  const ctx = useConditionContext();
  const path = hintPath(hint.endpoint, data);
  const state = useRecord(path);
  if (path === null || state.status !== 'loaded') return null;
  return (
    <Alert variant="light" className="border form-hint" data-testid="form-hint">
      {hint.label && <h3 className="h6">{t(hint.label)}</h3>}
      <FieldGrid fields={hint.fields} record={state.record} entity={hint.entity} ctx={{ ...ctx, record: state.record }} columns={{ sm: 3 }} />
    </Alert>
  );
}

/** Saves a one-time download link as a file without leaving the page (the table export's way, kept light here). */
function saveLink(href: string) {
  const a = document.createElement('a');
  a.href = href;
  a.download = ''; // the server's Content-Disposition names the file
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** The server's message of a failed call, or the declared one for this kind of failure. */
function failureText(e: unknown, fallback: string): string {
  return e instanceof ApiError && e.detail && e.status < 500 ? e.detail : fallback;
}

/** "{imie} {nazwisko}" with the record's values (text, not a path: nothing is encoded). */
function fillText(template: string, record: Record<string, unknown> | undefined): string {
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (_, field: string) => String(record?.[field] ?? '')).trim();
}

export default function FormDialog({ screen, screenId, presentation, opening, onClose, onChanged }: ScreenProps<FormDialogDecl>) {
  const { t } = useTranslation();
  const { bundle, preConfig, conditions } = useConfig();
  const baseCtx = useConditionContext();
  const session = useAtomValue(sessionAtom);
  const titleId = useId();
  const asRoute = presentation === 'modal';
  const current = modeOf(screen, asRoute ? screen.routeMode : opening?.mode);
  const record = opening?.record;
  const requestSchema = bundle.schemas[current?.mode.schema ?? screen.schema] ?? {};
  const namespace = namespaceOf(screen.title, 'app');

  const [formData, setFormData] = useState<Data>(() =>
    current ? initialData(current.mode, record, requestSchema, new Date(), (session?.user ?? null) as Data | null, opening?.opener) : {},
  );
  // the files chosen in file fields (the form data holds their names); a multipart submit sends them
  const files = useRef<ChosenFiles>(new Map());
  const submissions = useRef(submissionKeys());
  // something typed and not yet sent: a new version of the portal waits for it (pwa/update-state.ts)
  const [opened] = useState(() => JSON.stringify(formData));
  useDirtyForm(JSON.stringify(formData) !== opened);
  const [busy, setBusy] = useState(false);
  // photos still being scaled (forms/photos.ts): the form is sent only with them
  const [preparing, setPreparing] = useState(0);
  const [confirming, setConfirming] = useState<FormDialogButtonDecl | null>(null);
  const [subDialog, setSubDialog] = useState<{ screen: string; mode?: string; values?: Record<string, unknown> } | null>(null);
  // a value the answer shows this once (a new secret), in a dialog of its own before the form closes
  const [revealed, setRevealed] = useState<{ title: string; text: string; warning: string; label: string; value: string; finish: () => void } | null>(null);
  const fieldErrors = useFieldErrors();

  // parent: the record of the screen that opened the dialog (the order of a position)
  const modeCtx = useMemo(() => ({ ...baseCtx, mode: current?.name, parent: opening?.parent }), [baseCtx, current?.name, opening?.parent]);
  const ctx = useMemo(() => ({ ...modeCtx, record: formData }), [modeCtx, formData]);
  const baseSchema = useMemo(() => dialogSchema(requestSchema, screen.fields, conditions, modeCtx, record ?? {}), [requestSchema, screen.fields, conditions, modeCtx, record]);
  const hidden = hiddenFieldIds(screen.fields, conditions, modeCtx, formData);
  // a field required under a condition (the client of a manager) is required in the schema while it holds
  const requiredNow = conditionalRequired(screen.fields, conditions, ctx, hidden);
  const requiredKey = [...requiredNow.keys()].join();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const schema = useMemo(() => withRequired(baseSchema, requiredNow), [baseSchema, requiredKey]);
  const disabled = new Set(screen.fields.filter((f) => conditions.isDisabled(f, ctx)).map((f) => f.id));
  const readOnly = !current?.mode.submit;
  // what the request schema has beyond the screen's fields (a copied row's id) is kept and sent, not shown
  const declared = new Set(screen.fields.map((f) => f.id));
  const notShown = new Set([...hidden, ...Object.keys(requestSchema.properties ?? {}).filter((id) => !declared.has(id))]);
  const uiSchema = useMemo(
    () => {
      const ui = buildUiSchema(screen.fields, { t, namespace, hidden: notShown, disabled, hideSubmit: true });
      for (const id of notShown) if (!declared.has(id)) ui[id] = { 'ui:widget': 'hidden' };
      return ui;
    },
    // the sets are rebuilt each render; their contents decide
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [screen.fields, t, namespace, [...notShown].join(), [...disabled].join()],
  );
  const buttons = visibleButtons(screen.buttons, conditions, ctx);

  const hasNewPassword = screen.fields.some((f) => f.widget === 'newPassword' && !hidden.has(f.id));
  const score = usePasswordScore(hasNewPassword);
  const policy = useMemo(() => policyOf(preConfig), [preConfig]);
  const userInputs = [formData.login, formData.firstName, formData.lastName].filter((v): v is string => typeof v === 'string' && !!v);
  const formContext: PasswordFormContext & FormDataContext & FileFormContext = { policy, score, userInputs, formData, files: files.current,
    onPreparing: (started) => setPreparing((n) => Math.max(0, n + (started ? 1 : -1))) };

  /** Keeps fields that follow another field's value in step (another role clears the client). */
  const change = (next: Data) => {
    const followed = { ...next };
    for (const field of screen.fields) {
      const rule = field.followValue;
      if (rule && next[rule.field] !== formData[rule.field] && Object.hasOwn(rule.values, String(next[rule.field]))) {
        const value = rule.values[String(next[rule.field])];
        // null clears the field: absent, so that a rule requiring it asks for it again
        if (value === null) delete followed[field.id];
        else followed[field.id] = value;
      }
    }
    fieldErrors.changed(formData, followed);
    setFormData(followed);
  };

  const customValidate = (data: Data | undefined, errors: FormValidation<Data>) => {
    const values = data ?? {};
    for (const field of screen.fields) {
      if (hidden.has(field.id)) continue;
      const value = values[field.id];
      if (field.widget === 'file' && field.fileLimits) {
        // a wrong extension or a file too large is refused before anything is sent (spec §8)
        const file = files.current.get(field.id);
        const problem = file && value !== undefined ? fileProblem(file, fileLimitsOf(field.fileLimits, bundle.config as Data), field.fileLimits) : null;
        if (problem) (errors as any)[field.id]?.addError(t(problem.key, problem.vars));
        continue;
      }
      const message = field.widget === 'newPassword'
        ? newPasswordMessage(typeof value === 'string' ? value : '', policy, t, score, userInputs)
        : field.sameAs ? repeatMessage(value, values[field.sameAs], t) : null;
      if (message) (errors as any)[field.id]?.addError(message);
    }
    return errors;
  };
  const transformErrors = (errors: RJSFValidationError[]) => translateErrors(errors, t, schema);

  const done = (message: unknown, fallback: string | undefined, key: string) => {
    showToast('success', typeof message === 'string' ? message : t(fallback ?? 'app:ok'), key);
    dataChanged();
    onChanged?.();
    onClose?.();
  };
  /** As done, after showing the answer's value to reveal when the call declares one and the answer holds it. */
  const doneRevealing = (answer: Data | undefined, reveal: { field: string; title: string; text: string; warning?: string; label?: string } | undefined, fallback: string | undefined, key: string) => {
    const value = reveal ? answer?.[reveal.field] : undefined;
    if (reveal && typeof value === 'string') {
      dataChanged();
      setRevealed({
        title: t(reveal.title), text: t(reveal.text), warning: t(reveal.warning ?? 'app:shownOnce'), label: t(reveal.label ?? reveal.title), value,
        finish: () => done(answer?.message, fallback, key),
      });
    } else done(answer?.message, fallback, key);
  };

  const submit = async ({ formData: data }: IChangeEvent<Data>) => {
    const decl = current?.mode.submit;
    if (!decl || !current || preparing > 0) return;
    const key = `${screenId}:${current.name}`;
    setBusy(true);
    fieldErrors.clear();
    try {
      const path = fillPath(decl.endpoint, record);
      const body = sentData(data ?? {}, hidden);
      const fileFields = new Set(screen.fields.filter((f) => f.widget === 'file' && !hidden.has(f.id)).map((f) => f.id));
      // one submission, however often it is sent after a lost answer (api/submission-key.ts); the
      // chosen files count by name and size: another file is another submission
      const idempotencyKey = submissions.current.keyFor({ path, body, files: [...files.current.values()].flat().map((f) => [f.name, f.size]) });
      const answer = decl.encoding === 'multipart'
        ? await withRetry(async () => api.postMultipart<Data>(path, await multipartParts(body, fileFields, files.current), { quiet: true, idempotencyKey }))
        : await (decl.method === 'PUT' ? api.put : api.post)<Data>(path, body, { quiet: true, idempotencyKey });
      submissions.current.done();
      setBusy(false);
      doneRevealing(answer, current.mode.reveal, current.mode.successToast, key);
    } catch (e) {
      // no network: a submission declared offline-capable waits in the phone's outbox (pwa/offline.ts)
      if (e instanceof ApiError && e.status === 0 && session && (await queuedOffline(e, data ?? {}, decl))) {
        submissions.current.done();
        setBusy(false);
        onClose?.();
        return;
      }
      setBusy(false);
      if (e instanceof ApiError && e.status === 400 && e.fieldErrors.length) fieldErrors.failed(serverErrorSchema(e.fieldErrors));
      showToast('error', failureText(e, t(current.mode.failureToast ?? 'app:noConnection')), key);
    }
  };

  /** The submission kept for later, as the outbox sends it (the same body, files and key). */
  const queuedOffline = async (error: ApiError, data: Data, decl: NonNullable<NonNullable<typeof current>['mode']['submit']>) => {
    const path = fillPath(decl.endpoint, record);
    const body = sentData(data, hidden);
    const fileFields = screen.fields.filter((f) => f.widget === 'file' && !hidden.has(f.id)).map((f) => f.id);
    const key = submissions.current.keyFor({ path, body, files: [...files.current.values()].flat().map((f) => [f.name, f.size]) });
    const { queueIfOffline } = await import('../../pwa/offline');
    return queueIfOffline(error, {
      key, title: current?.mode.title ?? screen.title,
      plan: {
        kind: 'call', method: decl.method === 'PUT' ? 'PUT' : 'POST', path, body,
        ...(decl.encoding === 'multipart' ? { multipart: { fileFields, files: [...files.current].map(([field, file]) => ({ field, file })) } } : {}),
      },
    }).catch(() => false);
  };

  const request = async (button: FormDialogButtonDecl) => {
    if (!button.request) return;
    const key = `${screenId}:${button.id}`;
    setBusy(true);
    try {
      const path = fillPath(button.request.endpoint, record);
      const method = button.request.method ?? 'POST';
      const answer = await (method === 'DELETE' ? api.delete<Data>(path, { quiet: true }) : (method === 'PUT' ? api.put : api.post)<Data>(path, {}, { quiet: true }));
      setBusy(false);
      // a prepared file: its one-time link is saved at once (no window: the call was awaited, a popup would be blocked)
      const link = button.download ? answer?.[button.download.field] : undefined;
      if (typeof link === 'string') saveLink(link);
      doneRevealing(answer, button.reveal, undefined, key);
    } catch (e) {
      setBusy(false);
      showToast('error', failureText(e, t(button.failureToast ?? 'app:noConnection')), key);
    }
  };

  const press = (button: FormDialogButtonDecl) => {
    if (button.dialog) setSubDialog({ screen: button.dialog, mode: button.mode, ...(button.dialogValues ? { values: button.dialogValues } : {}) });
    else if (button.confirm) setConfirming(button);
    else void request(button);
  };

  // an action may open the dialog to press one of its buttons at once (delete from the toolbar)
  const pressed = useRef(false);
  useEffect(() => {
    if (pressed.current || !opening?.then) return;
    pressed.current = true;
    const button = buttons.find((b) => b.id === opening.then);
    if (button) press(button);
    // once, as the dialog opens
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!current) return null; // mode none: the dialog is closed

  // an irreversible call may ask to type what it is about (the person's name) before Tak is enabled
  const typing = confirming?.confirmTyping ? fillText(confirming.confirmTyping, record) : null;
  // the danger buttons stand apart, at the left, away from the ordinary ones (Anonimizuj is not beside Eksport)
  const ordered = [...buttons.filter((b) => b.tone === 'danger'), ...buttons.filter((b) => b.tone !== 'danger')];
  const lastDanger = ordered.filter((b) => b.tone === 'danger').at(-1);

  const form = (
          <ConfiguredForm
            className="form-dialog-grid"
            schema={schema}
            uiSchema={uiSchema}
            formData={formData}
            formContext={formContext}
            customValidate={customValidate}
            transformErrors={transformErrors}
            extraErrors={fieldErrors.extraErrors}
            liveValidate={fieldErrors.liveValidate}
            disabled={readOnly}
            onChange={(e) => change(e.formData ?? {})}
            onSubmit={submit}
            onError={() => fieldErrors.failed()}
            focusOnFirstError
            idPrefix={`dialog-${screenId}`}
          >
            {screen.computed?.length ? (
              <dl className="form-dialog-computed d-flex flex-wrap justify-content-end gap-4 mb-2">
                {screen.computed.filter((c) => conditions.isVisible(c, ctx)).map((c) => (
                  <div key={c.id} className="d-flex gap-2" data-computed={c.id}>
                    <dt className="fw-normal text-secondary">{t(c.label)}</dt>
                    <dd className="mb-0 fw-semibold" aria-live="polite">{formatValue(computedValue(c.compute, formData), formatKindFor(undefined, c.format), t)}</dd>
                  </div>
                ))}
              </dl>
            ) : null}
            <div className="form-dialog-footer d-flex flex-wrap gap-2 justify-content-end border-top pt-3 mt-2">
              {ordered.map((b) => (
                <Button key={b.id} variant={`outline-${b.tone ?? 'secondary'}`} disabled={busy} onClick={() => press(b)} className={b === lastDanger ? 'me-auto' : undefined}>
                  {b.icon && <i className={`bi bi-${b.icon} me-1`} aria-hidden="true" />}
                  {t(b.label)}
                </Button>
              ))}
              <Button variant="outline-secondary" onClick={() => onClose?.()}>
                {t('app:close')}
              </Button>
              {current.mode.submit && (
                <Button type="submit" disabled={busy || preparing > 0}>
                  {t(current.mode.submit.label)}
                </Button>
              )}
            </div>
          </ConfiguredForm>
  );
  const body = (
    <>
      {screen.hint && <FormHint hint={screen.hint} data={formData} />}
      {form}
    </>
  );

  return (
    <>
      {asRoute ? (
        <div data-screen-type="form-dialog" data-mode={current.name} data-screen={screenId}>{body}</div>
      ) : (
        <Modal show centered size={screen.size} onHide={() => onClose?.()} aria-labelledby={titleId} data-screen-type="form-dialog" data-mode={current.name} data-screen={screenId}>
          <Modal.Header closeButton closeLabel={t('app:close')}>
            <Modal.Title id={titleId} as="h2" className="h5">
              {t(current.mode.title, record ?? {})}
            </Modal.Title>
          </Modal.Header>
          <Modal.Body>{body}</Modal.Body>
        </Modal>
      )}
      {confirming && (
        <ConfirmDialog
          question={t(confirming.confirm!)}
          tone={confirming.tone ?? 'primary'}
          confirmTyping={typing}
          onAnswer={(yes) => {
            const button = confirming;
            setConfirming(null);
            if (yes) void request(button);
          }}
        />
      )}
      {revealed && (
        <RevealDialog title={revealed.title} text={revealed.text} warning={revealed.warning} label={revealed.label} value={revealed.value} onClose={() => revealed.finish()} />
      )}
      {subDialog && (
        <ScreenView
          screenId={subDialog.screen}
          presentation="dialog"
          params={{ id: record?.id }}
          opening={subDialog.values ? { mode: subDialog.mode, record: record ?? undefined, values: subDialog.values } : subDialog.mode ? { mode: subDialog.mode } : undefined}
          onClose={() => setSubDialog(null)}
        />
      )}
    </>
  );
}
