/**
 * ag-grid's own texts (filter menus, "no rows") from the table namespace: every key under
 * table:filters is passed to the grid as is, so an analyst can translate more grid texts by
 * adding keys with ag-grid's names.
 */
import type { i18n as I18n } from 'i18next';
import { patternText } from '../../../core/date-text';
import { formatSettings } from '../../format-settings';

export function gridLocaleText(i18n: I18n): Record<string, string> {
  const filters = i18n.getResource(i18n.language, 'table', 'filters') as Record<string, unknown> | undefined;
  const texts: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters ?? {})) if (typeof value === 'string') texts[key] = value;
  texts.noRowsToShow = i18n.t('table:noRows');
  texts.loadingOoo = i18n.t('table:loading');
  // the date filter's placeholder: the reader's pattern in his letters, as the forms' date fields show it
  texts.dateFormatOoo = patternText(formatSettings().datePattern, (key) => i18n.t(key));
  return texts;
}
