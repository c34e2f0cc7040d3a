import { useId, useState } from 'react';
import { useTranslation } from '../../config/texts';
import { Link } from 'react-router';
import { formatNumber } from '../../format';
import { UrgencyBadge } from './parts';
import { stripText, tileTarget, totalsByUrgency, URGENCIES, urgencyTone, type RuleSummary } from './reminders';

/** The counts of one rule by urgency, e.g. "Po terminie 1 · Pilne 2 · Wkrótce 0". */
function TileCounts({ rule }: { rule: RuleSummary }) {
  const { t } = useTranslation();
  return (
    <span className="reminder-tile-counts">
      {URGENCIES.map((u, i) => (
        <span key={u}>
          {i > 0 && <span aria-hidden="true"> · </span>}
          {t(`dashboard:urgency.${u}`)} {formatNumber(rule.counts[u])}
        </span>
      ))}
    </span>
  );
}

/**
 * One tile per rule: title, count, worst urgency (border colour and badge text). A rule with a
 * table is a link to it, filtered; any other tile is a toggle that shows its items in the list.
 */
export function ReminderTiles({ rules, activeRule, onShowRule }: {
  rules: RuleSummary[];
  activeRule: string | null;
  /** Shows a rule's items in the screen's list; without a list section, a tile without a table is not a control. */
  onShowRule?: (rule: RuleSummary) => void;
}) {
  const { t } = useTranslation();
  const hintId = useId();
  return (
    <>
      {/* what a tile does, read after its name (hidden: referenced, not shown) */}
      <div hidden>
        <span id={`${hintId}-table`}>{t('dashboard:tiles.opensTable')}</span>
        <span id={`${hintId}-list`}>{t('dashboard:tiles.showsList')}</span>
      </div>
      <ul className="reminder-tiles list-unstyled mb-0">
      {rules.map((rule) => {
        const target = tileTarget(rule);
        const className = `reminder-tile reminder-tile--${urgencyTone(rule.worst)}${activeRule === rule.id ? ' reminder-tile--active' : ''}`;
        const body = (
          <>
            <span className="reminder-tile-head">
              <span className="reminder-tile-label">{rule.label}</span>
              <UrgencyBadge urgency={rule.worst} />
            </span>
            <span className="reminder-tile-total">{formatNumber(rule.total)}</span>
            <TileCounts rule={rule} />
          </>
        );
        return (
          <li key={rule.id} data-rule={rule.id}>
            {target.kind === 'table' ? (
              <Link to={target.href} className={className} aria-describedby={`${hintId}-table`}>
                {body}
              </Link>
            ) : onShowRule ? (
              <button type="button" className={className} aria-pressed={activeRule === rule.id} aria-describedby={`${hintId}-list`} onClick={() => onShowRule(rule)}>
                {body}
              </button>
            ) : (
              <div className={`${className} reminder-tile--static`}>{body}</div>
            )}
          </li>
        );
      })}
      </ul>
    </>
  );
}

/**
 * The tiles folded into one line on a phone: the counts over every rule by urgency, and a button
 * that unfolds the tiles (so that the approval inbox and the list are not pushed below a screenful
 * of tiles).
 */
export function FoldedTiles(props: Parameters<typeof ReminderTiles>[0]) {
  const { t } = useTranslation();
  const tilesId = useId();
  const [open, setOpen] = useState(false);
  const totals = totalsByUrgency(props.rules);
  const worst = URGENCIES.find((u) => totals[u] > 0) ?? null;
  return (
    <>
      <div className={`reminder-fold reminder-fold--${urgencyTone(worst)}`}>
        <span className="reminder-fold-counts">{stripText(totals, t)}</span>
        <button type="button" className="btn btn-link btn-sm p-0 reminder-fold-toggle" aria-expanded={open} aria-controls={tilesId} onClick={() => setOpen((v) => !v)}>
          {t(open ? 'dashboard:tiles.hideTiles' : 'dashboard:tiles.showTiles')}
          <i className={`bi bi-chevron-${open ? 'up' : 'down'} ms-1`} aria-hidden="true" />
        </button>
      </div>
      <div id={tilesId} hidden={!open} className={open ? 'mt-2' : undefined}>
        {open && <ReminderTiles {...props} />}
      </div>
    </>
  );
}
