/**
 * What the driver's phone tells above every signed-in page (issue 47): a newer version of the
 * portal ("Dostępna nowa wersja portalu — odśwież", put in place only when no form is half-filled),
 * no network with the time of the data shown ("Dane z 12:04"), and the outbox: how many
 * submissions wait ("Czeka na wysłanie: 2") and those the server refused, with its reason.
 */
import { useAtom, useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from '../config/texts';
import { useAnyFormDirty } from '../state/dirty-forms';
import { keptTime } from './kept-time';
import { outboxItemsAtom, removeSubmission, sendWaiting, startOutbox } from './offline';
import { offlineSinceAtom } from './offline-memory';
import { applyRuntimeUpdate } from './register';
import { onRefreshPressed, runtimeUpdateAtom } from './update-state';

function useOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
}

function UpdateNotice() {
  const { t } = useTranslation();
  const [update, setUpdate] = useAtom(runtimeUpdateAtom);
  const dirty = useAnyFormDirty();
  // asked while a form was half-filled: done once it is sent or closed
  useEffect(() => {
    if (update === 'afterForm' && !dirty) void applyRuntimeUpdate();
  }, [update, dirty]);
  if (!update) return null;
  const press = () => (onRefreshPressed(dirty) === 'now' ? void applyRuntimeUpdate() : setUpdate('afterForm'));
  return (
    <div className="alert alert-info d-flex flex-wrap align-items-center gap-2 py-2 mb-2" role="status" data-testid="update-notice">
      <span className="me-auto">{t(update === 'afterForm' ? 'app:update.afterForm' : 'app:update.available')}</span>
      {update === 'available' && (
        <button type="button" className="btn btn-sm btn-primary" onClick={press}>
          {t('app:update.reload')}
        </button>
      )}
    </div>
  );
}

function OfflineNotice() {
  const { t } = useTranslation();
  const online = useOnline();
  const since = useAtomValue(offlineSinceAtom);
  if (online && since === null) return null;
  return (
    <div className="alert alert-warning d-flex flex-wrap align-items-center gap-2 py-2 mb-2" role="status" data-testid="offline-notice">
      {!online && <strong>{t('app:offline.noNetwork')}</strong>}
      {since !== null && <span>{t('app:offline.dataFrom', { time: keptTime(since) })}</span>}
    </div>
  );
}

function OutboxNotice() {
  const { t } = useTranslation();
  const online = useOnline();
  const items = useAtomValue(outboxItemsAtom);
  const waiting = items.filter((s) => !s.failed);
  const failed = items.filter((s) => s.failed);
  if (!items.length) return null;
  return (
    <section className="alert alert-light border py-2 mb-2" aria-label={t('app:outbox.title')} data-testid="outbox">
      {waiting.length > 0 && (
        <div className="d-flex flex-wrap align-items-center gap-2">
          <span className="me-auto" role="status">{t('app:outbox.waiting', { count: waiting.length })}</span>
          {online && (
            <button type="button" className="btn btn-sm btn-outline-primary" onClick={() => void sendWaiting()}>
              {t('app:outbox.sendNow')}
            </button>
          )}
        </div>
      )}
      {failed.length > 0 && (
        <>
          <h2 className="h6 text-danger mt-1 mb-1">{t('app:outbox.failedCount', { count: failed.length })}</h2>
          <ul className="list-unstyled mb-0">
            {failed.map((s) => (
              <li key={s.id} className="d-flex flex-wrap align-items-center gap-2 border-top pt-1 mt-1">
                <span className="me-auto">
                  <strong>{t(s.title)}</strong> ({keptTime(s.at)}): {s.failed!.reason}
                </span>
                <button type="button" className="btn btn-sm btn-outline-danger" onClick={() => void removeSubmission(s.id!)}>
                  {t('app:outbox.remove')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

export function PhoneStatus() {
  useEffect(startOutbox, []);
  return (
    <>
      <UpdateNotice />
      <OfflineNotice />
      <OutboxNotice />
    </>
  );
}
