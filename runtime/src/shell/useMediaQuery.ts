import { useCallback, useSyncExternalStore } from 'react';

/** Whether a CSS media query matches now; re-renders when that changes. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => true);
}

/** Whether the window is at least `breakpoint` px wide (the spec's 992 px desktop breakpoint). */
export const useIsWide = (breakpoint: number) => useMediaQuery(`(min-width: ${breakpoint}px)`);
