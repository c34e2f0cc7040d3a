import { lazy, Suspense, type ComponentType } from 'react';

/**
 * A part of the page loaded when first drawn (a closable modal, the toasts, the signed-in shell),
 * so that the login page carries none of it (issue 33). A part whose chunk cannot be loaded (the
 * server gone) draws nothing instead of breaking the page; the page around it goes on.
 */
export function lazyPart<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Part = lazy(() => load().catch(() => ({ default: (() => null) as ComponentType<P> })));
  return function LazyPart(props: P) {
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  };
}
