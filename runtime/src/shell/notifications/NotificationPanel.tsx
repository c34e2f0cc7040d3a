/**
 * The list the bell opens: the newest notifications first, each with its title, text and when it
 * came, the unread ones marked (a dot and a spoken "nieprzeczytane"). A click marks one read and
 * opens its record (`link`, e.g. /app/order?open=123: the table opens that record's details);
 * "Oznacz wszystkie jako przeczytane" reads them all. Not modal: Escape or the close button closes
 * it and returns to the bell, a click elsewhere closes it too. On a phone it spans the width (CSS).
 */
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { useTranslation } from '../../config/texts';
import { useNavigate } from 'react-router';
import { errorText } from '../../api/client';
import { whenText } from './notification-texts';
import { notificationsApi, type NotificationItem, type NotificationPage } from './notifications-api';

interface PanelProps {
  id: string;
  limit: number;
  /** The bell with its panel: a click inside it is not a click elsewhere. */
  within: RefObject<HTMLElement | null>;
  onClose: (returnFocus: boolean) => void;
  /** The unread count the server answered along with the list or after marking. */
  onUnread: (unread: number) => void;
}

export function NotificationPanel({ id, limit, within, onClose, onUnread }: PanelProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const headingId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const [page, setPage] = useState<NotificationPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ onClose, onUnread });
  latest.current = { onClose, onUnread };

  const load = () =>
    notificationsApi.newest(limit).then(
      (answer) => {
        setPage(answer);
        setError(null);
        latest.current.onUnread(answer.unread);
      },
      (e) => setError(errorText(e)),
    );

  useEffect(() => {
    void load();
    // the list is a dialog of its own: keyboard and screen-reader users start in it
    panel.current?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && latest.current.onClose(true);
    const onPointer = (e: PointerEvent) => !within.current?.contains(e.target as Node) && latest.current.onClose(false);
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
    // opened once per click on the bell
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const open = async (item: NotificationItem) => {
    if (!item.readAt) {
      // reading it is not worth keeping the user from the record: a failure only leaves it unread
      await notificationsApi.markRead(item.id).then(() => page && onUnread(Math.max(0, page.unread - 1)), () => undefined);
    }
    onClose(false);
    if (item.link) navigate(item.link);
  };

  const readAll = async () => {
    setBusy(true);
    try {
      await notificationsApi.markAllRead();
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const now = Date.now();
  return (
    <div id={id} ref={panel} className="notification-panel" role="dialog" aria-labelledby={headingId} tabIndex={-1} data-testid="notification-panel">
      <div className="notification-panel-head">
        <h2 id={headingId} className="h6 fw-semibold mb-0">
          {t('notifications:bell.title')}
        </h2>
        <button type="button" className="btn-close ms-auto" aria-label={t('app:close')} onClick={() => onClose(true)} />
      </div>
      <div className="notification-panel-tools">
        <button type="button" className="btn btn-link btn-sm p-0" onClick={() => void readAll()} disabled={busy || !page?.unread}>
          <i className="bi bi-check2-all me-1" aria-hidden="true" />
          {t('notifications:bell.markAllRead')}
        </button>
      </div>
      {error && (
        <div className="alert alert-danger m-2 mb-0" role="alert">
          {error}
        </div>
      )}
      {/* the markup of screens/Loading and EmptyState, without importing them: sharing them with the
          table's chunk would split both into more files (tools/size-budget.ts) */}
      {!page && !error && (
        <div className="d-flex justify-content-center align-items-center gap-2 p-4 loading-text" role="status">
          <span className="spinner-border spinner-border-sm" aria-hidden="true" />
          <span>{t('app:loading')}</span>
        </div>
      )}
      {page && page.items.length === 0 && (
        <div className="empty-state py-4" data-testid="empty-state">
          <i className="bi bi-inbox" aria-hidden="true" />
          <span>{t('notifications:bell.empty')}</span>
        </div>
      )}
      {page && page.items.length > 0 && (
        <ul className="notification-list">
          {page.items.map((item) => (
            <li key={item.id}>
              <button type="button" className={`notification-item${item.readAt ? '' : ' notification-item--unread'}`} onClick={() => void open(item)} data-notification={item.id}>
                <span className="notification-item-title">
                  {!item.readAt && <span className="visually-hidden">{t('notifications:bell.unreadMark')} </span>}
                  {item.title}
                </span>
                <span className="notification-item-text">{item.text}</span>
                <time className="notification-item-time" dateTime={item.createdAt}>
                  {whenText(item.createdAt, now, t)}
                </time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
