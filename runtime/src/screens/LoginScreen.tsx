/**
 * The `login` screen type: an @rjsf form over the request schema the screen names, laid out by
 * the screen's `fields`. On success the session (token + user) is stored and the user goes to the
 * routes' landing page; a refusal shows the server's detail, a 400's field errors on their fields.
 */
import Form from '@rjsf/react-bootstrap';
import type { IChangeEvent } from '@rjsf/core';
import type { RJSFValidationError } from '@rjsf/utils';
import { useMemo, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, errorText } from '../api/client';
import { useConfig } from '../config/ConfigContext';
import { conditionContext } from '../config/context';
import type { LoginScreenDecl, Session } from '../config/types';
import { serverErrorSchema, translateErrors } from '../forms/messages';
import { buildUiSchema, hiddenFieldIds, namespaceOf, withoutHidden, withoutSchemaTexts } from '../forms/ui-schema';
import { expiresWithin } from '../forms/password-checks';
import { formTemplates } from '../forms/templates';
import { useFieldErrors } from '../forms/useFieldErrors';
import { formValidator } from '../forms/validator';
import { formWidgets } from '../forms/widgets';
import { useRoutesDecl } from '../routing/useNavigateTo';
import { saveSession } from '../state/session';
import { showToast } from '../state/ui';
import { DialogLinks } from './DialogLinks';
import { ScreenView } from './ScreenView';
import type { ScreenProps } from './types';

interface AuthResponse {
  id_token: string;
  body: { userDetails: Session['user']; postConfig?: Session['postConfig'] };
}

/** Error shake animation length (spec §9). */
const SHAKE_MS = 500;

export default function LoginScreen({ screen }: ScreenProps<LoginScreenDecl>) {
  const { t } = useTranslation();
  const { bundle, preConfig, conditions } = useConfig();
  const { landing } = useRoutesDecl();
  const navigate = useNavigate();
  const schema = useMemo(() => withoutSchemaTexts(bundle.schemas[screen.schema]), [bundle, screen.schema]);

  const [formData, setFormData] = useState<Record<string, unknown>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldErrors = useFieldErrors();
  const [shake, setShake] = useState(false);
  const [searchParams] = useSearchParams();
  // /?reset opens the set-password dialog (spec §2); other query dialogs the same way
  const queryDialog = Object.entries(screen.queryDialogs ?? {}).find(([q]) => searchParams.has(q))?.[1] ?? null;
  const [dialog, setDialog] = useState<string | null>(queryDialog);

  // a guest has no session: the fields' rules look at the form data (context.record)
  const guestContext = useMemo(() => conditionContext(bundle, null), [bundle]);
  const hidden = useMemo(
    () => hiddenFieldIds(screen.fields, conditions, guestContext, formData),
    [screen.fields, conditions, guestContext, formData],
  );
  const namespace = namespaceOf(screen.title, 'login');
  const uiSchema = useMemo(
    () => buildUiSchema(screen.fields, { t, namespace, hidden, submitLabel: t(screen.submit.label), submitDisabled: busy }),
    [screen.fields, t, namespace, hidden, screen.submit.label, busy],
  );
  const transformErrors = (errors: RJSFValidationError[]) => translateErrors(errors, t, schema, { hiddenFields: hidden });

  const fail = (message: string) => {
    setError(message);
    setShake(true);
    setTimeout(() => setShake(false), SHAKE_MS);
  };

  const submit = async ({ formData: data }: IChangeEvent<Record<string, unknown>>) => {
    setBusy(true);
    setError(null);
    fieldErrors.clear();
    try {
      const response = await api.post<AuthResponse>(screen.submit.endpoint, withoutHidden(data ?? {}, hidden), { signOutOn401: false });
      const user = response.body.userDetails;
      saveSession({ token: response.id_token, user, postConfig: response.body.postConfig });
      if (screen.passwordExpiryWarning && expiresWithin(user.pwdDo, bundle.config.passwordExpiryWarningDays)) {
        showToast('warning', t(screen.passwordExpiryWarning));
      }
      navigate(landing, { replace: true });
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status === 400 && e.fieldErrors.length) fieldErrors.failed(serverErrorSchema(e.fieldErrors));
      // the server words its refusals in Polish (spec §8 catalogue); any detail is shown as is
      fail(errorText(e));
    }
  };

  if (!schema) return <Alert variant="danger">{t('app:notFound')}</Alert>;

  return (
    <div className="login-page">
      <h1 className="login-app-name">{preConfig.loginAppName}</h1>
      <Card className={`login-card shadow-sm${shake ? ' shake' : ''}`}>
        <Card.Body>
          {screen.title && <h2 className="h5 mb-3">{t(screen.title)}</h2>}
          {error && (
            <Alert variant="danger" role="alert" data-testid="login-error">
              {error}
            </Alert>
          )}
          <Form
            schema={schema}
            uiSchema={uiSchema}
            formData={formData}
            validator={formValidator}
            widgets={formWidgets}
            transformErrors={transformErrors}
            templates={formTemplates}
            extraErrors={fieldErrors.extraErrors}
            liveValidate={fieldErrors.liveValidate}
            showErrorList={false}
            noHtml5Validate
            onChange={(e) => {
              const next = e.formData ?? {};
              fieldErrors.changed(formData, next);
              setFormData(next);
            }}
            onSubmit={submit}
            onError={() => fieldErrors.failed() /* the messages are on the fields; rjsf would also log them */}
            focusOnFirstError
            idPrefix="login"
          />
          <DialogLinks links={screen.links} onOpen={setDialog} />
        </Card.Body>
      </Card>
      {dialog && <ScreenView screenId={dialog} presentation="dialog" onClose={() => setDialog(null)} />}
    </div>
  );
}
