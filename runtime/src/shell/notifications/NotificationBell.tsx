/**
 * The bell of the top bar: the number of unread notifications (a badge, hidden at 0; the button's
 * name says it in words), kept fresh by useUnreadCount; a click opens the newest notifications
 * (NotificationPanel). Loaded lazily by the top bar, so that neither the login page nor the table
 * screen carries it.
 */
import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../config/texts';
import { badgeText } from './notification-texts';
import { NotificationPanel } from './NotificationPanel';
import { pollIntervalMs } from './poller';
import { useUnreadCount } from './useUnreadCount';

export interface BellSettings {
  /** Seconds between two polls of the unread count (screens/app.json `bell.pollSeconds`). */
  pollSeconds?: number;
  /** How many of the newest notifications the list shows (`bell.listSize`). */
  listSize?: number;
}

/**
 * `writes`: the user's own writes so far (state/ui.ts userWritesAtom, read by the top bar: this
 * chunk imports no state module, which would split the shared ones into more files).
 */
export default function NotificationBell({ settings, writes }: { settings: BellSettings; writes: number }) {
  const { t } = useTranslation();
  const { unread, setUnread, refresh } = useUnreadCount(pollIntervalMs(settings.pollSeconds), writes);
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const bell = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const badge = badgeText(unread);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  return (
    <div className="notification-bell" ref={bell}>
      <button
        ref={button}
        type="button"
        className="btn btn-link text-white p-1 notification-bell-button"
        aria-label={t('notifications:bell.button', { count: unread ?? 0 })}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((o) => !o)}
        data-testid="notification-bell"
        data-unread={unread ?? undefined}
      >
        <i className={`bi bi-bell${badge ? '-fill' : ''} fs-5`} aria-hidden="true" />
        {badge && (
          <span className="notification-badge" aria-hidden="true" data-testid="notification-badge">
            {badge}
          </span>
        )}
      </button>
      {open && (
        <NotificationPanel
          id={panelId}
          limit={settings.listSize ?? 20}
          within={bell}
          onClose={close}
          onUnread={(n) => {
            setUnread(n);
            refresh();
          }}
        />
      )}
    </div>
  );
}
