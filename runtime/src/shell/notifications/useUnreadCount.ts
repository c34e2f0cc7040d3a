import { useCallback, useEffect, useRef, useState } from 'react';
import { notificationsApi } from './notifications-api';
import { browserHost, startPolling, type Poller } from './poller';

/**
 * The number of the user's unread notifications, kept fresh by polling (./poller.ts: every
 * `intervalMs` while the tab is visible, at once on coming back) and asked again whenever `writes`
 * changes: the count of the user's own writes (state/ui.ts userWritesAtom; a transition may have
 * read or made one). null until the first answer.
 */
export function useUnreadCount(intervalMs: number, writes: number) {
  const [unread, setUnread] = useState<number | null>(null);
  const poller = useRef<Poller | null>(null);

  useEffect(() => {
    const started = startPolling(() => notificationsApi.unreadCount().then((answer) => setUnread(answer.unread)), intervalMs, browserHost());
    poller.current = started;
    return () => started.stop();
  }, [intervalMs]);

  useEffect(() => {
    if (writes) poller.current?.poke();
  }, [writes]);

  const refresh = useCallback(() => poller.current?.poke(), []);
  return { unread, setUnread, refresh };
}
