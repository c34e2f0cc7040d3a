/**
 * The `action` screen type: opening the route runs one call (the admin's refresh of the
 * configuration, spec §2 /app/refresh), then goes back and reloads the page after the declared
 * delay, so the runtime starts again on the new configuration. A failure is shown and stays.
 */
import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import { useTranslation } from '../../config/texts';
import { useNavigate } from 'react-router';
import { api, ApiError } from '../../api/client';
import type { ActionScreenDecl } from '../../config/bundle';
import { showToast } from '../../state/ui';
import { Loading } from '../Loading';
import type { ScreenProps } from '../types';

export default function ActionScreen({ screen }: ScreenProps<ActionScreenDecl>) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failed, setFailed] = useState<string[] | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice; the call runs once
    started.current = true;
    const call = screen.call.method === 'POST' ? api.post(screen.call.endpoint, {}, { quiet: true }) : api.get(screen.call.endpoint, { quiet: true });
    call.then(
      () => {
        if (screen.success) showToast('success', t(screen.success));
        const delay = screen.then?.reloadAfterMs;
        const reload = () => delay !== undefined && setTimeout(() => window.location.reload(), delay);
        // going back is asynchronous: the page reloads once the browser is on the page before,
        // never on this route (it would run the call again)
        const canGoBack = ((window.history.state as { idx?: number } | null)?.idx ?? 0) > 0;
        if (screen.then?.back && canGoBack) {
          window.addEventListener('popstate', reload, { once: true });
          navigate(-1);
        } else if (screen.then?.back) {
          // opened directly (a bookmark): there is no page before it, the portal's start page is
          navigate('/', { replace: true });
          reload();
        } else reload();
      },
      (e) => {
        const reasons = e instanceof ApiError ? e.fieldErrors.map((f) => `${f.field}: ${f.message}`) : [];
        showToast('error', t(screen.failure));
        setFailed(reasons);
      },
    );
  }, [screen, navigate, t]);

  if (!failed) return <Loading text={t(screen.running)} />;
  return (
    <section>
      <h1 className="page-title">{t(screen.title)}</h1>
      <Alert variant="danger" data-testid="action-failed">
        <p className="mb-0">{t(screen.failure)}</p>
        {failed.length > 0 && (
          <ul className="mb-0 mt-2 small">
            {failed.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        )}
      </Alert>
    </section>
  );
}
