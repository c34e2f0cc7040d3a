/**
 * The writes that are not business changes (issue 45): POST, PUT, PATCH and DELETE operations of
 * the OpenAPI document that leave no trail entry, each with its reason. Every other write
 * operation, called with valid input by a role allowed to, adds a trail entry:
 * tests/api/audit-coverage.test.ts walks the document and holds each operation to one or the other.
 * Keep it short: a new write belongs here only when it changes nothing anyone would audit.
 */
export interface NotBusinessWrite {
  /** The operationId, or a pattern over operationIds (`<resource><Action>`, server/plugins/openapi.ts). */
  operation: string | RegExp;
  reason: string;
}

export const NOT_BUSINESS_WRITES: readonly NotBusinessWrite[] = [
  { operation: /(Table|TableCount|Table2)$/, reason: 'a read: a table\'s page, filter and sort are sent in a POST body' },
  { operation: /ExcelPrepare$/, reason: 'a read: the Excel file of a table is prepared for a one-time download' },
  { operation: /DownloadLink$/, reason: 'a one-time download token of a file the caller may read' },
  { operation: /^(assignment|car|damage|order)Attachments$/, reason: 'a read: the attachments of a record' },
  { operation: /^(autoCompleteCompaniesSearch|orderRangePlan|orderServicePlanTable|usersUsers|importPreview)$/, reason: 'a read sent as POST (a search, a plan, a file\'s head)' },
  { operation: /^userTableSettings(Filter|View)(Save|Delete)$/, reason: 'a table layout of the user\'s own (saved filters and views)' },
  { operation: /^notificationRead(All)?$/, reason: 'a read marker of the caller\'s own notifications' },
  { operation: /^(securityPasskeyOptions|sessionPasskeyOptions|sessionPasskeyOnlyOptions)$/, reason: 'a challenge (nonce) for a passkey ceremony; the ceremony\'s outcome is recorded' },
  { operation: 'securityTotpSetup', reason: 'a secret offered to the authenticator app, not yet in use; its confirmation is recorded' },
  { operation: 'settingsEmailTest', reason: 'sends a test e-mail with the settings given; changes nothing' },
  { operation: 'webhooksEndpointTest', reason: 'sends a test event to an endpoint; changes nothing' },
  { operation: 'pushTest', reason: 'sends a test push message to the caller\'s own devices; changes nothing but their last answer (a device its push service no longer knows is dropped, as any delivery drops it)' },
  { operation: /^reports(Run|Export)$/, reason: 'a read: a report\'s period, grouping and filters are sent in a POST body (issue 46)' },
  { operation: 'reportsSubscriptionSend', reason: 'a send of a report subscription ("Wyślij teraz"): its own log, report_send, keeps it with the e-mail\'s state (issue 46)' },
  { operation: 'accountSaveLanguage', reason: 'the language a person reads the portal in, his own preference like a table layout (issue 48)' },
  { operation: /^configStudio(SaveDocuments|CreateDocument|SaveText|DiscardDraft|RebaseDraft|RevertChange|ForgetDocument|Import)$/, reason: 'the studio\'s draft, not the configuration in use; its publish and restore are recorded' },
];

/** The reason a write operation leaves no trail entry, or undefined when it must leave one. */
export function notBusinessReason(operationId: string): string | undefined {
  return NOT_BUSINESS_WRITES.find((w) => (typeof w.operation === 'string' ? w.operation === operationId : w.operation.test(operationId)))?.reason;
}
