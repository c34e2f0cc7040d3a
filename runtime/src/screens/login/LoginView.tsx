/**
 * The sign-in page's markup with its texts given: no hook, no state, no browser API, so that the
 * server draws the same page into the HTML it serves (server/init/first-paint.ts: the first paint,
 * issue 49) as the runtime then draws over it (LoginScreen.tsx, which holds the state and passes
 * its texts and handlers). Whatever the login page shows goes here, so the two cannot drift apart.
 */
import type { ReactNode } from 'react';
import type { DialogLinkDecl } from '../../config/bundle';
import { DialogLinkButtons } from '../DialogLinks';

export interface LoginViewProps {
  appName: string;
  logo?: { src: string; alt: string };
  /** The form's title (not shown beside the second step). */
  title?: string;
  error?: string | null;
  shake?: boolean;
  /** The form (LightForm), or the second step in its place with nothing under it. */
  form: ReactNode;
  secondStep?: ReactNode;
  /** The line between the form and the other ways in (passkey, single sign-on). */
  separator?: string;
  passkey?: { label: string; hint?: string; busy: boolean; onClick?: () => void };
  sso?: { label: string; href: string; busy: boolean };
  links?: DialogLinkDecl[];
  onOpenLink?: (screen: string) => void;
  /** The language choice under the card. */
  language?: ReactNode;
  /** A dialog open over the page. */
  children?: ReactNode;
}

export function LoginView({ appName, logo, title, error, shake, form, secondStep, separator, passkey, sso, links, onOpenLink, language, children }: LoginViewProps) {
  return (
    <div className="login-page">
      {logo && <img className="login-logo" src={logo.src} alt={logo.alt} />}
      <h1 className="login-app-name">{appName}</h1>
      <div className={`card login-card shadow-sm${shake ? ' shake' : ''}`}>
        <div className="card-body">
          {title && <h2 className="h5 mb-3">{title}</h2>}
          {error && (
            <div className="alert alert-danger" role="alert" data-testid="login-error">
              {error}
            </div>
          )}
          {secondStep ?? (
            <>
              {form}
              {(passkey || sso) && separator !== undefined && <p className="login-sso-separator" aria-hidden="true"><span>{separator}</span></p>}
              {passkey && (
                <div className="login-passkey">
                  <button type="button" className="btn btn-outline-primary w-100" disabled={passkey.busy} onClick={passkey.onClick} data-testid="login-passkey">
                    {passkey.label}
                  </button>
                  {passkey.hint && <p className="form-text mt-1 mb-0">{passkey.hint}</p>}
                </div>
              )}
              {sso && (
                <div className="login-sso">
                  <a className={`btn btn-outline-primary w-100${sso.busy ? ' disabled' : ''}`} href={sso.href} aria-disabled={sso.busy || undefined} data-testid="login-sso">
                    {sso.label}
                  </a>
                </div>
              )}
              <DialogLinkButtons links={links} onOpen={onOpenLink} />
            </>
          )}
        </div>
      </div>
      {language}
      {children}
    </div>
  );
}

/**
 * The language choice's markup (issue 48), shown when more than one language is offered
 * (LanguageChoice.tsx gives it its text and what a choice does).
 */
export function LanguageSelect({ label, languages, current, onChange }: {
  label: string; languages: readonly { id: string; name: string }[]; current: string; onChange: (id: string) => void;
}) {
  if (languages.length < 2) return null;
  return (
    <div className="login-language mt-3 text-center">
      <select className="form-select form-select-sm d-inline-block w-auto" aria-label={label} value={current} data-testid="login-language" onChange={(e) => onChange(e.target.value)}>
        {languages.map((l) => (
          <option key={l.id} value={l.id} lang={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}
