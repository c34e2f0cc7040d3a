import Button from 'react-bootstrap/Button';
import { useTranslation } from 'react-i18next';
import type { ButtonInstance } from './record';

/** The buttons of a details dialog (footer, above a list, in a row); each runs its action on its row. */
export function ActionButtons({ buttons, busy, size, onRun, className }: {
  buttons: ButtonInstance[];
  busy: boolean;
  size?: 'sm';
  onRun: (b: ButtonInstance) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!buttons.length) return null;
  return (
    <div className={`d-flex flex-wrap gap-2 ${className ?? ''}`}>
      {buttons.map((b) => (
        <Button
          key={b.key}
          size={size}
          variant={b.tone && b.tone !== 'secondary' ? b.tone : 'outline-secondary'}
          className="text-nowrap"
          disabled={busy || b.disabled}
          data-action={b.button.id}
          onClick={() => onRun(b)}
        >
          {b.button.icon && <i className={`bi bi-${b.button.icon} me-1`} aria-hidden="true" />}
          {t(b.label)}
        </Button>
      ))}
    </div>
  );
}
