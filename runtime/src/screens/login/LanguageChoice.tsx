/**
 * The sign-in page's language choice (issue 48): the languages the bundle offers, each by its own
 * name. A choice is kept on this device (the `portal.lang` cookie the server reads) and the page
 * starts again in it; once the person signs in it goes to his account (LoginScreen's signedIn).
 */
import { useTranslation } from '../../config/texts';
import type { Bundle } from '../../config/bundle';
import { bundleLanguage, rememberLanguage } from '../../config/i18n';

/** Set for this tab when a language was chosen on the sign-in page: the sign-in keeps it on the account. */
export const CHOSEN_HERE_KEY = 'portal.languageChosen';

export function LanguageChoice({ bundle }: { bundle: Bundle }) {
  const { t } = useTranslation();
  const languages = bundle.languages ?? [];
  if (languages.length < 2) return null;
  const current = bundleLanguage(bundle);
  return (
    <div className="login-language mt-3 text-center">
      <select
        className="form-select form-select-sm d-inline-block w-auto"
        aria-label={t('app:language.choose')}
        value={current}
        data-testid="login-language"
        onChange={(e) => {
          rememberLanguage(e.target.value);
          try {
            sessionStorage.setItem(CHOSEN_HERE_KEY, e.target.value);
          } catch {
            // without storage the choice still holds on this device; the account keeps its own
          }
          window.location.reload();
        }}
      >
        {languages.map((l) => (
          <option key={l.id} value={l.id} lang={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The language a sign-in keeps on the account: one chosen on this page, else the account's own, else the one the page is in. */
export function languageAfterSignIn(bundle: Bundle, account: string | null | undefined): { language: string; save: boolean } {
  let chosenHere: string | null = null;
  try {
    chosenHere = sessionStorage.getItem(CHOSEN_HERE_KEY);
    sessionStorage.removeItem(CHOSEN_HERE_KEY);
  } catch {
    // no storage: nothing was kept
  }
  const offered = (id: string | null | undefined) => !!id && (bundle.languages ?? []).some((l) => l.id === id);
  if (offered(chosenHere)) return { language: chosenHere!, save: chosenHere !== account };
  if (offered(account)) return { language: account!, save: false };
  return { language: bundleLanguage(bundle), save: (bundle.languages ?? []).length > 1 };
}
