import { useTranslation } from '../config/texts';

/** "Not available yet": a screen that no file declares yet (ScreenView.tsx). */
export function ComingSoon() {
  const { t } = useTranslation();
  return (
    <div className="alert alert-info mb-0" role="alert" data-testid="coming-soon">
      {t('app:comingSoon')}
    </div>
  );
}
