/**
 * The second step of a sign-in (issue 36), in place of the login form once the password is
 * right for an account with a second factor: a 6-digit code of the authenticator app, or — by the
 * links under it — a recovery code ("Użyj kodu odzyskiwania") or a passkey ("Użyj klucza
 * dostępu"), as the account allows (the server's `methods`). The passkey code
 * (@simplewebauthn/browser) is loaded only when asked for, so the login page stays small.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../config/texts';
import { api, errorText } from '../../api/client';
import type { SecondStepKey } from '../../../core/screen-texts/second-step';

export type SecondFactorMethod = 'totp' | 'recovery' | 'passkey';
export interface SecondStepDecl { title: string; texts: string; endpoints: { code: string; passkeyOptions: string; passkey: string } }

export function SecondStep({ decl, ticket, methods, onSignedIn, onBack, onError }: {
  decl: SecondStepDecl;
  ticket: string;
  methods: SecondFactorMethod[];
  onSignedIn: (response: any) => Promise<void>;
  onBack: () => void;
  onError: (message: string) => void;
}) {
  const { t } = useTranslation();
  const tx = (key: SecondStepKey) => t(`${decl.texts}.${key}`);
  const [method, setMethod] = useState<SecondFactorMethod>(methods[0]);
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setValue('');
    input.current?.focus();
  }, [method]);

  const send = async (work: () => Promise<any>) => {
    setBusy(true);
    try {
      await onSignedIn(await work());
    } catch (e) {
      setBusy(false);
      onError(errorText(e));
    }
  };
  const submitCode = () => send(() => api.post(decl.endpoints.code, method === 'totp' ? { ticket, code: value.trim() } : { ticket, recoveryCode: value.trim() }, { signOutOn401: false, quiet: true }));
  const usePasskey = () => send(async () => {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const options = await api.post<any>(decl.endpoints.passkeyOptions, { ticket }, { signOutOn401: false, quiet: true });
    const response = await startAuthentication({ optionsJSON: options });
    return api.post(decl.endpoints.passkey, { ticket, response }, { signOutOn401: false, quiet: true });
  });

  const others = methods.filter((m) => m !== method);
  const linkText: Record<SecondFactorMethod, SecondStepKey> = { totp: 'useTotp', recovery: 'useRecoveryCode', passkey: 'usePasskey' };
  return (
    <div className="second-step" data-testid="second-step">
      <h2 className="h5 mb-3">{t(decl.title)}</h2>
      {method === 'passkey' ? (
        <>
          <p>{tx('passkeyIntro')}</p>
          <button type="button" className="btn btn-primary w-100 mb-3" disabled={busy} onClick={() => void usePasskey()}>{tx('passkeyButton')}</button>
        </>
      ) : (
        <form noValidate onSubmit={(e) => { e.preventDefault(); void submitCode(); }}>
          <p>{tx(method === 'totp' ? 'totpIntro' : 'recoveryIntro')}</p>
          <div className="mb-3">
            <label className="form-label" htmlFor={inputId}>{tx(method === 'totp' ? 'code' : 'recoveryCode')}</label>
            <input
              id={inputId} ref={input} className="form-control" value={value} autoComplete="one-time-code" autoFocus
              {...(method === 'totp' ? { inputMode: 'numeric' as const, maxLength: 6, pattern: '[0-9]*' } : { maxLength: 24, autoCapitalize: 'characters' })}
              onChange={(e) => setValue(method === 'totp' ? e.target.value.replace(/\D/g, '') : e.target.value)}
            />
          </div>
          <button type="submit" className="btn btn-primary w-100 mb-3" disabled={busy || (method === 'totp' ? value.length !== 6 : value.trim().length < 16)}>{tx('submit')}</button>
        </form>
      )}
      <ul className="list-unstyled mb-0 small">
        {others.map((m) => (
          <li key={m}><button type="button" className="btn btn-link p-0" onClick={() => setMethod(m)}>{tx(linkText[m])}</button></li>
        ))}
        <li><button type="button" className="btn btn-link p-0" onClick={onBack}>{tx('back')}</button></li>
      </ul>
    </div>
  );
}
