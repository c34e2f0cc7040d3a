/**
 * The `button-modal` screen type (schemas/meta/button-modal.schema.json): one button per item of its
 * data source (the intervention types of the service-order modal). The first rule whose `when` holds
 * for the item decides whether its button shows and which dialog it opens, with the values taken
 * from the item (the order wizard with the type chosen). A rule naming a screen that is not
 * configured shows its button disabled, with the rule's explanation. A save in the opened dialog
 * closes this screen too (back to the page the user came from); cancelling it comes back here.
 */
import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { useConfig } from '../../config/ConfigContext';
import type { ButtonModalDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';
import { itemButtons, type ItemButton } from './buttons';

export default function ButtonModal({ screen, screenId, presentation, onClose, onChanged }: ScreenProps<ButtonModalDecl>) {
  const { t } = useTranslation();
  const { bundle, conditions } = useConfig();
  const ctx = useConditionContext();
  const titleId = useId();
  const [open, setOpen] = useState<{ screen: string; values: Record<string, unknown> } | null>(null);
  // the dialog tells of its save, then closes: the save decides whether this screen closes too
  const saved = useRef(false);
  const buttons = itemButtons(screen, conditions, ctx, (id) => Object.hasOwn(bundle.screens, id));

  const body = (
    <div className="button-modal" data-screen={screenId}>
      {screen.intro && <p>{t(screen.intro)}</p>}
      <div className="d-grid gap-2">
        {buttons.map(({ item, screen: target, values, unavailable }: ItemButton) => (
          <div key={item.id}>
            <Button
              variant="outline-primary"
              className="w-100 text-start"
              data-item={item.id}
              disabled={!!unavailable}
              aria-describedby={unavailable ? `${titleId}-${item.id}` : undefined}
              onClick={() => setOpen({ screen: target, values })}
            >
              {item.icon && <i className={`bi bi-${item.icon} me-2`} aria-hidden="true" />}
              {t(item.label)}
            </Button>
            {unavailable && <div id={`${titleId}-${item.id}`} className="form-text">{t(unavailable)}</div>}
          </div>
        ))}
      </div>
      {open && (
        <ScreenView
          screenId={open.screen}
          presentation="dialog"
          opening={{ values: open.values }}
          onChanged={() => {
            saved.current = true;
            onChanged?.();
          }}
          onClose={() => {
            setOpen(null);
            if (saved.current) onClose?.();
          }}
        />
      )}
    </div>
  );

  if (presentation !== 'dialog') return body;
  return (
    <Modal show centered onHide={() => onClose?.()} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel={t('app:close')}>
        <Modal.Title id={titleId} as="h2" className="h5">{t(screen.title)}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
    </Modal>
  );
}
