/**
 * The `password-policy` screen type: the password rules of the pre-configuration in words, each
 * rule shown when its minimum is above 0, so the dialog always says what the server enforces.
 */
import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useTranslation } from '../../config/texts';
import { useConfig } from '../../config/ConfigContext';
import type { PasswordPolicyDecl } from '../../config/bundle';
import type { ScreenProps } from '../types';

export default function PasswordPolicy({ screen, presentation, onClose }: ScreenProps<PasswordPolicyDecl>) {
  const { t } = useTranslation();
  const { preConfig } = useConfig();
  const titleId = useId();
  const rules = screen.rules
    .map((r) => ({ ...r, n: Number(preConfig[r.policy] ?? 0) }))
    .filter((r) => r.n > 0);
  const body = (
    <div data-testid="password-policy">
      {screen.intro && <p>{t(screen.intro)}</p>}
      <ul>
        {rules.map((r) => (
          <li key={r.policy}>{t(r.text, { n: r.n })}</li>
        ))}
      </ul>
      {(screen.paragraphs ?? []).map((p) => (
        <p key={p} className="text-secondary">
          {t(p)}
        </p>
      ))}
    </div>
  );
  if (presentation !== 'dialog') return body;
  return (
    <Modal show centered onHide={() => onClose?.()} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel={t('app:close')}>
        <Modal.Title id={titleId} as="h2" className="h5">
          {t(screen.title)}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{body}</Modal.Body>
      <Modal.Footer>
        <Button onClick={() => onClose?.()}>{t('app:ok')}</Button>
      </Modal.Footer>
    </Modal>
  );
}
