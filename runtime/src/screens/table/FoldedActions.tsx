/**
 * A table's toolbar on a phone (issue 49): the first button stays a button, the others fold into
 * one "Działania" menu, so the list starts on the first screen. A disclosure (a button and the list
 * it shows), not react-bootstrap's Dropdown: its popper and DOM helpers would be split out of the
 * chunks the dialogs share, and every screen would load them as files of their own.
 */
import { useEffect, useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import type { ToolbarActionDecl } from '../../config/bundle';

export function FoldedActions({ items, hasScreen, onPress }: {
  items: ToolbarActionDecl[];
  hasScreen: (id: string) => boolean;
  onPress: (item: ToolbarActionDecl) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const box = useRef<HTMLDivElement>(null);
  // a click elsewhere or Escape closes the menu, as a menu does
  useEffect(() => {
    if (!open) return;
    const away = (e: Event) => { if (!box.current?.contains(e.target as Node)) setOpen(false); };
    const escape = (e: KeyboardEvent) => { if (e.key === 'Escape') setOpen(false); };
    document.addEventListener('click', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('click', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  const [first, ...rest] = items;
  return (
    <div className="table-actions d-flex flex-wrap gap-2" role="toolbar" aria-label={t('table:actions')}>
      <Button size="sm" variant={first.needsRow ? 'outline-secondary' : 'primary'} data-action={first.id} onClick={() => onPress(first)}>
        {first.icon && <i className={`bi bi-${first.icon} me-1`} aria-hidden="true" />}
        {t(first.label)}
      </Button>
      <div className="position-relative" ref={box}>
        <Button size="sm" variant="outline-secondary" className="dropdown-toggle" aria-expanded={open} aria-controls={menuId} data-testid="table-actions-more" onClick={() => setOpen(!open)}>
          <i className="bi bi-three-dots me-1" aria-hidden="true" />
          {t('table:moreActions')}
        </Button>
        {open && (
          <div id={menuId} className="dropdown-menu show folded-actions-menu">
            {rest.map((item) => {
              const unavailable = item.unavailable && item.action.screen && !hasScreen(item.action.screen) ? t(item.unavailable) : undefined;
              return (
                <button type="button" className="dropdown-item" key={item.id} data-action={unavailable ? undefined : item.id} disabled={!!unavailable} title={unavailable}
                  onClick={() => { setOpen(false); onPress(item); }}>
                  {item.icon && <i className={`bi bi-${item.icon} me-2`} aria-hidden="true" />}
                  {t(item.label)}
                </button>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
