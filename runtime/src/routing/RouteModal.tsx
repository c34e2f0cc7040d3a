import { useId } from 'react';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../config/texts';
import type { RouteDecl } from '../config/bundle';
import { ScreenView } from '../screens/ScreenView';

/** A route with `modal: true`: its screen in a modal over the page beneath; closing goes back. */
export function RouteModal({ route, screenId, onClose }: { route: RouteDecl; screenId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Modal show onHide={onClose} size="lg" centered aria-labelledby={route.title ? titleId : undefined} data-route={route.id}>
      <Modal.Header closeButton closeLabel={t('app:close')}>
        {route.title && (
          <Modal.Title id={titleId} as="h2" className="h5">
            {t(route.title)}
          </Modal.Title>
        )}
      </Modal.Header>
      <Modal.Body>
        <ScreenView screenId={screenId} presentation="modal" onClose={onClose} />
      </Modal.Body>
    </Modal>
  );
}
