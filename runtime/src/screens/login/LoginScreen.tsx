/**
 * The `login` screen type: a light form (forms/LightForm.tsx — not the form library, so the first
 * page loads quickly) over the request schema the screen names, laid out by the screen's `fields`. On success the session (token + user) is stored and the user goes to the
 * routes' landing page; a refusal shows the server's detail, a 400's field errors on their fields.
 * Bootstrap's card and alert markup rather than react-bootstrap's components, and the signed-in
 * pages' code asked for only as the user signs in (issue 33: the login page's JavaScript).
 */
import { lazy, Suspense, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { useTranslation } from '../../config/texts';
import { useNavigate, useSearchParams } from 'react-router';
import { api, ApiError, apiUrl, errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import { conditionContext } from '../../config/context';
import type { LoginScreenDecl, Session } from '../../config/bundle';
import { LightForm } from '../../forms/LightForm';
import { choicesOf, initialData, type ObjectSchema } from '../../forms/light-form';
import { serverErrorSchema } from '../../forms/server-errors';
import { hiddenFieldIds, namespaceOf, withoutHidden, withoutSchemaTexts } from '../../forms/field-rules';
import { useFieldErrors } from '../../forms/useFieldErrors';
import { landingPath } from '../../routing/resolve';
import { useRoutesDecl } from '../../routing/useNavigateTo';
import { saveSession, saveSessionForNextStart } from '../../state/session';
import { loadIconFont } from '../../shell/icon-font';
import { loadSignedInParts } from '../../shell/signed-in';
import { showToast } from '../../state/ui';
import type { SecondFactorMethod, SecondStepDecl } from './SecondStep';
import { ScreenView } from '../ScreenView';
import { chooseLanguage, LanguageChoice, languageAfterSignIn } from './LanguageChoice';
import { LoginView } from './LoginView';
import { finishTakeover, takeFirstPaint, type FirstPaintTakeover } from '../../shell/first-paint';
import { rememberLanguage, bundleLanguage } from '../../config/i18n';
import type { ScreenProps } from '../types';

interface AuthResponse {
  id_token: string;
  body: { userDetails: Session['user']; postConfig?: Session['postConfig'] };
  /** An account with a second factor: the ticket of the second step instead of a session (issue 36). */
  secondFactor?: { ticket: string; methods: SecondFactorMethod[] };
}

// the second step (issue 36) comes only after a right password, for an account with a second
// factor: its code is asked for as the form is sent, not with the page (issue 48's budget)
const loadSecondStep = () => import('./SecondStep');
const SecondStep = lazy(() => loadSecondStep().then((m) => ({ default: m.SecondStep })));

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
  // drawn: the page the server drew before this code ran goes in this same frame, and what the
  // visitor entered or pressed on it is taken over (shell/first-paint.ts)
  const [takenOver, setTakenOver] = useState<FirstPaintTakeover | null>(null);
  useLayoutEffect(() => {
    const taken = takeFirstPaint('login', screen.fields, (id) =>
      choicesOf(screen.fields.find((f) => f.id === id)!, schema?.properties?.[id], t).map((c) => c.value));
    if (!taken) return;
    // a language chosen before the runtime was there: the page starts again in it, as the runtime's select does
    if (taken.language && taken.language !== bundleLanguage(bundle)) return void chooseLanguage(taken.language);
    if (Object.keys(taken.values).length) setFormData((data) => ({ ...data, ...taken.values }));
    setTakenOver(taken);
  }, []);
  useLayoutEffect(() => {
    if (takenOver) finishTakeover(takenOver);
  }, [takenOver]);
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
    // the signed-in pages' shell loads while the server checks the credentials, and the second step's code
    loadSignedInParts();
    if (secondStep) loadSecondStep().catch(() => undefined);
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
    // the landing page may depend on the role (routes.json landing): judged for the user just signed in
    const landing = landingPath(routes, conditions, conditionContext(bundle, session));
    // a user whose client another variant serves: start again with that variant's configuration
    // (the saved session makes the next start-up fetch it; docs/variants.md)
    const variant = response.body.postConfig?.variant;
    // the person's language (issue 48): one chosen on this page (or, for an account without one, the
    // page's) is kept on the account; an account's own other language starts the portal again in it
    const { language, save } = languageAfterSignIn(bundle, user.language);
    // and a bundle made for a role (issue 47: the last user's, signed out in this tab): the start-up asks for this user's
    const startAgain = (variant && variant !== bundle.variant) || language !== bundleLanguage(bundle) || bundle.role;
    if (save) await api.put('/account/language', { language }, { quiet: true, token: session.token }).catch(() => undefined);
    await rememberLanguage(language);
    if (startAgain) {
      // only stored: the portal drawn now for this session (its gates, their calls) would be replaced mid-use
      saveSessionForNextStart(session);
      window.location.replace(landing);
      return;
    }
    saveSession(session);
    // the password's expiry is judged by a module of its own, loaded after signing in: the login
    // page's budget (120 KB) has no room for what only a signed-in user needs
    const expiryWarning = screen.passwordExpiryWarning;
    if (expiryWarning) {
      void import('../../forms/password-expiry').then(({ passwordExpiresWithin }) => {
        if (passwordExpiresWithin(user, bundle.app.sessionFields.passwordValidUntil, bundle.config.passwordExpiryWarningDays)) showToast('warning', t(expiryWarning));
      });
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

  const separator = passkey ?? sso;
  return (
    <LoginView
      appName={preConfig.loginAppName}
      logo={branding.logoUrl ? { src: branding.logoUrl, alt: branding.logoAlt ?? preConfig.loginAppName } : undefined}
      title={screen.title && !secondFactor ? t(screen.title) : undefined}
      error={error}
      shake={shake}
      form={
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
      }
      secondStep={
        secondFactor && secondStep ? (
          <Suspense fallback={null}>
            <SecondStep
              decl={secondStep} ticket={secondFactor.ticket} methods={secondFactor.methods}
              onSignedIn={signedIn} onError={fail}
              onBack={() => { setSecondFactor(null); setError(null); }}
            />
          </Suspense>
        ) : undefined
      }
      separator={separator ? t(separator.separator) : undefined}
      passkey={passkey ? { label: t(passkey.label), hint: passkey.hint ? t(passkey.hint) : undefined, busy, onClick: () => void signInWithPasskey() } : undefined}
      sso={sso ? { label: t(sso.label, { name: sso.name }), href: apiUrl(sso.endpoint), busy } : undefined}
      links={screen.links?.map((link) => ({ ...link, label: t(link.label) }))}
      onOpenLink={setDialog}
      language={<LanguageChoice bundle={bundle} />}
    >
      {dialog && <ScreenView screenId={dialog} presentation="dialog" onClose={() => setDialog(null)} />}
    </LoginView>
  );
}
