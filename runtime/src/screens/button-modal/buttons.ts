/**
 * The buttons of a `button-modal` screen, as a pure function: one per item of its data source, the
 * first rule whose `when` holds for the item deciding whether it shows and what it opens.
 */
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import type { ButtonModalDecl } from '../../config/bundle';

type Rule = ButtonModalDecl['rules'][number];

export interface ItemButton {
  item: ButtonModalDecl['items'][number];
  /** The dialog screen it opens. */
  screen: string;
  /** The dialog's starting values, taken from the item. */
  values: Record<string, unknown>;
  /** The explanation of a button whose screen is not configured (it shows disabled). */
  unavailable?: string;
}

/** Each item's button: none when no rule applies or its rule hides it; else what it opens with which values. */
export function itemButtons(screen: Pick<ButtonModalDecl, 'items' | 'rules'>, ev: ConditionEvaluator, ctx: ConditionContext, hasScreen: (id: string) => boolean): ItemButton[] {
  return screen.items.flatMap((item) => {
    const itemCtx = { ...ctx, record: item as Record<string, unknown> };
    const rule: Rule | undefined = screen.rules.find((r) => r.when === undefined || ev.matches(r.when, itemCtx));
    if (!rule || !ev.isVisible(rule, itemCtx)) return [];
    const values = Object.fromEntries(Object.entries(rule.values ?? {}).map(([path, property]) => [path, (item as Record<string, unknown>)[property]]));
    return [{ item, screen: rule.screen, values, unavailable: hasScreen(rule.screen) ? undefined : rule.unavailable }];
  });
}
