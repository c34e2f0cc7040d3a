/**
 * Small pieces the dashboard's sections share: a section's frame with its heading, the urgency
 * badge (colour and text together), the pager, and the states of a section's data.
 */
import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import { errorText } from '../../api/client';
import { formatNumber } from '../../format';
import { EmptyState } from '../EmptyState';
import { Loading } from '../Loading';
import { pageInfo, urgencyLabelKey, urgencyTone, type Urgency } from './reminders';

export type HeadingLevel = 2 | 3 | 4;

export function Heading({ level, id, className, children }: { level: HeadingLevel; id?: string; className?: string; children: ReactNode }) {
  const Tag = `h${level}` as const;
  return (
    <Tag id={id} className={className} tabIndex={id ? -1 : undefined}>
      {children}
    </Tag>
  );
}

/** A section of the dashboard: a card with its heading (when declared) naming the region. */
export function SectionFrame({ id, kind, title, level, headingId, actions, children, plain }: {
  id: string;
  kind: string;
  title?: string;
  level: HeadingLevel;
  headingId: string;
  /** Controls beside the heading (the urgency chips). */
  actions?: ReactNode;
  children: ReactNode;
  /** Without the card (the tiles are cards themselves). */
  plain?: boolean;
}) {
  return (
    <section
      className={`dashboard-section dashboard-section--${kind}${plain ? '' : ' dashboard-card'}`}
      data-section={id}
      aria-labelledby={title ? headingId : undefined}
    >
      {(title || actions) && (
        <div className="dashboard-section-head">
          {title && (
            <Heading level={level} id={headingId} className="dashboard-section-title">
              {title}
            </Heading>
          )}
          {actions}
        </div>
      )}
      {children}
    </section>
  );
}

/** The urgency as a coloured badge with its name (never colour alone). */
export function UrgencyBadge({ urgency, className = '' }: { urgency: Urgency | null | undefined; className?: string }) {
  const { t } = useTranslation();
  return <span className={`urgency-badge urgency-badge--${urgencyTone(urgency)} ${className}`}>{t(urgencyLabelKey(urgency))}</span>;
}

/** "11–20 z 57" with the previous and next pages. */
export function Pager({ offset, limit, shown, total, busy, onPage }: {
  offset: number;
  limit: number;
  shown: number;
  total: number;
  busy: boolean;
  onPage: (offset: number) => void;
}) {
  const { t } = useTranslation();
  const page = pageInfo(offset, limit, shown, total);
  if (page.previous === null && page.next === null) return null;
  return (
    <nav className="dashboard-pager" aria-label={t('dashboard:pager.label')}>
      <span className="dashboard-pager-range" aria-live="polite">
        {t('dashboard:pager.range', { from: formatNumber(page.from), to: formatNumber(page.to), total: formatNumber(page.total) })}
      </span>
      <Button variant="outline-secondary" size="sm" disabled={busy || page.previous === null} onClick={() => page.previous !== null && onPage(page.previous)}>
        <i className="bi bi-chevron-left me-1" aria-hidden="true" />
        {t('dashboard:pager.previous')}
      </Button>
      <Button variant="outline-secondary" size="sm" disabled={busy || page.next === null} onClick={() => page.next !== null && onPage(page.next)}>
        {t('dashboard:pager.next')}
        <i className="bi bi-chevron-right ms-1" aria-hidden="true" />
      </Button>
    </nav>
  );
}

/** The first load's spinner, a failure, or nothing to show; null when there is data to show. */
export function DataState({ loading, error, hasData, empty, emptyText }: { loading: boolean; error: unknown; hasData: boolean; empty: boolean; emptyText: string }) {
  const { t } = useTranslation();
  if (!hasData && loading) return <Loading />;
  if (!hasData && error) return <Alert variant="warning" className="mb-0">{errorText(error, t('dashboard:failed'))}</Alert>;
  if (empty) return <EmptyState text={emptyText} />;
  return null;
}
