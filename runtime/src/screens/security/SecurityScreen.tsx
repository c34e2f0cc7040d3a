/**
 * The `security` screen type (schemas/meta/security.schema.json; issue 36):
 * - `settings` — Ustawienia → Bezpieczeństwo: the authenticator app (set up with a QR code and
 *   the secret as text, confirmed by a first code; recovery codes shown once in the reveal dialog;
 *   new codes; switched off with the password and a code), passkeys (added, renamed, removed) and
 *   the sessions signed in now, each with "Wyloguj", and "Wyloguj wszędzie indziej";
 * - `enrolment` — the first session gate of a user the configuration asks for a second factor:
 *   the same set-up, in a dialog that closes once a factor is set up (or signs out);
 * - `admin` — from a user's dialog: that user's sessions, each ended, the sign-in lock-outs in
 *   force with their unlock, and the reset of the user's second factor.
 * The server decides everything (routes/account-security.ts); texts are the screen's namespace's.
 */
import { startRegistration } from '@simplewebauthn/browser';
import { useCallback, useEffect, useId, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { api, errorText } from '../../api/client';
import { ConfirmDialog } from '../../actions/ConfirmDialog';
import { RevealDialog } from '../../actions/RevealDialog';
import { formatDateTime } from '../../format';
import { useSignOut } from '../../routing/useNavigateTo';
import { updateSession } from '../../state/session';
import { showToast } from '../../state/ui';
import { Loading } from '../Loading';
import type { ScreenProps } from '../types';
import { passkeyFailureKey } from './passkey-failure';
import { textKey, type TextKey } from '../../../core/screen-texts/security';
import './security.css';

interface SessionRow { id: string; current: boolean; device: string; browser: string; address: string | null; createdAt: string; lastSeenAt: string }
interface Passkey { id: number; name: string; createdAt: string; lastUsedAt: string | null }
interface Overview { required: boolean; totp: boolean; recoveryCodesLeft: number; passkeys: Passkey[]; sessions: SessionRow[] }
interface Lockout { address: string; lockedUntil: string }
interface Decl { title: string; intro?: string; texts: string; mode: 'settings' | 'enrolment' | 'admin'; sections: ('totp' | 'passkeys' | 'sessions' | 'lockouts' | 'reset')[] }
type Tx = (key: TextKey, vars?: Record<string, unknown>) => string;

export default function SecurityScreen({ screen, screenId, presentation, params, onClose }: ScreenProps<any>) {
  const decl = screen as Decl;
  const { t } = useTranslation();
  const tx: Tx = (key, vars) => t(textKey(decl.texts, key), vars);
  const signOut = useSignOut();
  const titleId = useId();
  const body = decl.mode === 'admin'
    ? <AdminSecurity tx={tx} decl={decl} userId={Number(params?.id)} />
    : <OwnSecurity tx={tx} decl={decl} onEnrolled={decl.mode === 'enrolment' ? () => {
      updateSession((s) => ({ ...s, user: { ...s.user, secondFactorPending: false } }));
      onClose?.();
    } : undefined} />;
  if (presentation === 'page' || presentation === 'embedded' || presentation === 'modal') {
    return (
      <div className="security-screen" data-screen={screenId}>
        <h1 className="page-title">{t(decl.title)}</h1>
        {decl.intro && <p className="security-intro">{t(decl.intro)}</p>}
        {body}
      </div>
    );
  }
  const enrolment = decl.mode === 'enrolment';
  return (
    <Modal show size="lg" centered={!enrolment} backdrop={enrolment ? 'static' : true} keyboard={!enrolment} onHide={() => (enrolment ? undefined : onClose?.())} aria-labelledby={titleId} data-screen={screenId}>
      <Modal.Header closeButton={!enrolment} closeLabel={t('app:close')}>
        <Modal.Title id={titleId} as="h2" className="h5">{t(decl.title)}</Modal.Title>
      </Modal.Header>
      <Modal.Body className="security-screen">
        {decl.intro && <p>{t(decl.intro)}</p>}
        {body}
      </Modal.Body>
      {enrolment && (
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={signOut}>{tx('enrolment.signOut')}</Button>
        </Modal.Footer>
      )}
    </Modal>
  );
}

/** The signed-in user's own factors and sessions (settings and enrolment). */
function OwnSecurity({ tx, decl, onEnrolled }: { tx: Tx; decl: Decl; onEnrolled?: () => void }) {
  const [overview, setOverview] = useState<Overview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      setOverview(await api.get<Overview>('/account/security', { quiet: true }));
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => { void load(); }, [load]);
  if (error) return <Alert variant="danger">{error}</Alert>;
  if (!overview) return <Loading />;
  const enrolled = async () => {
    await load();
    onEnrolled?.();
  };
  return (
    <>
      {decl.sections.map((section) => {
        if (section === 'totp') return <TotpSection key={section} tx={tx} overview={overview} reload={load} onEnrolled={enrolled} />;
        if (section === 'passkeys') return <PasskeysSection key={section} tx={tx} overview={overview} reload={load} onEnrolled={enrolled} />;
        if (section === 'sessions') return <SessionsSection key={section} tx={tx} sessions={overview.sessions} reload={load} />;
        return null;
      })}
    </>
  );
}

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section className="card mb-3" aria-labelledby={id}>
      <div className="card-body">
        <h2 className="h5 card-title" id={id}>{title}</h2>
        {children}
      </div>
    </section>
  );
}

/** A small form of one or two fields with its own error (set up, switch off, new codes). */
function useFormError() {
  const [error, setError] = useState<string | null>(null);
  return { error, setError, run: async (work: () => Promise<void>) => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(errorText(e));
    }
  } };
}

function TotpSection({ tx, overview, reload, onEnrolled }: { tx: Tx; overview: Overview; reload: () => Promise<void>; onEnrolled: () => Promise<void> }) {
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string; qrDataUrl: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  // an enrolment just confirmed, by its number of recovery codes (0: none): closing them ends it (onEnrolled)
  const [enrolledCodes, setEnrolledCodes] = useState(0);
  const [form, setForm] = useState<'disable' | 'regenerate' | null>(null);
  const { error, setError, run } = useFormError();
  const ids = { code: useId(), password: useId(), secret: useId(), title: useId() };
  const begin = () => run(async () => {
    setSetup(await api.post('/account/totp/setup', {}, { quiet: true }));
    setCode('');
  });
  const confirm = () => run(async () => {
    const answer = await api.post<{ recoveryCodes: string[] }>('/account/totp/confirm', { code: code.trim() }, { quiet: true });
    setSetup(null);
    setCodes(answer.recoveryCodes);
    setEnrolledCodes(answer.recoveryCodes.length);
    showToast('success', tx('totp.enabled'));
  });
  const disable = () => run(async () => {
    await api.post('/account/totp/disable', { password, code: code.trim() }, { quiet: true });
    setForm(null);
    setPassword('');
    setCode('');
    showToast('success', tx('totp.disabled'));
    await reload();
  });
  const regenerate = () => run(async () => {
    const answer = await api.post<{ recoveryCodes: string[] }>('/account/recovery-codes', { password }, { quiet: true });
    setForm(null);
    setPassword('');
    setCodes(answer.recoveryCodes);
  });
  // confirmed just now: on, behind the codes, before the overview is read again as they close
  // (read now, a failed call would replace the section, and the codes shown once with it)
  const on = overview.totp || enrolledCodes > 0;
  const codesLeft = overview.totp ? overview.recoveryCodesLeft : enrolledCodes;
  const closeCodes = async () => {
    setCodes(null);
    if (enrolledCodes > 0) {
      await onEnrolled();
      setEnrolledCodes(0);
    } else await reload();
  };
  const passwordField = (
    <Form.Group className="mb-2">
      <Form.Label htmlFor={ids.password}>{tx('totp.password')}</Form.Label>
      <Form.Control id={ids.password} type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
    </Form.Group>
  );
  const codeField = (label: TextKey) => (
    <Form.Group className="mb-2">
      <Form.Label htmlFor={ids.code}>{tx(label)}</Form.Label>
      <Form.Control id={ids.code} inputMode="numeric" autoComplete="one-time-code" maxLength={6} className="totp-code" value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} />
    </Form.Group>
  );
  return (
    <Section title={tx('totp.title')} id={ids.title}>
      <p className="mb-2">
        <span className={`badge ${on ? 'text-bg-success' : 'text-bg-secondary'}`} data-testid="totp-state">{tx(on ? 'totp.on' : 'totp.off')}</span>
        {on && <span className="ms-2 small">{tx('totp.recoveryLeft', { count: codesLeft })}</span>}
      </p>
      {error && <Alert variant="danger" className="py-2">{error}</Alert>}
      {!on && !setup && <Button onClick={() => void begin()}>{tx('totp.enable')}</Button>}
      {setup && (
        <Form onSubmit={(e) => { e.preventDefault(); void confirm(); }} className="totp-setup">
          <p>{tx('totp.scan')}</p>
          <div className="d-flex flex-wrap gap-3 align-items-start mb-2">
            <img src={setup.qrDataUrl} alt={tx('totp.qrAlt')} width={180} height={180} className="border rounded" />
            <div className="flex-grow-1 totp-secret-box">
              <div className="form-label" id={ids.secret}>{tx('totp.secretLabel')}</div>
              {/* text that wraps (a narrow phone shows all of it), selected whole with one tap */}
              <p className="font-monospace totp-secret user-select-all border rounded p-2 mb-0" aria-labelledby={ids.secret} data-testid="totp-secret">
                {setup.secret.match(/.{1,4}/g)!.join(' ')}
              </p>
              {/* a phone cannot scan its own screen: the otpauth:// link opens the authenticator app on it */}
              <div className="totp-open-app mt-2">
                <a className="btn btn-outline-primary" href={setup.otpauthUrl} data-testid="totp-open-app">
                  <i className="bi bi-box-arrow-up-right me-1" aria-hidden="true" />
                  {tx('totp.openApp')}
                </a>
                <p className="small text-body-secondary mt-1 mb-0">{tx('totp.openAppHelp')}</p>
              </div>
            </div>
          </div>
          {codeField('totp.confirmCode')}
          <div className="d-flex gap-2">
            <Button type="submit" disabled={code.length !== 6}>{tx('totp.confirm')}</Button>
            <Button variant="outline-secondary" onClick={() => { setSetup(null); setError(null); }}>{tx('totp.cancel')}</Button>
          </div>
        </Form>
      )}
      {on && !form && (
        <div className="d-flex flex-wrap gap-2">
          <Button variant="outline-primary" onClick={() => { setForm('regenerate'); setError(null); }}>{tx('totp.regenerate')}</Button>
          <Button variant="outline-danger" onClick={() => { setForm('disable'); setError(null); }}>{tx('totp.disable')}</Button>
        </div>
      )}
      {form && (
        <Form onSubmit={(e) => { e.preventDefault(); void (form === 'disable' ? disable() : regenerate()); }}>
          <h3 className="h6">{tx(form === 'disable' ? 'totp.disableTitle' : 'totp.regenerateTitle')}</h3>
          <p className="small">{tx(form === 'disable' ? 'totp.disableIntro' : 'totp.regenerateIntro')}</p>
          {passwordField}
          {form === 'disable' && codeField('totp.confirmCode')}
          <div className="d-flex gap-2">
            <Button type="submit" variant={form === 'disable' ? 'danger' : 'primary'}>{tx(form === 'disable' ? 'totp.disable' : 'totp.regenerate')}</Button>
            <Button variant="outline-secondary" onClick={() => { setForm(null); setError(null); }}>{tx('totp.cancel')}</Button>
          </div>
        </Form>
      )}
      {codes && (
        <RevealDialog title={tx('recovery.title')} warning={tx('recovery.intro')} label={tx('recovery.title')} value={codes.join('\n')} onClose={() => void closeCodes()} />
      )}
    </Section>
  );
}

function PasskeysSection({ tx, overview, reload, onEnrolled }: { tx: Tx; overview: Overview; reload: () => Promise<void>; onEnrolled: () => Promise<void> }) {
  const [name, setName] = useState(() => tx('passkeys.defaultName'));
  const [renaming, setRenaming] = useState<{ id: number; name: string } | null>(null);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const { error, setError, run } = useFormError();
  const ids = { title: useId(), name: useId(), rename: useId() };
  const supported = typeof window !== 'undefined' && 'PublicKeyCredential' in window;
  const add = () => run(async () => {
    const { ticket, options } = await api.post<{ ticket: string; options: any }>('/account/passkeys/options', {}, { quiet: true, reads: true });
    let response;
    try {
      response = await startRegistration({ optionsJSON: options });
    } catch (e) {
      setError(tx(passkeyFailureKey(e)));
      return;
    }
    const first = overview.passkeys.length === 0 && !overview.totp;
    await api.post('/account/passkeys', { ticket, name: name.trim() || tx('passkeys.defaultName'), response }, { quiet: true });
    showToast('success', tx('passkeys.added'));
    if (first) await onEnrolled();
    else await reload();
  });
  const rename = () => run(async () => {
    await api.put(`/account/passkeys/${renaming!.id}`, { name: renaming!.name.trim() }, { quiet: true });
    setRenaming(null);
    await reload();
  });
  const remove = (passkey: Passkey) => run(async () => {
    await api.delete(`/account/passkeys/${passkey.id}`, { quiet: true });
    showToast('success', tx('passkeys.removed'));
    await reload();
  });
  return (
    <Section title={tx('passkeys.title')} id={ids.title}>
      <p className="small text-secondary">{tx('passkeys.intro')}</p>
      {error && <Alert variant="danger" className="py-2">{error}</Alert>}
      {overview.passkeys.length === 0 ? <p>{tx('passkeys.none')}</p> : (
        <ul className="list-group mb-3" data-testid="passkeys">
          {overview.passkeys.map((p) => (
            <li key={p.id} className="list-group-item d-flex flex-wrap gap-2 align-items-center justify-content-between">
              {renaming?.id === p.id ? (
                <Form className="d-flex gap-2 flex-grow-1" onSubmit={(e) => { e.preventDefault(); void rename(); }}>
                  <Form.Label htmlFor={ids.rename} visuallyHidden>{tx('passkeys.name')}</Form.Label>
                  <Form.Control id={ids.rename} size="sm" maxLength={60} value={renaming.name} onChange={(e) => setRenaming({ id: p.id, name: e.target.value })} />
                  <Button size="sm" type="submit" disabled={!renaming.name.trim()}>{tx('passkeys.save')}</Button>
                </Form>
              ) : (
                <div>
                  <strong>{p.name}</strong>
                  <div className="small text-secondary">
                    {tx('passkeys.createdAt')}: {formatDateTime(p.createdAt)} · {tx('passkeys.lastUsedAt')}: {p.lastUsedAt ? formatDateTime(p.lastUsedAt) : tx('passkeys.never')}
                  </div>
                </div>
              )}
              {renaming?.id !== p.id && (
                <div className="d-flex gap-2">
                  <Button size="sm" variant="outline-secondary" onClick={() => setRenaming({ id: p.id, name: p.name })}>{tx('passkeys.rename')}</Button>
                  <Button size="sm" variant="outline-danger" onClick={() => setRemoving(p)}>{tx('passkeys.remove')}</Button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {supported ? (
        <Form className="d-flex flex-wrap gap-2 align-items-end" onSubmit={(e) => { e.preventDefault(); void add(); }}>
          <Form.Group>
            <Form.Label htmlFor={ids.name}>{tx('passkeys.name')}</Form.Label>
            <Form.Control id={ids.name} maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />
          </Form.Group>
          <Button type="submit" variant="outline-primary">{tx('passkeys.add')}</Button>
        </Form>
      ) : <p className="small">{tx('passkeys.unsupported')}</p>}
      {removing && (
        <ConfirmDialog question={tx('passkeys.removeConfirm', { name: removing.name })} onAnswer={(yes) => {
          const passkey = removing;
          setRemoving(null);
          if (yes) void remove(passkey);
        }} />
      )}
    </Section>
  );
}

function SessionsTable({ tx, sessions, onEnd }: { tx: Tx; sessions: SessionRow[]; onEnd: (s: SessionRow) => void }) {
  return (
    <div className="table-responsive">
      <table className="table table-sm align-middle sessions-table" data-testid="sessions">
        <thead>
          <tr>
            <th scope="col">{tx('sessions.device')}</th>
            <th scope="col">{tx('sessions.browser')}</th>
            <th scope="col">{tx('sessions.address')}</th>
            <th scope="col">{tx('sessions.createdAt')}</th>
            <th scope="col">{tx('sessions.lastSeenAt')}</th>
            <th scope="col"><span className="visually-hidden">{tx('sessions.signOut')}</span></th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <tr key={s.id}>
              <td data-label={tx('sessions.device')}>{s.device}{s.current && <span className="badge text-bg-primary ms-2">{tx('sessions.current')}</span>}</td>
              <td data-label={tx('sessions.browser')}>{s.browser}</td>
              <td data-label={tx('sessions.address')}>{s.address ?? ''}</td>
              <td data-label={tx('sessions.createdAt')}>{formatDateTime(s.createdAt)}</td>
              <td data-label={tx('sessions.lastSeenAt')}>{formatDateTime(s.lastSeenAt)}</td>
              <td className="text-end"><Button size="sm" variant="outline-danger" onClick={() => onEnd(s)}>{tx('sessions.signOut')}</Button></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function SessionsSection({ tx, sessions, reload }: { tx: Tx; sessions: SessionRow[]; reload: () => Promise<void> }) {
  const signOut = useSignOut();
  const { error, run } = useFormError();
  const id = useId();
  const end = (s: SessionRow) => {
    if (s.current) return signOut();
    void run(async () => {
      await api.delete(`/account/sessions/${s.id}`, { quiet: true });
      showToast('success', tx('sessions.ended'));
      await reload();
    });
  };
  const endOthers = () => run(async () => {
    await api.post('/account/sessions/end-others', {}, { quiet: true });
    showToast('success', tx('sessions.endedOthers'));
    await reload();
  });
  return (
    <Section title={tx('sessions.title')} id={id}>
      {error && <Alert variant="danger" className="py-2">{error}</Alert>}
      <SessionsTable tx={tx} sessions={sessions} onEnd={end} />
      <Button variant="outline-danger" disabled={sessions.every((s) => s.current)} onClick={() => void endOthers()}>{tx('sessions.signOutEverywhereElse')}</Button>
    </Section>
  );
}

/** An administrator's view of one user, the declared sections in order: their sessions, each ended; their sign-in lock-outs, unlocked; the reset of their second factor. */
function AdminSecurity({ tx, decl, userId }: { tx: Tx; decl: Decl; userId: number }) {
  const [sessions, setSessions] = useState<SessionRow[] | null>(null);
  const [lockouts, setLockouts] = useState<Lockout[] | null>(null);
  const [confirming, setConfirming] = useState(false);
  const { error, run } = useFormError();
  const sessionsId = useId();
  const lockoutsId = useId();
  const shows = (section: Decl['sections'][number]) => decl.sections.includes(section);
  const load = useCallback(() => run(async () => {
    const [s, l] = await Promise.all([
      shows('sessions') ? api.get<SessionRow[]>(`/users/${userId}/sessions`, { quiet: true }) : [],
      shows('lockouts') ? api.get<Lockout[]>(`/users/${userId}/lockouts`, { quiet: true }) : [],
    ]);
    setSessions(s);
    setLockouts(l);
  }), [userId]); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => { void load(); }, [load]);
  const end = (s: SessionRow) => run(async () => {
    await api.delete(`/users/${userId}/sessions/${s.id}`, { quiet: true });
    showToast('success', tx('sessions.ended'));
    await load();
  });
  const unlock = () => run(async () => {
    await api.delete(`/users/${userId}/lockouts`, { quiet: true });
    showToast('success', tx('admin.unlockDone'));
    await load();
  });
  const reset = () => run(async () => {
    await api.post(`/users/${userId}/second-factor/reset`, {}, { quiet: true });
    showToast('success', tx('admin.resetDone'));
    await load();
  });
  const sections = decl.sections.map((section) => {
    if (section === 'sessions') {
      return (
        <Section key={section} title={tx('admin.sessions')} id={sessionsId}>
          {sessions === null ? <Loading /> : sessions.length === 0 ? <p className="mb-0">{tx('admin.none')}</p> : <SessionsTable tx={tx} sessions={sessions} onEnd={(s) => void end(s)} />}
        </Section>
      );
    }
    if (section === 'lockouts') {
      return (
        <Section key={section} title={tx('admin.lockouts')} id={lockoutsId}>
          {lockouts === null ? <Loading /> : lockouts.length === 0 ? <p className="mb-0">{tx('admin.lockoutsNone')}</p> : (
            <>
              <p>{tx('admin.lockoutsIntro')}</p>
              <div className="table-responsive">
                <table className="table table-sm align-middle sessions-table" data-testid="lockouts">
                  <thead>
                    <tr>
                      <th scope="col">{tx('admin.lockoutAddress')}</th>
                      <th scope="col">{tx('admin.lockoutUntil')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {lockouts.map((l) => (
                      <tr key={l.address}>
                        <td data-label={tx('admin.lockoutAddress')}>{l.address}</td>
                        <td data-label={tx('admin.lockoutUntil')}>{formatDateTime(l.lockedUntil)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Button variant="outline-primary" onClick={() => void unlock()}>{tx('admin.unlock')}</Button>
            </>
          )}
        </Section>
      );
    }
    if (section === 'reset') return <Button key={section} variant="outline-danger" onClick={() => setConfirming(true)}>{tx('admin.reset')}</Button>;
    return null;
  });
  return (
    <>
      {error && <Alert variant="danger" className="py-2">{error}</Alert>}
      {sections}
      {confirming && (
        <ConfirmDialog question={tx('admin.resetConfirm')} onAnswer={(yes) => {
          setConfirming(false);
          if (yes) void reset();
        }} />
      )}
    </>
  );
}
