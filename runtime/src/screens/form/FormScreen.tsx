/**
 * The `form` screen type: an @rjsf form over a request schema of schemas/api, laid out by the
 * screen's `fields`, sent to one endpoint. Shown as a page, as the body of a modal route, or as a
 * dialog of its own. Beyond the schema's rules it checks new passwords (policy and strength, spec
 * §5) and repeated fields; a 400 shows the server's messages on their fields. On success it runs
 * the steps the screen declares (toast, statement, session update, next dialog, navigation, close).
 */
import type { IChangeEvent } from '@rjsf/core';
import type { FormValidation, RJSFValidationError } from '@rjsf/utils';
import { useAtomValue } from 'jotai';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { useNavigate } from 'react-router';
import { api, ApiError, errorText } from '../../api/client';
import { submissionKeys } from '../../api/submission-key';
import { useSignOut } from '../../routing/useNavigateTo';
import { useConfig } from '../../config/ConfigContext';
import type { FormScreenDecl, Session } from '../../config/bundle';
import { ConfiguredForm } from '../../forms/ConfiguredForm';
import { serverErrorSchema, translateErrors } from '../../forms/messages';
import type { PasswordFormContext } from '../../forms/NewPasswordWidget';
import { newPasswordMessage, policyOf, repeatMessage } from '../../forms/password-checks';
import { formSchema, pathValue, requestBody, withLoadedOptions } from '../../forms/form-data';
import { buildUiSchema, hiddenFieldIds, namespaceOf, withoutHidden } from '../../forms/ui-schema';
import { useConditionContext } from '../../config/useConditionContext';
import { usePasswordScore } from '../../forms/usePasswordScore';
import { useFieldErrors } from '../../forms/useFieldErrors';
import { sessionAtom, updateSession } from '../../state/session';
import { dataChanged } from '../../state/data';
import { useDirtyForm } from '../../state/dirty-forms';
import { showStatement, showToast } from '../../state/ui';
import { DialogLinks } from '../DialogLinks';
import { Loading } from '../Loading';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';

type Data = Record<string, unknown>;

export default function FormScreen({ screen, presentation, params, onClose }: ScreenProps<FormScreenDecl>) {
  const { t } = useTranslation();
  const { bundle, preConfig, conditions } = useConfig();
  const session = useAtomValue(sessionAtom);
  const navigate = useNavigate();
  const signOut = useSignOut();
  const titleId = useId();
  const namespace = namespaceOf(screen.title, 'app');

  const [formData, setFormData] = useState<Data>({});
  // options the loaded record holds (optionsFrom: the languages offered)
  const optionLists = JSON.stringify(screen.fields.map((f) => (f.optionsFrom ? pathValue(formData, f.optionsFrom.path) : null)));
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const fields = useMemo(() => withLoadedOptions(screen.fields, formData), [screen, optionLists]);
  const schema = useMemo(() => formSchema(bundle.schemas[screen.schema], { ...screen, fields }), [bundle, screen, fields]);
  const [busy, setBusy] = useState(false);
  const submissions = useRef(submissionKeys());
  const [error, setError] = useState<string | null>(null);
  const fieldErrors = useFieldErrors();
  const [dialog, setDialog] = useState<string | null>(null);
  const [replacedBy, setReplacedBy] = useState<string | null>(null);

  const [loaded, setLoaded] = useState(!screen.load);
  // what the form showed once loaded: anything else is typed and not yet sent (a new version waits for it: pwa/update-state.ts)
  const [baseline, setBaseline] = useState('{}');
  useDirtyForm(loaded && JSON.stringify(formData) !== baseline);
  useEffect(() => {
    if (!screen.load) return;
    let live = true;
    api.get<Data>(screen.load.endpoint).then(
      (data) => live && (setFormData(data ?? {}), setBaseline(JSON.stringify(data ?? {})), setLoaded(true)),
      (e) => live && (setError(errorText(e)), setLoaded(true)),
    );
    return () => {
      live = false;
    };
  }, [screen.load]);

  /** Keeps fields that follow another field's value (the port of an encryption mode) in step. */
  const change = (next: Data) => {
    const followed = { ...next };
    for (const field of screen.fields) {
      const rule = field.followValue;
      if (rule && next[rule.field] !== formData[rule.field] && Object.hasOwn(rule.values, String(next[rule.field]))) {
        followed[field.id] = rule.values[String(next[rule.field])];
      }
    }
    fieldErrors.changed(formData, followed);
    setFormData(followed);
  };

  const runAction = async (action: NonNullable<FormScreenDecl['actions']>[number]) => {
    setBusy(true);
    fieldErrors.clear();
    try {
      const body = requestBody(formData, screen, session, params);
      const answer = await (action.method === 'PUT' ? api.put : api.post)<Data>(action.endpoint, body, { quiet: true });
      const ok = action.okWhen === undefined || conditions.matches(action.okWhen, { record: answer });
      if (ok) setBaseline(JSON.stringify(formData));
      if (typeof answer?.message === 'string') showToast(ok ? 'success' : 'error', answer.message, action.endpoint);
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && e.fieldErrors.length) fieldErrors.failed(serverErrorSchema(e.fieldErrors));
      else showToast('error', errorText(e), action.endpoint);
    } finally {
      setBusy(false);
    }
  };

  const hasNewPassword = screen.fields.some((f) => f.widget === 'newPassword');
  const score = usePasswordScore(hasNewPassword);
  const policy = useMemo(() => policyOf(preConfig), [preConfig]);
  // the user's own words: the session's names and the form fields marked `userInput` (screen file)
  const typed = JSON.stringify(screen.fields.filter((f) => f.userInput).map((f) => formData[f.id]));
  const userInputs = useMemo(
    () => [session?.user.login, session?.user.firstName, session?.user.lastName, ...(JSON.parse(typed) as unknown[])].filter((v): v is string => typeof v === 'string' && !!v),
    [session, typed],
  );
  const formContext: PasswordFormContext = { policy, score, userInputs };

  const hideSubmit = Boolean(screen.signOut || screen.actions?.length);
  // a field's visibleWhen/hiddenWhen read the form's data as the record (the digest's hour only while the digest is on)
  const ctx = useConditionContext();
  const hidden = hiddenFieldIds(screen.fields, conditions, ctx, formData);
  const hiddenKey = [...hidden].join();
  // what the request schema has beyond the screen's fields and values (the first-login flag of the
  // administrator's password dialog) is not drawn, as in a form dialog
  const undeclared = useMemo(() => Object.keys(schema.properties ?? {}).filter((id) => !fields.some((f) => f.id === id)), [schema, fields]);
  const uiSchema = useMemo(
    () => buildUiSchema(fields, { t, namespace, hidden, submitLabel: t(screen.submit.label), submitDisabled: busy, hideSubmit, undeclared }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fields, t, namespace, busy, hideSubmit, hiddenKey, undeclared],
  );

  const customValidate = (data: Data | undefined, errors: FormValidation<Data>) => {
    for (const field of screen.fields) {
      const value = data?.[field.id];
      const message = field.widget === 'newPassword'
        ? newPasswordMessage(typeof value === 'string' ? value : '', policy, t, score, userInputs)
        : field.sameAs ? repeatMessage(value, data?.[field.sameAs], t) : null;
      if (message) (errors as any)[field.id]?.addError(message);
    }
    return errors;
  };
  const transformErrors = (errors: RJSFValidationError[]) => translateErrors(errors, t, schema);

  const succeed = (response: unknown) => {
    const steps = screen.onSuccess ?? {};
    const message = (response as { message?: unknown } | undefined)?.message;
    // the form's toasts share its endpoint as their key: a success replaces an earlier error
    const key = screen.submit.endpoint;
    if (steps.toast) showToast('success', t(steps.toast), key);
    if (steps.toastFromResponse && typeof message === 'string') showToast('success', message, key);
    if (steps.statement && typeof message === 'string') showStatement({ text: message });
    if (steps.sessionUserFrom || steps.sessionPatch) {
      const user = steps.sessionUserFrom ? (pathValue(response, steps.sessionUserFrom) as Session['user'] | undefined) : undefined;
      updateSession((s) => ({ ...s, user: { ...(user ?? s.user), ...(steps.sessionPatch ?? {}) } }));
    }
    // a changed language: the portal starts again on this page, in it (issue 48)
    if (steps.reload) {
      window.location.reload();
      return;
    }
    if (!screen.load) setFormData({});
    // a saved record: whatever shows it reads it again (the mail notice above the mail settings)
    else dataChanged();
    if (steps.openDialog) {
      // a dialog gives way to the next one (request a code → enter it); a page opens it on top
      if (presentation === 'dialog') setReplacedBy(steps.openDialog);
      else setDialog(steps.openDialog);
      return;
    }
    // leaving for another path also leaves a modal route, so closing it would go back twice
    if (steps.navigate) navigate(steps.navigate);
    else if (steps.close) onClose?.();
  };

  const submit = async ({ formData: data }: IChangeEvent<Data>) => {
    setBusy(true);
    setError(null);
    fieldErrors.clear();
    try {
      // a hidden field's value is not sent
      const body = requestBody(withoutHidden(data ?? {}, hidden), screen, session, params);
      const method = screen.submit.method === 'PUT' ? api.put : api.post;
      // one submission, however often it is sent after a lost answer (api/submission-key.ts)
      const idempotencyKey = submissions.current.keyFor(body);
      const response = await method(screen.submit.endpoint, body, { quiet: screen.errorsAs !== 'toast', toastKey: screen.submit.endpoint, idempotencyKey });
      submissions.current.done();
      setBusy(false);
      succeed(response);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status === 400 && e.fieldErrors.length) fieldErrors.failed(serverErrorSchema(e.fieldErrors));
      else if (screen.errorsAs === 'toast') {
        // the client toasts 5xx details itself; the rest is this form's to say
        if (!(e instanceof ApiError && e.status >= 500 && e.detail)) showToast('error', errorText(e), screen.submit.endpoint);
      } else setError(errorText(e));
    }
  };

  if (replacedBy) return <ScreenView screenId={replacedBy} presentation="dialog" onClose={onClose} />;
  if (!schema) return <Alert variant="danger">{t('app:notFound')}</Alert>;
  if (!loaded) return <Loading />;

  const body = (
    <>
      {screen.intro && <p className="text-secondary">{t(screen.intro)}</p>}
      {error && (
        <Alert variant="danger" role="alert" data-testid="form-error">
          {error}
        </Alert>
      )}
      <ConfiguredForm
        schema={schema}
        uiSchema={uiSchema}
        formData={formData}
        formContext={formContext}
        customValidate={customValidate}
        transformErrors={transformErrors}
        extraErrors={fieldErrors.extraErrors}
        liveValidate={fieldErrors.liveValidate}
        onChange={(e) => change(e.formData ?? {})}
        onSubmit={submit}
        onError={() => fieldErrors.failed() /* the messages are on the fields */}
        focusOnFirstError
        idPrefix={`form-${screen.submit.endpoint.replace(/\W+/g, '-')}`}
      >
        {hideSubmit && (
          <div className="d-flex gap-2 justify-content-end">
            {screen.signOut && (
              <Button variant="outline-secondary" onClick={signOut}>
                {t(screen.signOut)}
              </Button>
            )}
            {(screen.actions ?? []).map((action) => (
              <Button key={action.id} variant="outline-primary" disabled={busy} onClick={() => void runAction(action)}>
                {t(action.label)}
              </Button>
            ))}
            <Button type="submit" disabled={busy}>
              {t(screen.submit.label)}
            </Button>
          </div>
        )}
      </ConfiguredForm>
      <DialogLinks links={screen.links} onOpen={setDialog} />
      {dialog && <ScreenView screenId={dialog} presentation="dialog" onClose={() => setDialog(null)} />}
    </>
  );

  if (presentation === 'dialog') {
    const locked = Boolean(screen.static);
    return (
      <Modal
        show
        centered
        backdrop={locked ? 'static' : true}
        keyboard={!locked}
        onHide={() => (locked ? undefined : onClose?.())}
        aria-labelledby={titleId}
        data-screen-type="form"
      >
        <Modal.Header closeButton={!locked} closeLabel={t('app:close')}>
          <Modal.Title id={titleId} as="h2" className="h5">
            {t(screen.title)}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>{body}</Modal.Body>
      </Modal>
    );
  }
  if (presentation === 'modal') return body;
  return (
    <section className="form-page">
      <h1 className="page-title">{t(screen.title)}</h1>
      <Card className="form-card shadow-sm">
        <Card.Body>{body}</Card.Body>
      </Card>
    </section>
  );
}
