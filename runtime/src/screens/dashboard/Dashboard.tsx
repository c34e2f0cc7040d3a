/**
 * The `dashboard` screen type (the cockpit, Pulpit; schemas/meta/dashboard.schema.json): its
 * declared sections in order, each when its conditions hold — reminder tiles, the list of what is
 * due, a driver's to-do, the approval inbox, charts, a one-line strip. The reminder sections share
 * one read of the summary; a tile without a table chooses the list's rule. A row opens its record's
 * details dialog on the rule's tab (actions/run-action.ts openDialog with `tab`), a to-do its
 * rule's dialog (the odometer reading); whatever a dialog or a decision changes, the whole
 * dashboard is read again.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from '../../config/texts';
import type { ReminderSummary } from '../../../core/generated/api';
import { runAction, type ActionEffects, type DialogOpening } from '../../actions/run-action';
import { useConfig } from '../../config/ConfigContext';
import type { DashboardDecl, DashboardSectionDecl } from '../../config/bundle';
import { useConditionContext } from '../../config/useConditionContext';
import { useNavigateTo } from '../../routing/useNavigateTo';
import { useMediaQuery } from '../../shell/useMediaQuery';
import { ScreenView } from '../ScreenView';
import type { ScreenProps } from '../types';
import { ApprovalInbox } from './ApprovalInbox';
import { ChartsSection } from './ChartsSection';
import { NoticeSection } from './NoticeSection';
import { DataState, type HeadingLevel, SectionFrame } from './parts';
import { ReminderItemsSection, type ItemHandlers } from './ReminderItemsSection';
import { ReminderStrip } from './ReminderStrip';
import { FoldedTiles, ReminderTiles } from './ReminderTiles';
import { SUMMARY_KINDS } from './reads';
import { shownTiles, type RuleSummary } from './reminders';
import { useGet } from './useGet';

/** A phone: tiles declared `narrow: counts` fold into one line (Bootstrap's md, as the list's cards). */
const PHONE = '(max-width: 767.98px)';

export default function Dashboard({ screen, screenId, presentation }: ScreenProps<DashboardDecl>) {
  const { t } = useTranslation();
  const { conditions } = useConfig();
  const ctx = useConditionContext();
  const navigateTo = useNavigateTo();
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  const [ruleId, setRuleId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ screen: string; id: unknown; opening?: DialogOpening } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const phone = useMediaQuery(PHONE);

  const sections = useMemo(() => screen.sections.filter((s) => conditions.isVisible(s, ctx)), [screen.sections, conditions, ctx]);
  const reminders = screen.reminders;
  const needsSummary = Boolean(reminders) && sections.some((s) => SUMMARY_KINDS.has(s.kind));
  const summary = useGet<ReminderSummary>(needsSummary && reminders ? reminders.summary : null, version);
  const rules = summary.data?.rules ?? null;
  const rule = (ruleId && rules?.find((r) => r.id === ruleId)) || null;
  const hasList = sections.some((s) => s.kind === 'list');

  const openDialog: ActionEffects['openDialog'] = useCallback((target, id, opening) => setDialog({ screen: target, id, opening }), []);
  const effects: ActionEffects = { navigate: navigateTo, openDialog };
  const handlers: ItemHandlers = {
    // the record's details dialog, on the tab of the rule (insurance, contract …)
    onOpen: (item) => void runAction({ kind: 'openDialog', screen: item.open.screen, tab: item.open.tab }, { id: item.open.id }, effects),
    // the rule's dialog about the item's vehicle (the odometer reading: mode create, its vehicle from the item)
    onAction: (item) => item.action && void runAction({ kind: 'openDialog', screen: item.action.screen, mode: item.action.mode, idField: reminders?.vehicle.id }, item, effects),
  };
  const showRule = (r: RuleSummary) => {
    const next = ruleId === r.id ? null : r.id;
    setRuleId(next);
    // the list shows the rule's items: bring it into view for those who clicked, and say so to those who listen
    if (next) listRef.current?.querySelector<HTMLElement>('.dashboard-section-title')?.focus();
  };

  const page = presentation === 'page' || presentation === 'modal';
  const TitleTag = page ? 'h1' : 'h2';
  const level: HeadingLevel = screen.title && !page ? 3 : 2;

  const renderSection = (section: DashboardSectionDecl) => {
    const title = 'title' in section && section.title ? t(section.title) : undefined;
    const headingId = `dashboard-${section.id}`;
    switch (section.kind) {
      case 'tiles': {
        const tiles = rules ? shownTiles(rules, section.hideEmpty) : [];
        const Tiles = phone && section.narrow === 'counts' ? FoldedTiles : ReminderTiles;
        return (
          <SectionFrame key={section.id} id={section.id} kind="tiles" title={title} level={level} headingId={headingId} plain>
            <DataState loading={summary.loading} error={summary.error} hasData={rules !== null} empty={rules !== null && tiles.length === 0} emptyText={t('dashboard:list.empty')} />
            {tiles.length > 0 && <Tiles rules={tiles} activeRule={hasList ? ruleId : null} onShowRule={hasList ? showRule : undefined} />}
          </SectionFrame>
        );
      }
      case 'list':
      case 'todo':
        if (!reminders) return null;
        return (
          <div key={section.id} ref={section.kind === 'list' ? listRef : undefined}>
            <ReminderItemsSection
              section={section}
              endpoint={reminders.items}
              vehicle={reminders.vehicle}
              level={level}
              version={version}
              rule={section.kind === 'list' ? rule : null}
              rules={section.kind === 'list' ? rules : null}
              onClearRule={() => setRuleId(null)}
              handlers={handlers}
            />
          </div>
        );
      case 'inbox':
        return <ApprovalInbox key={section.id} section={section} level={level} version={version} onDone={reload} openDialog={openDialog} />;
      case 'charts':
        return <ChartsSection key={section.id} section={section} level={level} version={version} />;
      case 'strip':
        return <ReminderStrip key={section.id} section={section} summary={summary.data} />;
      case 'notice':
        return <NoticeSection key={section.id} section={section} version={version} />;
      default:
        return null;
    }
  };

  return (
    <div className={`dashboard${page ? ' dashboard--page' : ' dashboard--embedded'}`} data-screen={screenId}>
      {screen.title && <TitleTag className="page-title">{t(screen.title)}</TitleTag>}
      {sections.map(renderSection)}
      {dialog && (
        <ScreenView
          screenId={dialog.screen}
          presentation="dialog"
          params={{ id: dialog.id }}
          opening={dialog.opening}
          onClose={() => setDialog(null)}
          onChanged={reload}
        />
      )}
    </div>
  );
}
