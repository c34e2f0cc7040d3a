import Alert from 'react-bootstrap/Alert';
import { useTranslation } from 'react-i18next';

/** A page that only says something: no access (app:noAccess) or not found (app:notFound). */
export function RouteMessage({ textKey, variant = 'warning' }: { textKey: string; variant?: string }) {
  const { t } = useTranslation();
  return (
    <section className="route-message" data-testid="route-message">
      <h1 className="visually-hidden">{t(textKey)}</h1>
      <Alert variant={variant} className="mt-2">
        <i className="bi bi-info-circle me-2" aria-hidden="true" />
        {t(textKey)}
      </Alert>
    </section>
  );
}
