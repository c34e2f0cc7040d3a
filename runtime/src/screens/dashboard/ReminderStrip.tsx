import { useTranslation } from '../../config/texts';
import { Link } from 'react-router';
import type { ReminderSummary } from '../../../core/generated/api';
import type { StripSection } from '../../../core/generated/meta';
import { stripText, totalsByUrgency, urgencyTone, URGENCIES } from './reminders';

/**
 * One line of what is due over all the rules, linking to the Pulpit: "Po terminie 5 · Pilne 12 ·
 * Wkrótce 30 — Pulpit". Quiet while loading (its line keeps its height) and when it cannot be
 * read: the page it sits on does not depend on it.
 */
export function ReminderStrip({ section, summary }: { section: StripSection; summary: ReminderSummary | null }) {
  const { t } = useTranslation();
  if (!summary) return <p className="reminder-strip reminder-strip--pending" data-section={section.id} aria-hidden="true">&nbsp;</p>;
  if (!summary.rules.length) return null;
  const totals = totalsByUrgency(summary.rules);
  const worst = URGENCIES.find((u) => totals[u] > 0) ?? null;
  return (
    <p className={`reminder-strip reminder-strip--${urgencyTone(worst)}`} data-section={section.id}>
      <Link to={section.link} className="reminder-strip-link">
        <i className="bi bi-bell me-2" aria-hidden="true" />
        <span>{stripText(totals, t)}</span>
        <span aria-hidden="true"> — </span>
        <span className="visually-hidden">, </span>
        <span className="reminder-strip-target">{t(section.label ?? 'dashboard:strip.link')}</span>
        <i className="bi bi-arrow-right ms-1" aria-hidden="true" />
      </Link>
    </p>
  );
}
