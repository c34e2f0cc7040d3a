/**
 * A notice for whoever can act on it, where they can act (screens/mail-notice.json: the mail
 * server is not configured, shown to administrators on the mail settings and the notification
 * log instead of a toast to every visitor). The endpoint's answer is the record its condition
 * judges; the link is left out on the page it leads to. Quiet while loading and on failure: the
 * page it sits on does not depend on it.
 */
import Alert from 'react-bootstrap/Alert';
import { useTranslation } from '../../config/texts';
import { Link, useLocation } from 'react-router';
import type { NoticeSection as NoticeDecl } from '../../../core/generated/meta';
import { useConfig } from '../../config/ConfigContext';
import { useConditionContext } from '../../config/useConditionContext';
import { useGet } from './useGet';

export function NoticeSection({ section, version }: { section: NoticeDecl; version: number }) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  const { pathname } = useLocation();
  const state = useGet<Record<string, unknown>>(section.endpoint, version);
  if (!state.data || !conditions.matches(section.when as never, { ...ctx, record: state.data })) return null;
  const link = section.link && section.link.route !== pathname ? section.link : null;
  return (
    <Alert variant={section.tone ?? 'warning'} className="dashboard-notice mb-0" data-section={section.id}>
      <i className={`bi bi-${section.tone === 'info' ? 'info-circle' : 'exclamation-triangle'} me-2`} aria-hidden="true" />
      {t(section.text)}
      {link && (
        <>
          {' '}
          <Link to={link.route} className="alert-link">{t(link.label)}</Link>
        </>
      )}
    </Alert>
  );
}
