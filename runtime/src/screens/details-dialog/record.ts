/**
 * Pure parts of the details dialog: the record it shows (an entity record taken out of a richer
 * reply, the reply's other members kept beside it), its title, the rows of a list, and the buttons
 * a declaration expands to (one per item of a list the record carries: the status moves offered).
 */
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import type { DetailsButtonDecl } from '../../config/bundle';

type Data = Record<string, unknown>;

const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The record of the dialog: the reply itself, or its `member` with the reply's other members beside its fields. */
export function dialogRecord(reply: Data, member?: string): Data {
  if (!member) return reply;
  const { [member]: inner, ...others } = reply;
  return { ...others, ...(isObject(inner) ? inner : {}) };
}

/** The value of the title field, or of the first of the title fields that has one. */
export function titleValue(record: Data, titleField: string | string[] | undefined): string {
  for (const f of typeof titleField === 'string' ? [titleField] : (titleField ?? [])) {
    const v = record[f];
    if (v !== null && v !== undefined && String(v).trim() !== '') return String(v);
  }
  return '';
}

/** The rows a list shows: the objects in that member of the record. */
export function listRows(record: Data, field: string): Data[] {
  const rows = record[field];
  return Array.isArray(rows) ? rows.filter(isObject) : [];
}

/**
 * The record with its name as users know it (`recordName`, core/record-name.ts: an order by its
 * number, else the day it was reported), for the buttons' rows: a confirmation's facts name the
 * record as the dialog's title does, never by its internal id.
 */
export function namedRecord(record: Data, recordName: string | null): Data {
  return recordName === null || record.recordName !== undefined ? record : { ...record, recordName };
}

export interface ButtonInstance {
  key: string;
  button: DetailsButtonDecl;
  /** The text's locale key: the button's label, or the item's. */
  label: string;
  /** Its colour: the item's (itemTones by the item's id), else the button's. */
  tone?: string;
  /** What the action runs on (and its conditions see as record): the record, or the record with the item's fields. */
  row: Data;
  disabled: boolean;
}

/**
 * The buttons shown for a record: each declared button whose conditions hold, or with forEach one
 * per item of that member (labelled by the item, its fields beside the record's), in declaration order.
 */
export function buttonInstances(buttons: DetailsButtonDecl[] | undefined, record: Data, ev: ConditionEvaluator, ctx: ConditionContext): ButtonInstance[] {
  const out: ButtonInstance[] = [];
  for (const button of buttons ?? []) {
    const rows = button.forEach ? listRows(record, button.forEach).map((item) => ({ item, row: { ...record, ...item } })) : [{ item: null, row: record }];
    rows.forEach(({ item, row }, i) => {
      const here = { ...ctx, record: row };
      if (!ev.isVisible(button, here)) return;
      const itemLabel = item ? item[button.labelField ?? 'label'] : undefined;
      const label = typeof itemLabel === 'string' && itemLabel ? itemLabel : button.label;
      if (!label) return;
      const itemTone = item && typeof item.id === 'string' ? button.itemTones?.[item.id] : undefined;
      out.push({ key: item ? `${button.id}-${i}` : button.id, button, label, tone: itemTone ?? button.tone, row, disabled: ev.isDisabled(button, here) });
    });
  }
  return out;
}
