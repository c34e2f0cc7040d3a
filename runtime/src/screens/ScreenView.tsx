import { lazy, Suspense } from 'react';
import { useConfig } from '../config/ConfigContext';
import type { RenderableScreen } from '../config/bundle';
import { ComingSoon } from './ComingSoon';
import { Loading } from './Loading';
import { useScreenRegistry } from './ScreenRegistryContext';
import type { ScreenProps } from './types';

type ScreenViewProps = Omit<ScreenProps, 'screen'>;

// a dialog of a screen that no file declares yet: a modal, loaded only then (the login page shows ScreenView)
const UnavailableDialog = lazy(() => import('./UnavailableDialog'));

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
  // a dialog opened by an action has no modal around it yet, and must still be closable
  if (presentation === 'dialog' && onClose) {
    return (
      <Suspense fallback={null}>
        <UnavailableDialog onClose={onClose} />
      </Suspense>
    );
  }
  return <ComingSoon />;
}
