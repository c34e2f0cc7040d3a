/**
 * The fixed texts of the `data-import` screen type: keys inside the namespace the screen file names
 * (`texts`, e.g. locales/pl/data-import.json). The component reads them through `textKey`, and the
 * cross-check (check.ts) requires each one, so a variant's locale cannot lose one unnoticed.
 * No React here: the server's cross-check imports it.
 */
export const TEXT_KEYS = [
  'steps',
  'next',
  'back',
  'declaration.legend',
  'declaration.none',
  'declaration.key',
  'file.drop',
  'file.choose',
  'file.chosen',
  'file.detected',
  'file.columns',
  'file.reading',
  'file.onlyOne',
  'mapping.caption',
  'mapping.column',
  'mapping.sample',
  'mapping.field',
  'mapping.fieldFor',
  'mapping.skip',
  'mapping.required',
  'mapping.unknown',
  'mapping.requiredMissing',
  'mapping.duplicate',
  'mapping.check',
  'dryRun.running',
  'dryRun.counts',
  'dryRun.errorsTitle',
  'dryRun.row',
  'dryRun.column',
  'dryRun.message',
  'dryRun.noErrors',
  'dryRun.moreErrors',
  'dryRun.download',
  'dryRun.chooseFixed',
  'dryRun.onErrorLegend',
  'dryRun.missingLegend',
  'dryRun.blocked',
  'dryRun.failed',
  'dryRun.start',
  'import.running',
  'import.progressLabel',
  'import.progress',
  'import.progressUnknown',
  'import.succeeded',
  'import.failed',
  'import.cancelled',
  'import.again',
  'history.empty',
  'history.previous',
  'history.next',
  'history.page',
] as const;

export type TextKey = (typeof TEXT_KEYS)[number];

/** The i18next key of a fixed text in the screen's namespace. */
export const textKey = (namespace: string, key: TextKey) => `${namespace}:${key}`;
