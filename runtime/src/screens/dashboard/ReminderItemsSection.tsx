/**
 * The reminder items, a page at a time, most urgent first: the Pulpit's list (chips by urgency,
 * a rule chosen on a tile, a table on wide windows and cards on narrow ones) and a driver's
 * to-do (cards, each with its rule's action button). A row's text opens the details dialog of its
 * record on the rule's tab.
 */
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useTranslation } from '../../config/texts';
import type { ReminderItems } from '../../../core/generated/api';
import type { ReminderListSection, TodoSection } from '../../../core/generated/meta';
import { formatNumber } from '../../format';
import { useMediaQuery } from '../../shell/useMediaQuery';
import { DataState, Pager, UrgencyBadge, type HeadingLevel, SectionFrame } from './parts';
import { dueText, itemsPath, itemVehicle, leftText, totalsByUrgency, URGENCIES, type ReminderItem, type RuleSummary, type Urgency, type VehicleFields } from './reminders';
import { ITEMS_PAGE } from './reads';
import { useGet } from './useGet';

/** Below this width the list's rows become cards (Bootstrap's md). */
const WIDE_LIST = '(min-width: 768px)';

export interface ItemHandlers {
  /** Opens the item's record (its details dialog on the rule's tab). */
  onOpen: (item: ReminderItem) => void;
  /** Runs the item's action (the dialog its rule names, e.g. the odometer reading). */
  onAction: (item: ReminderItem) => void;
}

function OpenButton({ item, onOpen }: { item: ReminderItem; onOpen: ItemHandlers['onOpen'] }) {
  return (
    <button type="button" className="btn btn-link reminder-open p-0 text-start" onClick={() => onOpen(item)}>
      {item.text}
    </button>
  );
}

function Vehicle({ item, fields }: { item: ReminderItem; fields: VehicleFields }) {
  const { t } = useTranslation();
  const { plate, model } = itemVehicle(item, fields);
  if (!plate && !model) return <>{t('app:empty')}</>;
  return (
    <>
      <span className="reminder-plate">{plate ?? t('app:empty')}</span>
      {model && <span className="reminder-model">{model}</span>}
    </>
  );
}

/** Whether a card names a vehicle at all (a plate or a model that is not empty). */
function vehicleShown(item: ReminderItem, fields: VehicleFields): boolean {
  const { plate, model } = itemVehicle(item, fields);
  return Boolean(plate || model);
}

function ItemsTable({ items, vehicle, onOpen }: { items: ReminderItem[]; vehicle: VehicleFields; onOpen: ItemHandlers['onOpen'] }) {
  const { t } = useTranslation();
  return (
    <Table responsive hover className="reminder-table mb-0 align-middle">
      <thead>
        <tr>
          <th scope="col">{t('dashboard:list.columns.urgency')}</th>
          <th scope="col">{t('dashboard:list.columns.vehicle')}</th>
          <th scope="col">{t('dashboard:list.columns.what')}</th>
          <th scope="col">{t('dashboard:list.columns.due')}</th>
          <th scope="col">{t('dashboard:list.columns.left')}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={`${item.rule}:${item.recordId}`} className={`reminder-row reminder-row--${item.urgency}`}>
            <td><UrgencyBadge urgency={item.urgency} /></td>
            <td className="reminder-vehicle"><Vehicle item={item} fields={vehicle} /></td>
            <td>
              <span className="reminder-rule">{item.label}</span>
              <OpenButton item={item} onOpen={onOpen} />
            </td>
            <td className="text-nowrap">{dueText(item, t)}</td>
            <td>{leftText(item, t)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}

function ItemCards({ items, vehicle, handlers, withActions }: { items: ReminderItem[]; vehicle: VehicleFields; handlers: ItemHandlers; withActions: boolean }) {
  const { t } = useTranslation();
  return (
    <ul className="reminder-cards list-unstyled mb-0">
      {items.map((item) => (
        <li key={`${item.rule}:${item.recordId}`} className={`reminder-card reminder-card--${item.urgency}`}>
          <div className="reminder-card-head">
            <UrgencyBadge urgency={item.urgency} />
            <span className="reminder-rule">{item.label}</span>
          </div>
          <OpenButton item={item} onOpen={handlers.onOpen} />
          <div className="reminder-card-meta">
            {vehicleShown(item, vehicle) && (
              <span className="reminder-vehicle"><Vehicle item={item} fields={vehicle} /></span>
            )}
            <span>
              {/* an item with no day nor limit (never done: due now) says only when, not "— (dziś)" */}
              {t('dashboard:list.columns.due')}: {item.dueDate || item.limitKm != null ? `${dueText(item, t)} (${leftText(item, t)})` : leftText(item, t)}
            </span>
          </div>
          {withActions && item.action && (
            <Button variant="primary" size="sm" className="mt-2 align-self-start" onClick={() => handlers.onAction(item)} data-action={item.action.screen}>
              {t(item.action.label)}
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The urgency chips: all, or one urgency (with its count when known). */
function UrgencyChips({ value, counts, onChange }: { value: Urgency | null; counts: Record<Urgency, number> | null; onChange: (u: Urgency | null) => void }) {
  const { t } = useTranslation();
  const chip = (u: Urgency | null, text: string) => (
    <Button key={u ?? 'all'} size="sm" variant="outline-primary" className={`urgency-chip${u ? ` urgency-chip--${u}` : ''}`} active={value === u} aria-pressed={value === u} onClick={() => onChange(u)}>
      {text}
    </Button>
  );
  return (
    <div className="urgency-chips" role="group" aria-label={t('dashboard:urgency.label')}>
      {chip(null, t('dashboard:list.all'))}
      {URGENCIES.map((u) => chip(u, counts ? `${t(`dashboard:urgency.${u}`)} (${formatNumber(counts[u])})` : t(`dashboard:urgency.${u}`)))}
    </div>
  );
}

export function ReminderItemsSection({ section, endpoint, vehicle, level, version, rule, rules, onClearRule, handlers }: {
  section: ReminderListSection | TodoSection;
  endpoint: string;
  /** Which fields of an item name its vehicle (the screen's reminders.vehicle). */
  vehicle: VehicleFields;
  level: HeadingLevel;
  version: number;
  /** list: the rule chosen on a tile (only its items). */
  rule?: RuleSummary | null;
  /** list: every rule's counts (the chips' numbers). */
  rules?: RuleSummary[] | null;
  onClearRule?: () => void;
  handlers: ItemHandlers;
}) {
  const { t } = useTranslation();
  const todo = section.kind === 'todo';
  const limit = section.pageSize ?? ITEMS_PAGE;
  const [urgency, setUrgency] = useState<Urgency | null>(null);
  const wide = useMediaQuery(WIDE_LIST);
  const ruleId = rule?.id ?? null;
  // the page belongs to the rule and urgency it was turned for: another choice starts at the first page
  const choice = `${ruleId ?? ''}|${urgency ?? ''}`;
  const [page, setPage] = useState({ choice, offset: 0 });
  const offset = page.choice === choice ? page.offset : 0;
  const state = useGet<ReminderItems>(itemsPath(endpoint, { rule: ruleId, urgency, offset, limit }), version);
  const items = state.data?.items ?? [];
  const counts = rule ? rule.counts : rules ? totalsByUrgency(rules) : null;
  const headingId = `dashboard-${section.id}`;
  const emptyText = t(section.empty ?? (todo ? 'dashboard:todo.empty' : 'dashboard:list.empty'));

  const chips = !todo && (
    <div className="dashboard-filters">
      {rule && (
        <span className="rule-chip">
          {t('dashboard:list.rule', { label: rule.label })}
          <button type="button" className="btn-close btn-close-sm ms-2" aria-label={t('dashboard:list.clearRule')} onClick={onClearRule} />
        </span>
      )}
      <UrgencyChips value={urgency} counts={counts} onChange={setUrgency} />
    </div>
  );

  return (
    <SectionFrame id={section.id} kind={section.kind} title={section.title ? t(section.title) : undefined} level={level} headingId={headingId} actions={chips}>
      <div aria-busy={state.loading}>
        <DataState loading={state.loading} error={state.error} hasData={state.data !== null} empty={state.data !== null && items.length === 0} emptyText={emptyText} />
        {items.length > 0 &&
          (wide && !todo ? <ItemsTable items={items} vehicle={vehicle} onOpen={handlers.onOpen} /> : <ItemCards items={items} vehicle={vehicle} handlers={handlers} withActions={todo} />)}
        {state.data && (
          <Pager offset={offset} limit={limit} shown={items.length} total={state.data.total} busy={state.loading} onPage={(next) => setPage({ choice, offset: next })} />
        )}
      </div>
    </SectionFrame>
  );
}
