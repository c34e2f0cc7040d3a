/**
 * Default i18n keys, so that a screen file only names a label when it differs from the default.
 * The runtime and the config check use the same rules, so a missing text is caught before users see it.
 */
export const fieldLabelKey = (namespace: string, fieldId: string) => `${namespace}:fields.${fieldId}`;
export const menuGroupKey = (groupId: string) => `menu:groups.${groupId}`;
export const menuItemKey = (itemId: string) => `menu:items.${itemId}`;

/** Splits `ns:path.to.key` into its namespace and path. */
export function splitKey(key: string): { ns: string; path: string[] } {
  const i = key.indexOf(':');
  return { ns: key.slice(0, i), path: key.slice(i + 1).split('.') };
}

/** Whether `locales[ns]` holds a string at the key's path. */
export function hasKey(locales: Record<string, unknown>, key: string): boolean {
  const { ns, path } = splitKey(key);
  let node: unknown = locales[ns];
  for (const part of path) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string';
}
