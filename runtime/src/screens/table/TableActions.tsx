/**
 * The buttons above a table that run a declared action (`toolbarActions`: add, edit, copy, delete
 * …), on the selected row when they need one; without a selected row such a button says so
 * (its `needsRow` text, e.g. 'Należy zaznaczyć rekord, który zostanie skopiowany').
 */
import Button from 'react-bootstrap/Button';
import { useTranslation } from '../../config/texts';
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import type { ActionDecl, ToolbarActionDecl } from '../../config/bundle';
import { showToast } from '../../state/ui';
import { FoldedActions } from './FoldedActions';
import { useNarrow } from './narrow';

type Row = Record<string, unknown>;

/** More buttons than this fold into a menu on a phone. */
const FOLD_FROM = 2;

/** What a toolbar button does with the selection: run on it, run without a row, or warn. */
export function toolbarOutcome(item: Pick<ToolbarActionDecl, 'needsRow'>, selected: Row | null): { run: Row | null } | { warn: string } {
  if (!item.needsRow) return { run: null };
  return selected ? { run: selected } : { warn: item.needsRow };
}

export function TableActions({ items, selected, conditions, ctx, onRun, hasScreen = () => true }: {
  items: ToolbarActionDecl[];
  /** Whether a dialog screen is configured; a button whose dialog is not shows disabled with its `unavailable` text. */
  hasScreen?: (id: string) => boolean;
  selected: Row | null;
  conditions: ConditionEvaluator;
  ctx: ConditionContext;
  onRun: (action: ActionDecl, row: Row | null) => void;
}) {
  const { t } = useTranslation();
  const narrow = useNarrow();
  const visible = items.filter((item) => conditions.isVisible(item, ctx));
  const press = (item: ToolbarActionDecl) => {
    const outcome = toolbarOutcome(item, selected);
    if ('warn' in outcome) showToast('warning', t(outcome.warn), `toolbar:${item.id}`);
    else onRun(item.action, outcome.run);
  };
  // on a phone a row of many buttons pushed the table below the first screen (issue 49): the first
  // stays a button, the others fold into one menu
  if (narrow && visible.length > FOLD_FROM) {
    return <FoldedActions items={visible} hasScreen={hasScreen} onPress={press} />;
  }
  return (
    <div className="table-actions d-flex flex-wrap gap-2" role="toolbar" aria-label={t('table:actions')}>
      {visible.map((item) => {
        // a button whose dialog is not configured yet is disabled; its explanation is the title of a focusable wrapper
        const unavailable = item.unavailable && item.action.screen && !hasScreen(item.action.screen) ? t(item.unavailable) : undefined;
        const button = (
          <Button
            key={item.id}
            size="sm"
            variant={item.needsRow || unavailable ? 'outline-secondary' : 'primary'}
            data-action={unavailable ? undefined : item.id}
            disabled={!!unavailable}
            onClick={() => press(item)}
          >
            {item.icon && <i className={`bi bi-${item.icon} me-1`} aria-hidden="true" />}
            {t(item.label)}
          </Button>
        );
        return unavailable ? (
          <span key={item.id} className="d-inline-block" tabIndex={0} title={unavailable} aria-label={`${t(item.label)}: ${unavailable}`} data-action={item.id}>
            {button}
          </span>
        ) : button;
      })}
    </div>
  );
}
