/**
 * The `login` screen type: a light form (forms/LightForm.tsx — not the form library, so the first
 * page loads quickly) over the request schema the screen names, laid out by the screen's `fields`. On success the session (token + user) is stored and the user goes to the
 * routes' landing page; a refusal shows the server's detail, a 400's field errors on their fields.
 * Bootstrap's card and alert markup rather than react-bootstrap's components, and the signed-in
 * pages' code asked for only as the user signs in (issue 33: the login page's JavaScript).
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../config/texts';
import { useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, apiUrl, errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import { conditionContext } from '../../config/context';
import type { LoginScreenDecl, Session } from '../../config/bundle';
import { LightForm } from '../../forms/LightForm';
import { initialData, type ObjectSchema } from '../../forms/light-form';
import { serverErrorSchema } from '../../forms/messages';
import { hiddenFieldIds, namespaceOf, withoutHidden, withoutSchemaTexts } from '../../forms/ui-schema';
import { expiresWithin } from '../../forms/password-checks';
import { useFieldErrors } from '../../forms/useFieldErrors';
import { landingPath } from '../../routing/resolve';
import { useRoutesDecl } from '../../routing/useNavigateTo';
import { saveSession } from '../../state/session';
import { loadIconFont } from '../../shell/icon-font';
import { loadSignedInParts } from '../../shell/signed-in';
import { showToast } from '../../state/ui';
import { DialogLinks } from '../DialogLinks';
import { SecondStep, type SecondFactorMethod, type SecondStepDecl } from './SecondStep';
import { ScreenView } from '../ScreenView';
import { LanguageChoice, languageAfterSignIn } from './LanguageChoice';
import { rememberLanguage, bundleLanguage } from '../../config/i18n';
import type { ScreenProps } from '../types';

interface AuthResponse {
  id_token: string;
  body: { userDetails: Session['user']; postConfig?: Session['postConfig'] };
  /** An account with a second factor: the ticket of the second step instead of a session (issue 36). */
  secondFactor?: { ticket: string; methods: SecondFactorMethod[] };
}

/** Error shake animation length (spec §9). */
const SHAKE_MS = 500;

export default function LoginScreen({ screen }: ScreenProps<LoginScreenDecl>) {
  const { t } = useTranslation();
  const { bundle, preConfig, conditions, branding } = useConfig();
  const routes = useRoutesDecl();
  const navigate = useNavigate();
  const schema = useMemo(() => withoutSchemaTexts(bundle.schemas[screen.schema]) as ObjectSchema | undefined, [bundle, screen.schema]);

  // the schema's defaults are the first values (the login choice starts on its default)
  const [formData, setFormData] = useState<Record<string, unknown>>(() => (schema ? initialData(schema) : {}));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fieldErrors = useFieldErrors();
  const [shake, setShake] = useState(false);
  const [secondFactor, setSecondFactor] = useState<AuthResponse['secondFactor'] | null>(null);
  const [searchParams] = useSearchParams();
  // /?reset opens the set-password dialog (spec §2); other query dialogs the same way
  const queryDialog = Object.entries(screen.queryDialogs ?? {}).find(([q]) => searchParams.has(q))?.[1] ?? null;
  const [dialog, setDialog] = useState<string | null>(queryDialog);
  // the form shows no glyph of the icon font; the dialogs it opens may
  useEffect(() => {
    if (dialog) loadIconFont();
  }, [dialog]);

  // a guest has no session: the fields' rules look at the form data (context.record)
  const guestContext = useMemo(() => conditionContext(bundle, null), [bundle]);
  const hidden = useMemo(
    () => hiddenFieldIds(screen.fields, conditions, guestContext, formData),
    [screen.fields, conditions, guestContext, formData],
  );
  const namespace = namespaceOf(screen.title, 'login');
  const secondStep = (screen as { secondStep?: SecondStepDecl }).secondStep;

  const fail = (message: string) => {
    setError(message);
    setShake(true);
    setTimeout(() => setShake(false), SHAKE_MS);
  };

  const submit = async (data: Record<string, unknown>) => {
    setBusy(true);
    setError(null);
    fieldErrors.clear();
    // the signed-in pages' shell loads while the server checks the credentials
    loadSignedInParts();
    try {
      const response = await api.post<AuthResponse>(screen.submit.endpoint, withoutHidden(data ?? {}, hidden), { signOutOn401: false });
      if (response.secondFactor && secondStep) {
        setBusy(false);
        setSecondFactor(response.secondFactor);
        return;
      }
      await signedIn(response);
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status === 400 && e.fieldErrors.length) fieldErrors.failed(serverErrorSchema(e.fieldErrors));
      // the server words its refusals in Polish (spec §8 catalogue); any detail is shown as is
      fail(errorText(e));
    }
  };

  /** Every factor proven (the form's answer, its second step's, or a single sign-on's picked up below): the session, then the landing page. */
  const signedIn = async (response: AuthResponse) => {
    const user = response.body.userDetails;
    const session: Session = { token: response.id_token, user, postConfig: response.body.postConfig };
    saveSession(session);
    // the landing page may depend on the role (routes.json landing): judged for the user just signed in
    const landing = landingPath(routes, conditions, conditionContext(bundle, session));
    if (screen.passwordExpiryWarning && expiresWithin(user.pwdDo, bundle.config.passwordExpiryWarningDays)) {
      showToast('warning', t(screen.passwordExpiryWarning));
    }
    // a user whose client another variant serves: start again with that variant's configuration
    // (the saved session makes the next start-up fetch it; docs/variants.md)
    const variant = response.body.postConfig?.variant;
    // the person's language (issue 48): one chosen on this page (or, for an account without one, the
    // page's) is kept on the account; an account's own other language starts the portal again in it
    const { language, save } = languageAfterSignIn(bundle, user.language);
    if (save) await api.put('/account/language', { language }, { quiet: true }).catch(() => undefined);
    rememberLanguage(language);
    if ((variant && variant !== bundle.variant) || language !== bundleLanguage(bundle)) {
      window.location.replace(landing);
      return;
    }
    navigate(landing, { replace: true });
  };
  // A sign-in with a passkey alone (issue 36): the form's role choice and vehicle fields go first (a 400 names
  // the field), then the browser's passkey dialog; its answer signs in like the form. The passkey code
  // (@simplewebauthn/browser) is loaded only when asked for, so the login page stays small.
  const passkey = screen.passkeySignIn && typeof window.PublicKeyCredential === 'function' ? screen.passkeySignIn : undefined;
  const signInWithPasskey = async () => {
    if (!passkey) return;
    setBusy(true);
    setError(null);
    fieldErrors.clear();
    loadSignedInParts();
    const sent = withoutHidden(Object.fromEntries(passkey.send.filter((id) => id in formData).map((id) => [id, formData[id]])), hidden);
    try {
      const options = await api.post<any>(passkey.endpoints.options, sent, { signOutOn401: false, quiet: true });
      const { startAuthentication } = await import('@simplewebauthn/browser');
      let response;
      try {
        response = await startAuthentication({ optionsJSON: options });
      } catch {
        // the person closed the browser's dialog, or no passkey of this portal is on the device (the browser does not say which)
        setBusy(false);
        fail(t(passkey.texts.cancelled));
        return;
      }
      await signedIn(await api.post<AuthResponse>(passkey.endpoints.signIn, { response }, { signOutOn401: false, quiet: true }));
    } catch (e) {
      setBusy(false);
      if (e instanceof ApiError && e.status === 400 && e.fieldErrors.length) fieldErrors.failed(serverErrorSchema(e.fieldErrors));
      fail(errorText(e));
    }
  };
  // Single sign-on (issue 36): the provider's callback sends the browser back here with a one-time
  // code in the fragment (#sso=…), exchanged once for the session or the refusal's Polish reason.
  const sso = screen.singleSignOn && bundle.app.sso ? { ...screen.singleSignOn, name: bundle.app.sso.name } : undefined;
  useEffect(() => {
    const code = /^#sso=([A-Za-z0-9_-]{43})$/.exec(window.location.hash)?.[1];
    if (!code || !screen.singleSignOn) return;
    // the code is used once: it leaves the address bar (and the history) at once
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    setBusy(true);
    loadSignedInParts();
    api.post<AuthResponse>(screen.singleSignOn.pickUp, { code }, { signOutOn401: false }).then(signedIn, (e: unknown) => {
      setBusy(false);
      fail(errorText(e));
    });
    // once, as the page opens
  }, []);

  if (!schema) {
    return (
      <div className="alert alert-danger" role="alert">
        {t('app:notFound')}
      </div>
    );
  }

  return (
    <div className="login-page">
      {branding.logoUrl && <img className="login-logo" src={branding.logoUrl} alt={branding.logoAlt ?? preConfig.loginAppName} />}
      <h1 className="login-app-name">{preConfig.loginAppName}</h1>
      <div className={`card login-card shadow-sm${shake ? ' shake' : ''}`}>
        <div className="card-body">
          {screen.title && !secondFactor && <h2 className="h5 mb-3">{t(screen.title)}</h2>}
          {error && (
            <div className="alert alert-danger" role="alert" data-testid="login-error">
              {error}
            </div>
          )}
          {secondFactor && secondStep ? (
            <SecondStep
              decl={secondStep} ticket={secondFactor.ticket} methods={secondFactor.methods}
              onSignedIn={signedIn} onError={fail}
              onBack={() => { setSecondFactor(null); setError(null); }}
            />
          ) : (<>
          <LightForm
            idPrefix="login"
            schema={schema}
            fields={screen.fields}
            namespace={namespace}
            t={t}
            formData={formData}
            hidden={hidden}
            extraErrors={fieldErrors.extraErrors}
            liveValidate={fieldErrors.liveValidate !== undefined}
            submitLabel={t(screen.submit.label)}
            submitDisabled={busy}
            onChange={(next) => {
              fieldErrors.changed(formData, next);
              setFormData(next);
            }}
            onSubmit={submit}
            onError={() => fieldErrors.failed()}
          />
          {(passkey || sso) && <p className="login-sso-separator" aria-hidden="true"><span>{t((passkey ?? sso)!.separator)}</span></p>}
          {passkey && (
            <div className="login-passkey">
              <button type="button" className="btn btn-outline-primary w-100" disabled={busy} onClick={() => void signInWithPasskey()} data-testid="login-passkey">
                {t(passkey.label)}
              </button>
              {passkey.hint && <p className="form-text mt-1 mb-0">{t(passkey.hint)}</p>}
            </div>
          )}
          {sso && (
            <div className="login-sso">
              <a className={`btn btn-outline-primary w-100${busy ? ' disabled' : ''}`} href={apiUrl(sso.endpoint)} aria-disabled={busy || undefined} data-testid="login-sso">
                {t(sso.label, { name: sso.name })}
              </a>
            </div>
          )}
          <DialogLinks links={screen.links} onOpen={setDialog} />
          </>)}
        </div>
      </div>
      <LanguageChoice bundle={bundle} />
      {dialog && <ScreenView screenId={dialog} presentation="dialog" onClose={() => setDialog(null)} />}
    </div>
  );
}
