import { useTranslation } from '../config/texts';
import { StaticModal } from './StaticModal';

/** The blocking loading modal ('Ładowanie...') shown while the application starts. */
export function LoadingModal({ show }: { show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <StaticModal size="sm" label={t('app:loading')} testId="loading-modal">
      <div className="modal-body d-flex align-items-center gap-3" role="status">
        <span className="spinner-border text-primary" aria-hidden="true" />
        <span>{t('app:loading')}</span>
      </div>
    </StaticModal>
  );
}
