import { useTranslation } from '../config/texts';

/** A centred spinner with a spoken "Ładowanie..." (or the given text); Bootstrap's markup, no react-bootstrap (the login page shows it). */
export function Loading({ text }: { text?: string } = {}) {
  const { t } = useTranslation();
  return (
    <div className="d-flex justify-content-center align-items-center gap-2 p-4 loading-text" role="status">
      <span className="spinner-border spinner-border-sm" aria-hidden="true" />
      <span>{text ?? t('app:loading')}</span>
    </div>
  );
}
