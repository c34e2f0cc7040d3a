import { describe, expect, it } from 'vitest';
import { addMenuEntry, menuIds, menuRoutes, moveColumn, moved, moveMenuEntry, setAfterDays, setColumnExported, setColumnHidden, setColumnWidth, setThreshold, wholeNumber } from './edits';

describe('edits of whole documents', () => {
  it('moves an item up or down and leaves it at the ends', () => {
    expect(moved([1, 2, 3], 1, -1)).toEqual([2, 1, 3]);
    expect(moved([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });

  it('hides, widens and reorders table columns', () => {
    const table = { columns: [{ id: 'a', width: 100 }, { id: 'b', hide: true }] };
    setColumnHidden(table, 0, true);
    setColumnHidden(table, 1, false);
    setColumnWidth(table, 0, null);
    setColumnWidth(table, 1, 140);
    moveColumn(table, 1, -1);
    expect(table.columns).toEqual([{ id: 'b', width: 140 }, { id: 'a', hide: true }]);
    setColumnExported(table, 0, false);
    expect(table.columns[0]).toEqual({ id: 'b', width: 140, exported: false });
    setColumnExported(table, 0, true);
    expect(table.columns[0]).toEqual({ id: 'b', width: 140 });
  });

  it('adds a menu entry with its custom label and reorders entries', () => {
    const menu = { groups: [{ id: 'g', items: [{ id: 'x', route: '/app/x' }, { id: 'y', route: '/app/y' }] }] };
    addMenuEntry(menu, { groupId: 'g', id: 'z', route: '/app/z', icon: 'star', label: 'custom:menu.z' });
    moveMenuEntry(menu, 0, 2, -1);
    expect(menu.groups[0].items.map((i) => i.id)).toEqual(['x', 'z', 'y']);
    expect(menu.groups[0].items[1]).toEqual({ id: 'z', route: '/app/z', icon: 'star', label: 'custom:menu.z' });
    expect(menuIds(menu).has('z')).toBe(true);
  });

  it('offers the routes of signed-in pages only', () => {
    const routes = { routes: [
      { id: 'login', path: '/', screen: 'login', public: true },
      { id: 'app', path: '/app', redirect: '/app/x' },
      { id: 'out', path: '/sign-out', action: 'signOut', public: true },
      { id: 'x', path: '/app/x', screen: 'x', title: 'menu:items.x' },
      { id: 'y', path: '/app/y', screens: [{ screen: 'y' }] },
    ] };
    expect(menuRoutes(routes).map((r) => r.path)).toEqual(['/app/x', '/app/y']);
  });

  it('changes a reminder rule’s thresholds and its days after the date', () => {
    const reminders = { rules: [{ id: 'r', due: { kind: 'date', field: 'f', afterDays: 90 }, thresholds: { urgent: 7, soon: 14 } }] };
    setThreshold(reminders, 0, 'soon', 21);
    setAfterDays(reminders, 0, null);
    expect(reminders.rules[0]).toEqual({ id: 'r', due: { kind: 'date', field: 'f' }, thresholds: { urgent: 7, soon: 21 } });
  });

  it('reads whole numbers from inputs', () => {
    expect(wholeNumber(' 12 ')).toBe(12);
    expect(wholeNumber('')).toBeNull();
    expect(wholeNumber('1.5')).toBeNaN();
  });
});
