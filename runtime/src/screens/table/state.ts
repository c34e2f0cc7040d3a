/**
 * A table's layout (column order, widths, visibility, pinning, sort, filter) kept per table in
 * localStorage under `portal.table.<stateKey>` (spec §9). Scroll position and focus are not kept.
 */
import type { GridState } from 'ag-grid-community';

export const TABLE_STATE_PREFIX = 'portal.table.';

const KEPT: (keyof GridState)[] = ['columnOrder', 'columnSizing', 'columnVisibility', 'columnPinning', 'sort', 'filter'];

export function loadTableState(stateKey: string): GridState | undefined {
  try {
    const raw = localStorage.getItem(TABLE_STATE_PREFIX + stateKey);
    return raw ? (JSON.parse(raw) as GridState) : undefined;
  } catch {
    return undefined;
  }
}

export function saveTableState(stateKey: string, state: GridState): void {
  const kept = Object.fromEntries(KEPT.filter((k) => state[k] !== undefined).map((k) => [k, state[k]]));
  try {
    localStorage.setItem(TABLE_STATE_PREFIX + stateKey, JSON.stringify(kept));
  } catch {
    // storage full or disabled: the table still works, it just forgets its layout
  }
}

export function clearTableState(stateKey: string): void {
  localStorage.removeItem(TABLE_STATE_PREFIX + stateKey);
}

/** The chosen preset filter (Aktualne / Archiwalne / Wszystkie) of a table, kept beside its layout. */
export function loadPreset(stateKey: string): string | undefined {
  try {
    return localStorage.getItem(`${TABLE_STATE_PREFIX}${stateKey}.preset`) ?? undefined;
  } catch {
    return undefined;
  }
}

export function savePreset(stateKey: string, preset: string): void {
  try {
    localStorage.setItem(`${TABLE_STATE_PREFIX}${stateKey}.preset`, preset);
  } catch {
    // storage disabled: the choice lasts until the page is left
  }
}
