import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import type { ButtonInstance } from './record';

/**
 * The buttons of a details dialog (footer, above a list, in a row, the approval inbox's rows); each
 * runs its action on its row. Destructive ones (tone danger: Odrzuć, Anuluj zlecenie, Usuń) are kept
 * apart from the others and from each other, outlined rather than filled, so that a hurried click
 * on a safe decision never lands on one that cannot be taken back.
 */
export function ActionButtons({ buttons, busy, size, onRun, className }: {
  buttons: ButtonInstance[];
  busy: boolean;
  size?: 'sm';
  onRun: (b: ButtonInstance) => void;
  className?: string;
}) {
  const { t } = useTranslation();
  if (!buttons.length) return null;
  const destructive = buttons.filter((b) => b.tone === 'danger');
  const safe = buttons.filter((b) => b.tone !== 'danger');
  const button = (b: ButtonInstance) => (
    <Button
      key={b.key}
      size={size}
      variant={b.tone === 'danger' ? 'outline-danger' : b.tone && b.tone !== 'secondary' ? b.tone : 'outline-secondary'}
      className="text-nowrap"
      disabled={busy || b.disabled}
      data-action={b.button.id}
      data-tone={b.tone ?? undefined}
      onClick={() => onRun(b)}
    >
      {b.button.icon && <i className={`bi bi-${b.button.icon} me-1`} aria-hidden="true" />}
      {t(b.label)}
    </Button>
  );
  return (
    <div className={`action-buttons d-flex flex-wrap gap-2 ${className ?? ''}`}>
      {safe.map(button)}
      {destructive.length > 0 && <div className={`action-buttons-destructive${safe.length ? '' : ' action-buttons-destructive--alone'}`}>{destructive.map(button)}</div>}
    </div>
  );
}
