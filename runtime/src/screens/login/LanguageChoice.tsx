/**
 * The sign-in page's language choice (issue 48): the languages the bundle offers, each by its own
 * name. A choice is kept on this device (the `portal.lang` cookie the server reads) and the page
 * starts again in it; once the person signs in it goes to his account (LoginScreen's signedIn).
 */
import { useTranslation } from '../../config/texts';
import type { Bundle } from '../../config/bundle';
import { bundleLanguage, rememberLanguage } from '../../config/i18n';
import { LanguageSelect } from './LoginView';

/** Set for this tab when a language was chosen on the sign-in page: the sign-in keeps it on the account. */
export const CHOSEN_HERE_KEY = 'portal.languageChosen';

export function LanguageChoice({ bundle }: { bundle: Bundle }) {
  const { t } = useTranslation();
  const languages = bundle.languages ?? [];
  return (
    <LanguageSelect
      label={t('app:language.choose')}
      languages={languages}
      current={bundleLanguage(bundle)}
      onChange={(id) => void chooseLanguage(id)}
    />
  );
}

/** A language chosen on the sign-in page (its select, or the served page's before the runtime took it over: LoginScreen). */
export async function chooseLanguage(id: string) {
  try {
    sessionStorage.setItem(CHOSEN_HERE_KEY, id);
  } catch {
    // without storage the choice still holds on this device; the account keeps its own
  }
  // the page is loaded again only once the choice is kept: the load would be in the old language
  await rememberLanguage(id);
  window.location.reload();
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
