/**
 * The side menu of screens/menu.json, filtered for one context: groups and items whose
 * visibleWhen/hiddenWhen fail are dropped, and so is a group left without items. Pure, so that
 * every role's menu is unit-tested against the real menu file.
 */
import type { ConditionContext, ConditionEvaluator } from '../../core/conditions';
import { menuGroupKey, menuItemKey } from '../../core/labels';
import type { MenuDecl } from '../config/bundle';

export interface VisibleMenuItem {
  id: string;
  labelKey: string;
  route: string;
  icon?: string;
}

export interface VisibleMenuGroup {
  id: string;
  labelKey: string;
  items: VisibleMenuItem[];
}

export const DEFAULT_MENU_WIDTH = 240;
export const DEFAULT_MENU_BREAKPOINT = 992;

export function visibleMenu(menu: MenuDecl, ev: ConditionEvaluator, ctx: ConditionContext): VisibleMenuGroup[] {
  const groups: VisibleMenuGroup[] = [];
  for (const group of menu.groups) {
    if (!ev.isVisible(group, ctx)) continue;
    const items = group.items
      .filter((item) => ev.isVisible(item, ctx))
      .map((item) => ({ id: item.id, labelKey: item.label ?? menuItemKey(item.id), route: item.route, icon: item.icon }));
    if (items.length) groups.push({ id: group.id, labelKey: group.label ?? menuGroupKey(group.id), items });
  }
  return groups;
}
