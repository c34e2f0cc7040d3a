/**
 * What a dashboard reads when it is first drawn (issue 47: asked ahead of its code at start-up,
 * routing/first-reads.ts), and the addresses its sections read, so that the two are the same
 * strings: the reminders' summary when a section shows counts, the first page of a to-do or
 * reminders list, a notice's record. Pure: no React.
 */
import type { ReminderItems } from '../../../core/generated/api';
import type { DashboardFile } from '../../../core/generated/meta';
import type { ScreenReads } from '../types';

type Section = DashboardFile['sections'][number];

/** The sections that show the reminders' counts (the summary is read once for them all). */
export const SUMMARY_KINDS = new Set<Section['kind']>(['tiles', 'list', 'strip']);

/** A to-do or reminders list's page size when the screen declares none. */
export const ITEMS_PAGE = 10;

export interface ItemsQuery {
  rule?: string | null;
  urgency?: ReminderItems['items'][number]['urgency'] | null;
  offset?: number;
  limit?: number;
}

/** `/reminders/items?rule=insuranceOc&urgency=urgent&offset=10&limit=10` (empty parts left out). */
export function itemsPath(endpoint: string, query: ItemsQuery): string {
  const params = new URLSearchParams();
  if (query.rule) params.set('rule', query.rule);
  if (query.urgency) params.set('urgency', query.urgency);
  if (query.offset) params.set('offset', String(query.offset));
  if (query.limit) params.set('limit', String(query.limit));
  const text = params.toString();
  return text ? `${endpoint}?${text}` : endpoint;
}

export const reads: ScreenReads<DashboardFile> = (screen, { conditions, ctx }) => {
  const sections = screen.sections.filter((s) => conditions.isVisible(s, ctx));
  const reminders = screen.reminders;
  const paths: string[] = [];
  if (reminders && sections.some((s) => SUMMARY_KINDS.has(s.kind))) paths.push(reminders.summary);
  for (const section of sections) {
    // a list's first page: no rule or urgency chosen yet (ReminderItemsSection.tsx)
    if ((section.kind === 'todo' || section.kind === 'list') && reminders) paths.push(itemsPath(reminders.items, { limit: section.pageSize ?? ITEMS_PAGE }));
    if (section.kind === 'notice') paths.push(section.endpoint);
  }
  return paths;
};
