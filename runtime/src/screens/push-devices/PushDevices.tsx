/**
 * The `push-devices` screen type (schemas/meta/push-devices.schema.json; issue 47), under
 * Ustawienia → Powiadomienia: this browser's state (notifications not supported, blocked by the
 * browser, not ready, on), "Włącz powiadomienia na tym urządzeniu" — the only place the browser is
 * asked for permission, from the person's own click — and the person's devices, each with
 * "Wyślij powiadomienie testowe" and "Usuń". The server decides everything (routes/push.ts).
 */
import { useCallback, useEffect, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import { api, errorText } from '../../api/client';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { formatDateTime } from '../../format';
import { currentSubscription, enablePush, readEnvironment, stateOf, type DeviceState, type Environment } from '../../pwa/push-client';
import { rememberTurnedOn } from '../../pwa/push-renewal';
import { showToast } from '../../state/ui';
import { Loading } from '../Loading';
import type { ScreenProps } from '../types';
import { textKey, type TextKey } from '../../../core/screen-texts/push-devices';
import './push-devices.css';

interface Device { id: number; endpoint: string; device: string | null; createdAt: string; lastSuccessAt: string | null; lastFailureAt: string | null; lastError: string | null }
interface Decl { title: string; intro?: string; texts: string }

export default function PushDevices({ screen, screenId, presentation }: ScreenProps<any>) {
  const decl = screen as Decl;
  const { t } = useTranslation();
  const tx = (key: TextKey, vars?: Record<string, unknown>) => t(textKey(decl.texts, key), vars);
  const ids = { title: useId(), list: useId() };
  const [devices, setDevices] = useState<Device[] | null>(null);
  const [env, setEnv] = useState<Environment | null>(null);
  const [endpoint, setEndpoint] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'enable' | number | null>(null);
  const [removing, setRemoving] = useState<Device | null>(null);

  const load = useCallback(async () => {
    // what the browser says (never asking for permission here) and the person's devices
    const browser = await readEnvironment().catch((): Environment => ({ supported: false, permission: 'default', registration: undefined }));
    const subscription = await currentSubscription(browser).catch(() => null);
    setEnv(browser);
    setEndpoint(subscription?.endpoint ?? null);
    try {
      setDevices(await api.get<Device[]>('/push/subscriptions', { quiet: true }));
    } catch (e) {
      setError(errorText(e, tx('devices.loadFailed')));
      setDevices([]);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => { void load(); }, [load]);

  if (!env || !devices) return <Loading />;
  const subscribed = endpoint !== null && devices.some((d) => d.endpoint === endpoint);
  const state: DeviceState = stateOf(env, subscribed);

  const enable = async () => {
    setBusy('enable');
    setError(null);
    try {
      const result = await enablePush(async () => (await api.get<{ publicKey: string }>('/push/public-key', { quiet: true })).publicKey, env);
      if (result.outcome === 'subscribed') {
        const saved = await api.post<{ message: string }>('/push/subscriptions', result.subscription, { quiet: true });
        // a subscription the browser later replaces is registered again for him (pwa/push-renewal.ts)
        if (result.subscription.endpoint) rememberTurnedOn(result.subscription.endpoint);
        showToast('success', saved.message);
      } else if (result.outcome === 'dismissed') {
        setError(tx('devices.states.dismissed'));
      }
      await load();
    } catch (e) {
      setError(tx('devices.states.failed', { reason: e instanceof Error && !('status' in e) ? e.message : errorText(e) }));
    } finally {
      setBusy(null);
    }
  };
  const test = async (device: Device) => {
    setBusy(device.id);
    try {
      const result = await api.post<{ message: string; failed: number; gone: number }>('/push/test', { id: device.id }, { quiet: true });
      showToast(result.failed || result.gone ? 'warning' : 'success', result.message);
      await load();
    } catch (e) {
      showToast('error', errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const remove = async (device: Device) => {
    setBusy(device.id);
    try {
      const answer = await api.delete<{ message: string }>(`/push/subscriptions/${device.id}`, { quiet: true });
      // this browser's own subscription ends with it, so the push service stops taking messages for it too
      if (device.endpoint === endpoint) {
        const subscription = await currentSubscription(env).catch(() => null);
        await subscription?.unsubscribe().catch(() => false);
      }
      showToast('success', answer.message);
      await load();
    } catch (e) {
      showToast('error', errorText(e));
    } finally {
      setBusy(null);
    }
  };

  const Heading = presentation === 'embedded' ? 'h2' : 'h1';
  const explained: Partial<Record<DeviceState, TextKey>> = {
    unsupported: 'devices.states.unsupported', denied: 'devices.states.denied', noWorker: 'devices.states.noWorker',
  };
  const when = (value: string | null) => formatDateTime(value) ?? '';
  return (
    <section className="push-devices" data-screen={screenId} aria-labelledby={ids.title}>
      <Heading className={presentation === 'embedded' ? 'h4' : 'page-title'} id={ids.title}>{t(decl.title)}</Heading>
      <div className="card push-devices-card shadow-sm">
        <div className="card-body">
          {decl.intro && <p className="text-secondary">{t(decl.intro)}</p>}
          {explained[state] && <Alert variant="warning" data-testid="push-state" data-state={state}>{tx(explained[state]!)}</Alert>}
          {state === 'enabled' && <p className="text-success-emphasis" data-testid="push-state" data-state={state}>{tx('devices.states.enabled')}</p>}
          {error && <Alert variant="danger" className="py-2">{error}</Alert>}
          {state === 'ready' && (
            <Button onClick={() => void enable()} disabled={busy !== null} data-testid="push-enable">
              {busy === 'enable' ? tx('devices.enabling') : tx('devices.enable')}
            </Button>
          )}
          <h3 className="h6 mt-4" id={ids.list}>{tx('devices.listTitle')}</h3>
          {devices.length === 0
            ? <p className="text-body-secondary">{tx('devices.empty')}</p>
            : (
              <ul className="list-group push-device-list" aria-labelledby={ids.list}>
                {devices.map((device) => {
                  const name = device.device ?? tx('devices.unknownDevice');
                  return (
                    <li key={device.id} className="list-group-item push-device" data-testid="push-device">
                      <div className="push-device-name">
                        <strong>{name}</strong>
                        {device.endpoint === endpoint && <span className="badge text-bg-primary ms-2">{tx('devices.thisDevice')}</span>}
                      </div>
                      <div className="small text-body-secondary">
                        {tx('devices.added', { date: when(device.createdAt) })}
                        {device.lastSuccessAt && <> · {tx('devices.lastSuccess', { date: when(device.lastSuccessAt) })}</>}
                      </div>
                      {device.lastFailureAt && (!device.lastSuccessAt || device.lastFailureAt > device.lastSuccessAt) && (
                        <div className="small text-danger-emphasis">{tx('devices.lastFailure', { date: when(device.lastFailureAt) })}</div>
                      )}
                      <div className="push-device-actions">
                        <Button size="sm" variant="outline-primary" disabled={busy !== null} onClick={() => void test(device)}>{tx('devices.test')}</Button>
                        <Button size="sm" variant="outline-danger" disabled={busy !== null} onClick={() => setRemoving(device)} aria-label={`${tx('devices.remove')}: ${name}`}>{tx('devices.remove')}</Button>
                      </div>
                    </li>
                  );
                })}
              </ul>
            )}
        </div>
      </div>
      {removing && (
        <ConfirmDialog
          question={tx('devices.confirmRemove', { device: removing.device ?? tx('devices.unknownDevice') })}
          onAnswer={(yes) => {
            const device = removing;
            setRemoving(null);
            if (yes) void remove(device);
          }}
        />
      )}
    </section>
  );
}
