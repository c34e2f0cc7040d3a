/**
 * Columns a client's configuration removes (spec §6 "Columns and options": some columns of the
 * assignments and vehicles tables, and of the order position table, are hidden through
 * configuration lists): `config.hiddenColumns` maps a table screen's id (`assignments-table`) or a
 * details list's entity (`order-position`) to the ids of the columns it does not show. A variant
 * sets it in its variant.json; the columns' own conditions still apply to the rest.
 */
export type HiddenColumns = Record<string, readonly string[]>;

export function hiddenColumnsOf(config: Record<string, unknown> | undefined, name: string | undefined): ReadonlySet<string> {
  const lists = config?.hiddenColumns as HiddenColumns | undefined;
  const ids = name && lists && Object.hasOwn(lists, name) ? lists[name] : [];
  return new Set(Array.isArray(ids) ? ids : []);
}
