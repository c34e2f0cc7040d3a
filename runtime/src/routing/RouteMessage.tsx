import infoCircle from 'bootstrap-icons/icons/info-circle.svg?raw';
import { useTranslation } from '../config/texts';
import { ShellIcon } from '../shell/ShellIcon';

/** A page that only says something: no access (app:noAccess) or not found (app:notFound); its icon inline, as a visitor may see it. */
export function RouteMessage({ textKey, variant = 'warning' }: { textKey: string; variant?: string }) {
  const { t } = useTranslation();
  return (
    <section className="route-message" data-testid="route-message">
      <h1 className="visually-hidden">{t(textKey)}</h1>
      <div className={`alert alert-${variant} mt-2`} role="alert">
        <ShellIcon svg={infoCircle} className="me-2" />
        {t(textKey)}
      </div>
    </section>
  );
}
