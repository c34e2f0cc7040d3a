/**
 * Report subscriptions on Raporty (issue 46): "Subskrybuj" the report shown, with its grouping and
 * filters (frequency, day, hour, format: screens/reports.json `subscriptions`), and the list of the
 * caller's subscriptions (an administrator's: everyone's, with the owner) with their last sends,
 * "Wyślij teraz" and a confirmed delete. The server judges and words everything it answers.
 */
import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { api, ApiError, errorText } from '../../api/client';
import { useConfig } from '../../config/ConfigContext';
import { useConditionContext } from '../../config/useConditionContext';
import { showToast } from '../../state/ui';
import { useGet } from '../dashboard/useGet';
import { formatDate } from '../../format';

export interface SubscriptionsDecl { frequencies: ('weekly' | 'monthly')[]; formats: ('xlsx' | 'pdf')[]; defaultHour?: number; allWhen?: unknown }
type Filters = Record<string, (string | number)[]>;
interface Send { id: number; periodFrom: string; periodTo: string; at: string; manual: boolean; state: string; reason: string | null }
interface Subscription {
  id: number; report: string; reportLabel: string; frequency: 'weekly' | 'monthly'; day: number; hour: number; format: 'xlsx' | 'pdf';
  params: { groupBy?: string[]; filters?: Filters }; owner: { id: number; login: string; name: string }; sends: Send[];
}

const dateText = (iso: string) => formatDate(iso) ?? iso;
const hourText = (h: number) => `${String(h).padStart(2, '0')}:00`;
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7];
const MONTH_DAYS = Array.from({ length: 28 }, (_, i) => i + 1);
const HOURS = Array.from({ length: 24 }, (_, i) => i);

export function SubscribeDialog({ decl, report, groupBy, filters, onClose }: {
  decl: SubscriptionsDecl; report: { id: string; label: string }; groupBy: string[]; filters: Filters; onClose: (saved: boolean) => void;
}) {
  const { t } = useTranslation();
  const ids = { title: useId(), frequency: useId(), day: useId(), hour: useId(), format: useId() };
  const [frequency, setFrequency] = useState(decl.frequencies[0]);
  const [day, setDay] = useState(1);
  const [hour, setHour] = useState(decl.defaultHour ?? 7);
  const [format, setFormat] = useState(decl.formats[0]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const answer = await api.post<{ message: string }>('/report-subscriptions', { report: report.id, frequency, format, day, hour, params: { groupBy, filters } });
      showToast('success', answer.message, 'report-subscription');
      onClose(true);
    } catch (e) {
      const fields = e instanceof ApiError ? (e.body?.errors ?? []) : [];
      setErrors(Object.fromEntries(fields.map((f) => [f.field, f.message])));
      if (!fields.length) showToast('error', errorText(e), 'report-subscription');
      setSaving(false);
    }
  };
  const otherErrors = Object.entries(errors).filter(([f]) => f !== 'day' && f !== 'hour').map(([, m]) => m);
  return (
    <Modal show centered onHide={() => onClose(false)} aria-labelledby={ids.title}>
      <Modal.Header closeButton closeLabel={t('reports:subscriptions.cancel')}>
        <Modal.Title id={ids.title} as="h2" className="h5">{t('reports:subscriptions.subscribeTitle', { report: report.label })}</Modal.Title>
      </Modal.Header>
      <Form onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <Modal.Body>
          <p className="small text-body-secondary">{t('reports:subscriptions.intro')}</p>
          {otherErrors.length > 0 && <Alert variant="danger">{otherErrors.join(' ')}</Alert>}
          <div className="subscribe-grid">
            <Form.Group controlId={ids.frequency}>
              <Form.Label>{t('reports:subscriptions.frequency')}</Form.Label>
              <Form.Select value={frequency} onChange={(e) => { setFrequency(e.target.value as typeof frequency); setDay(1); }}>
                {decl.frequencies.map((f) => <option key={f} value={f}>{t(`reports:subscriptions.${f}`)}</option>)}
              </Form.Select>
            </Form.Group>
            <Form.Group controlId={ids.day}>
              <Form.Label>{t(frequency === 'weekly' ? 'reports:subscriptions.weekday' : 'reports:subscriptions.dayOfMonth')}</Form.Label>
              <Form.Select value={day} isInvalid={!!errors.day} onChange={(e) => setDay(Number(e.target.value))}>
                {(frequency === 'weekly' ? WEEKDAYS : MONTH_DAYS).map((d) => (
                  <option key={d} value={d}>{frequency === 'weekly' ? t(`reports:subscriptions.weekdays.${d}`) : d}</option>
                ))}
              </Form.Select>
              <Form.Control.Feedback type="invalid">{errors.day}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group controlId={ids.hour}>
              <Form.Label>{t('reports:subscriptions.hour')}</Form.Label>
              <Form.Select value={hour} isInvalid={!!errors.hour} onChange={(e) => setHour(Number(e.target.value))}>
                {HOURS.map((h) => <option key={h} value={h}>{hourText(h)}</option>)}
              </Form.Select>
              <Form.Control.Feedback type="invalid">{errors.hour}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group controlId={ids.format}>
              <Form.Label>{t('reports:subscriptions.format')}</Form.Label>
              <Form.Select value={format} onChange={(e) => setFormat(e.target.value as typeof format)}>
                {decl.formats.map((f) => <option key={f} value={f}>{t(`reports:subscriptions.${f}`)}</option>)}
              </Form.Select>
            </Form.Group>
          </div>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={() => onClose(false)}>{t('reports:subscriptions.cancel')}</Button>
          <Button variant="primary" type="submit" disabled={saving}>{t('reports:subscriptions.save')}</Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

export function SubscriptionList({ decl, version, dimensionLabel }: { decl: SubscriptionsDecl; version: number; dimensionLabel: (report: string, d: string) => string }) {
  const { t } = useTranslation();
  const titleId = useId();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  // who sees everyone's (the server answers them; the configuration names who, screens/reports.json)
  const admin = decl.allWhen !== undefined && conditions.matches(decl.allWhen as never, ctx);
  const [changed, setChanged] = useState(0);
  const list = useGet<Subscription[]>('/report-subscriptions', version + changed);
  const [deleting, setDeleting] = useState<Subscription | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const schedule = (s: Subscription) => (s.frequency === 'weekly'
    ? t('reports:subscriptions.scheduleWeekly', { weekday: t(`reports:subscriptions.weekdays.${s.day}`), hour: hourText(s.hour) })
    : t('reports:subscriptions.scheduleMonthly', { day: s.day, hour: hourText(s.hour) }));
  const sendNow = async (s: Subscription) => {
    setBusy(s.id);
    try {
      const answer = await api.post<{ message: string; send: Send }>(`/report-subscriptions/${s.id}/send`);
      showToast(answer.send.state === 'skipped' ? 'warning' : 'success', answer.message, `report-send-${s.id}`);
    } catch (e) {
      showToast('error', errorText(e), `report-send-${s.id}`);
    }
    setBusy(null);
    setChanged((c) => c + 1);
  };
  const remove = async (yes: boolean) => {
    const s = deleting;
    setDeleting(null);
    if (!yes || !s) return;
    try {
      const answer = await api.delete<{ message: string }>(`/report-subscriptions/${s.id}`);
      showToast('success', answer.message, `report-delete-${s.id}`);
    } catch (e) {
      showToast('error', errorText(e), `report-delete-${s.id}`);
    }
    setChanged((c) => c + 1);
  };
  const items = list.data ?? [];
  return (
    <section className="report-subscriptions" aria-labelledby={titleId}>
      <h2 id={titleId} className="h5">{t(admin ? 'reports:subscriptions.titleAll' : 'reports:subscriptions.title')}</h2>
      {list.error ? <Alert variant="danger">{errorText(list.error)}</Alert> : null}
      {list.data && items.length === 0 && <p className="text-body-secondary">{t(admin ? 'reports:subscriptions.emptyAll' : 'reports:subscriptions.empty')}</p>}
      <ul className="list-unstyled report-subscription-list">
        {items.map((s) => {
          const filters = Object.entries(s.params.filters ?? {}).filter(([, v]) => v.length);
          return (
            <li key={s.id} className="report-subscription" aria-label={s.reportLabel}>
              <div className="report-subscription-head">
                <div>
                  <strong>{s.reportLabel}</strong>
                  <div className="small">{schedule(s)} · {t(`reports:subscriptions.${s.format}`)}</div>
                  {s.params.groupBy?.length ? <div className="small text-body-secondary">{t('reports:subscriptions.groupedBy', { value: s.params.groupBy.map((d) => dimensionLabel(s.report, d)).join(', ') })}</div> : null}
                  {filters.length ? <div className="small text-body-secondary">{t('reports:subscriptions.narrowed', { value: filters.map(([d, v]) => `${dimensionLabel(s.report, d)}: ${v.join(', ')}`).join('; ') })}</div> : null}
                  {admin && <div className="small text-body-secondary">{t('reports:subscriptions.owner', { name: s.owner.name, login: s.owner.login })}</div>}
                </div>
                <div className="report-subscription-actions">
                  <Button variant="primary" size="sm" disabled={busy === s.id} onClick={() => void sendNow(s)}>{t('reports:subscriptions.sendNow')}</Button>
                  <Button variant="outline-danger" size="sm" onClick={() => setDeleting(s)}>{t('reports:subscriptions.delete')}</Button>
                </div>
              </div>
              <div className="small mt-1">
                <span className="fw-semibold">{t('reports:subscriptions.sends')}:</span>{' '}
                {s.sends.length === 0 ? t('reports:subscriptions.noSends') : (
                  <ul className="report-sends">
                    {s.sends.map((send) => (
                      <li key={send.id}>
                        {dateText(send.periodFrom)} – {dateText(send.periodTo)}
                        {send.manual ? ` (${t('reports:subscriptions.manual')})` : ''}:{' '}
                        <span className={send.state === 'sent' ? 'text-success' : send.state === 'skipped' || send.state === 'failed' ? 'text-danger' : undefined}>
                          {t(`reports:subscriptions.states.${send.state}`)}
                        </span>
                        {send.reason ? ` — ${send.reason}` : ''}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {deleting && (
        <ConfirmDialog
          question={`${t('reports:subscriptions.deleteConfirmTitle')} ${t('reports:subscriptions.deleteConfirm', { report: deleting.reportLabel, schedule: schedule(deleting) })}`}
          onAnswer={(yes) => void remove(yes)}
        />
      )}
    </section>
  );
}
