import Spinner from 'react-bootstrap/Spinner';
import { useTranslation } from 'react-i18next';

/** A centred spinner with a spoken "Ładowanie..." (or the given text). */
export function Loading({ text }: { text?: string } = {}) {
  const { t } = useTranslation();
  return (
    <div className="d-flex justify-content-center align-items-center gap-2 p-4 loading-text" role="status">
      <Spinner animation="border" size="sm" aria-hidden="true" />
      <span>{text ?? t('app:loading')}</span>
    </div>
  );
}
