import { Suspense } from 'react';
import Alert from 'react-bootstrap/Alert';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../config/ConfigContext';
import type { RenderableScreen } from '../config/bundle';
import { Loading } from './Loading';
import { useScreenRegistry } from './ScreenRegistryContext';
import type { ScreenProps } from './types';

type ScreenViewProps = Omit<ScreenProps, 'screen'>;

/**
 * Renders a screen of the bundle by id through the registry of the context (ScreenRegistryContext,
 * never by importing the registry). A route may name a screen that no file declares yet (the portal grows screen by screen); that shows "not available yet".
 */
export function ScreenView(props: ScreenViewProps) {
  const { bundle } = useConfig();
  const registry = useScreenRegistry();
  const screen = bundle.screens[props.screenId] as RenderableScreen | undefined;
  const Component = screen ? registry.get(screen.type)?.component : undefined;
  if (!screen || !Component) return <Unavailable {...props} />;
  return (
    <Suspense fallback={<Loading />}>
      <Component {...props} screen={screen} />
    </Suspense>
  );
}

function Unavailable({ presentation, onClose }: ScreenViewProps) {
  const { t } = useTranslation();
  const message = (
    <Alert variant="info" className="mb-0" data-testid="coming-soon">
      {t('app:comingSoon')}
    </Alert>
  );
  // a dialog opened by an action has no modal around it yet, and must still be closable
  if (presentation === 'dialog' && onClose) {
    return (
      <Modal show onHide={onClose} centered aria-label={t('app:comingSoon')}>
        <Modal.Header closeButton closeLabel={t('app:close')} />
        <Modal.Body>{message}</Modal.Body>
      </Modal>
    );
  }
  return message;
}
