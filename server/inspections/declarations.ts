/**
 * The inspections of the configuration (screens/inspections.json, overlaid per variant): the
 * checklists, which one is used when, and what a failed item opens. Only reads the configuration;
 * nothing here touches the database, so the service, the configuration check and the tests share it.
 */
import type { InspectionsFile } from '../../runtime/core/generated/meta.ts';
import type { Bundle } from '../config/bundle.ts';

export type { InspectionsFile };
export type Checklist = InspectionsFile['checklists'][number];
export type ChecklistGroup = Checklist['groups'][number];
export type ChecklistItem = ChecklistGroup['items'][number];
export type Severity = ChecklistItem['severity'];
export type Opens = 'damage' | 'serviceOrder' | 'nothing';
export type Occasion = 'handover' | 'return' | 'periodic' | 'adhoc';

export function inspectionsFile(bundle: Pick<Bundle, 'screens'>): InspectionsFile | undefined {
  return bundle.screens.inspections as unknown as InspectionsFile | undefined;
}

export function checklistById(file: InspectionsFile, id: string): Checklist | undefined {
  return file.checklists.find((c) => c.id === id);
}

/** Every item of a checklist with its group, in the checklist's order. */
export function itemsOf(checklist: Checklist): { group: ChecklistGroup; item: ChecklistItem }[] {
  return checklist.groups.flatMap((group) => group.items.map((item) => ({ group, item })));
}

/** What a failed item opens: its own `opens`, else the first onFailure rule matching its severity and group, else nothing. */
export function opensFor(file: Pick<InspectionsFile, 'onFailure'>, group: Pick<ChecklistGroup, 'id'>, item: Pick<ChecklistItem, 'severity' | 'opens'>): Opens {
  if (item.opens) return item.opens;
  const rule = file.onFailure.find((r) => r.severities.includes(item.severity) && (!r.groups || r.groups.includes(group.id)));
  return rule?.opens ?? 'nothing';
}

/** The occasions the configuration uses a checklist for (adhoc: any checklist, at any time). */
export function occasionsOf(file: InspectionsFile, checklistId: string): Occasion[] {
  const occasions: Occasion[] = [];
  if (file.use.handover === checklistId) occasions.push('handover');
  if (file.use.return === checklistId) occasions.push('return');
  if (file.use.periodic.some((p) => p.checklist === checklistId)) occasions.push('periodic');
  occasions.push('adhoc');
  return occasions;
}

/** An item's measure with its defaults (unit mm, n.a. allowed, a photo needed when failed). */
export const allowsNotApplicable = (item: ChecklistItem) => item.notApplicable !== false;
export const needsPhotoWhenFailed = (item: ChecklistItem) => item.photoWhenFailed !== false;
export const asksOdometer = (checklist: Checklist) => checklist.odometer !== false;
